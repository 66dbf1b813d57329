import { createHash, createHmac, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { clock } from '../clock';
import { config } from '../config';
import { logger } from '../logger';
import { appRedis, redisKey } from '../redis';
import { tokenKeys } from '../tokens';

/**
 * Video rooms for telemedicine, behind one interface shaped like LiveKit's: rooms are created and deleted through
 * the provider's server API, people join with an access token (a JWT signed with the API secret naming the room and
 * the participant), and the provider reports what happens in the room through signed webhooks
 * (`room_started`, `participant_joined`, `track_published`, `participant_left`, `room_finished`).
 *
 * `sandbox` (the default) behaves like the provider on loopback: it issues real access tokens and, a moment after
 * each change, delivers the provider's signed webhooks to the platform's own `/api/webhooks/video`. `livekit` calls
 * a LiveKit server (`VIDEO_API_URL`).
 */
export interface VideoRoom {
  name: string;
  sid: string;
}

export interface JoinGrant {
  room: string;
  identity: string;
  name: string;
  ttlSeconds: number;
}

export interface VideoProvider {
  readonly name: string;
  createRoom(name: string): Promise<VideoRoom>;
  deleteRoom(name: string): Promise<void>;
  /** Disconnects someone who should not be in the room. */
  removeParticipant(room: string, identity: string): Promise<void>;
  accessToken(grant: JoinGrant): Promise<{ token: string; expiresAt: Date }>;
}

/**
 * API key and secret. Without configured ones, the sandbox uses a key pair derived from the deployment's internal
 * secret (random per deployment), so its webhooks verify and nobody else can forge them.
 */
export async function videoCredentials(): Promise<{ key: string; secret: string }> {
  const cfg = config();
  if (cfg.VIDEO_API_KEY && cfg.VIDEO_API_SECRET) return { key: cfg.VIDEO_API_KEY, secret: cfg.VIDEO_API_SECRET };
  if (cfg.VIDEO_PROVIDER !== 'sandbox') throw new Error('VIDEO_PROVIDER=livekit needs VIDEO_API_KEY and VIDEO_API_SECRET');
  const { internalSecret } = await tokenKeys();
  return { key: 'sandbox-video', secret: createHmac('sha256', internalSecret).update('ccp-video-sandbox').digest('base64url') };
}

const secretBytes = (secret: string) => new TextEncoder().encode(secret);

/** A LiveKit access token: HS256, issuer = API key, subject = participant identity, `video` grant for one room. */
async function signAccessToken(grant: JoinGrant, video: Record<string, unknown>): Promise<{ token: string; expiresAt: Date }> {
  const { key, secret } = await videoCredentials();
  const now = Math.floor(clock.nowMs() / 1000);
  const exp = now + grant.ttlSeconds;
  const token = await new SignJWT({ name: grant.name, video })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(key)
    .setSubject(grant.identity)
    .setJti(grant.identity)
    .setNotBefore(now)
    .setExpirationTime(exp)
    .sign(secretBytes(secret));
  return { token, expiresAt: new Date(exp * 1000) };
}

const joinGrant = (room: string) => ({ room, roomJoin: true, canPublish: true, canSubscribe: true });

/** Signs a webhook body the way LiveKit does: a JWT in `Authorization` whose `sha256` claim is the body's digest. */
export async function signVideoWebhook(body: string): Promise<string> {
  const { key, secret } = await videoCredentials();
  return new SignJWT({ sha256: createHash('sha256').update(body).digest('base64') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(key)
    .setIssuedAt(Math.floor(clock.nowMs() / 1000))
    .setExpirationTime(Math.floor(clock.nowMs() / 1000) + 300)
    .sign(secretBytes(secret));
}

export type VideoWebhookEvent = 'room_started' | 'room_finished' | 'participant_joined' | 'participant_left' | 'track_published';

/** Where the sandbox delivers its webhooks; the platform points it at itself once it listens. */
let sandboxWebhookUrl: string | undefined;
export function setSandboxVideoWebhookUrl(url: string | undefined): void {
  sandboxWebhookUrl = url;
}

interface RoomState {
  sid: string;
  participants: Map<string, { sid: string; name: string }>;
}

export class SandboxVideo implements VideoProvider {
  readonly name = 'sandbox';
  private readonly rooms = new Map<string, RoomState>();
  private readonly pending = new Set<Promise<void>>();

  async createRoom(name: string): Promise<VideoRoom> {
    const existing = this.rooms.get(name);
    if (existing) return { name, sid: existing.sid };
    const room = { sid: `RM_${randomUUID().replace(/-/g, '').slice(0, 12)}`, participants: new Map() };
    this.rooms.set(name, room);
    this.emit('room_started', name, room.sid);
    return { name, sid: room.sid };
  }

  /**
   * The sandbox keeps rooms in this process's memory; another process of the same deployment (a second worker)
   * may be the one asked to close a room or remove someone. Like the provider, it then still reports the outcome.
   */
  async deleteRoom(name: string): Promise<void> {
    const room = this.rooms.get(name);
    for (const identity of [...(room?.participants.keys() ?? [])]) this.leave(name, identity);
    this.rooms.delete(name);
    this.emit('room_finished', name, room?.sid ?? '');
  }

  async removeParticipant(room: string, identity: string): Promise<void> {
    // Kept in Redis, like the sandbox mailbox, so whoever plays the provider's side sees it from any process.
    await appRedis()
      .multi()
      .sadd(removalsKey(room), identity)
      .expire(removalsKey(room), 24 * 3600)
      .exec()
      .catch((err) => logger.warn({ err }, 'sandbox video could not record a removal'));
    if (this.rooms.get(room)?.participants.has(identity)) return this.leave(room, identity);
    this.emit('participant_left', room, this.rooms.get(room)?.sid ?? '', { identity, sid: '', name: identity });
  }

  accessToken(grant: JoinGrant) {
    return signAccessToken(grant, joinGrant(grant.room));
  }

  /**
   * What a client does with a token: connects to the room. Like the provider, the sandbox only checks the token
   * (signature, expiry, room); who may be in the room is the platform's business, told by the webhooks.
   */
  async join(token: string, opts: { publish?: 'audio' | 'video' } = {}): Promise<{ identity: string; room: string }> {
    const { secret, key } = await videoCredentials();
    const { payload } = await jwtVerify(token, secretBytes(secret), { issuer: key, currentDate: clock.now() });
    const room = (payload.video as { room?: string } | undefined)?.room;
    const identity = String(payload.sub ?? '');
    const state = room ? this.rooms.get(room) : undefined;
    if (!room || !state) throw new Error('room does not exist');
    const participant = { sid: `PA_${randomUUID().replace(/-/g, '').slice(0, 12)}`, name: String(payload.name ?? identity) };
    state.participants.set(identity, participant);
    this.emit('participant_joined', room, state.sid, { identity, ...participant });
    if (opts.publish) {
      this.emit(
        'track_published',
        room,
        state.sid,
        { identity, ...participant },
        { sid: `TR_${randomUUID().slice(0, 8)}`, type: opts.publish === 'audio' ? 'AUDIO' : 'VIDEO' },
      );
    }
    return { identity, room };
  }

  leave(room: string, identity: string): void {
    const state = this.rooms.get(room);
    const participant = state?.participants.get(identity);
    if (!state || !participant) return;
    state.participants.delete(identity);
    this.emit('participant_left', room, state.sid, { identity, ...participant });
  }

  /** Resolves once every webhook the sandbox has scheduled so far was delivered (or failed for good). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private emit(
    event: VideoWebhookEvent,
    room: string,
    roomSid: string,
    participant?: { identity: string; sid: string; name: string },
    track?: { sid: string; type: string },
  ): void {
    const body = JSON.stringify({
      event,
      id: `EV_${randomUUID().replace(/-/g, '')}`,
      createdAt: String(Math.floor(clock.nowMs() / 1000)),
      room: { sid: roomSid, name: room },
      ...(participant ? { participant: { sid: participant.sid, identity: participant.identity, name: participant.name } } : {}),
      ...(track ? { track: { sid: track.sid, type: track.type } } : {}),
    });
    const delivery = this.deliver(event, body).finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  }

  /** Delivered in order of emission, a moment later, with a few retries like the provider. */
  private queue: Promise<void> = Promise.resolve();
  private deliver(event: string, body: string): Promise<void> {
    this.queue = this.queue.then(async () => {
      const url = sandboxWebhookUrl ?? new URL('/api/webhooks/video', config().PUBLIC_URL).toString();
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          const res = await fetch(url, {
            method: 'POST',
            // The sandbox stands in for the provider reaching us over HTTPS through the local (trusted) proxy.
            headers: {
              'content-type': 'application/webhook+json',
              authorization: await signVideoWebhook(body),
              'x-forwarded-proto': 'https',
            },
            body,
          });
          if (res.ok) return;
          logger.warn({ event, status: res.status }, 'sandbox video webhook refused');
        } catch (err) {
          logger.warn({ err, event }, 'sandbox video webhook not delivered');
        }
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    });
    return this.queue;
  }
}

/** LiveKit's server API (Twirp over HTTP), for deployments with a LiveKit server or LiveKit Cloud. */
export class LiveKitVideo implements VideoProvider {
  readonly name = 'livekit';

  async createRoom(name: string): Promise<VideoRoom> {
    const room = await this.call<{ sid: string; name: string }>('CreateRoom', { name, empty_timeout: 600 }, { roomCreate: true });
    return { name: room.name, sid: room.sid };
  }

  async deleteRoom(name: string): Promise<void> {
    await this.call('DeleteRoom', { room: name }, { roomCreate: true });
  }

  async removeParticipant(room: string, identity: string): Promise<void> {
    await this.call('RemoveParticipant', { room, identity }, { roomAdmin: true, room });
  }

  accessToken(grant: JoinGrant) {
    return signAccessToken(grant, joinGrant(grant.room));
  }

  private async call<T>(method: string, body: object, video: Record<string, unknown>): Promise<T> {
    const base = config().VIDEO_API_URL;
    if (!base) throw new Error('VIDEO_PROVIDER=livekit needs VIDEO_API_URL');
    const { token } = await signAccessToken({ room: '', identity: 'ccp-server', name: 'ccp-server', ttlSeconds: 60 }, video);
    const res = await fetch(new URL(`/twirp/livekit.RoomService/${method}`, base), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw new Error(`video provider ${method} answered ${res.status}`);
    return (await res.json()) as T;
  }
}

const removalsKey = (room: string) => redisKey('video-sandbox', 'removed', room);

/** Identities the platform asked the sandbox to remove from a room. */
export function sandboxRemovals(room: string): Promise<string[]> {
  return appRedis().smembers(removalsKey(room));
}

let instance: VideoProvider | undefined;

export function videoProvider(): VideoProvider {
  instance ??= config().VIDEO_PROVIDER === 'livekit' ? new LiveKitVideo() : new SandboxVideo();
  return instance;
}

/** The sandbox, for tests and local trials that play the participants' side. */
export function sandboxVideo(): SandboxVideo {
  const provider = videoProvider();
  if (!(provider instanceof SandboxVideo)) throw new Error('the video provider is not the sandbox');
  return provider;
}
