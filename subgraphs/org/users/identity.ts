import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import { appRedis, deleteKeys, redisKey } from '../../../shared/redis';
import { sha256, verifyToken } from '../../../shared/tokens';
import type { Viewer } from '../../../shared/viewer';
import { ApiKey, ApiKeySecret } from '../api-keys/api-key.entity';
import { OrganizationMember } from '../organizations/organization.entity';
import { Session } from './session.entity';
import { User, UserStatus } from './user.entity';

/**
 * Who is calling. The edge turns a bearer token or an API key into a Viewer here, once per request: signatures
 * and hashes are checked offline; sessions, users' roles and memberships, and keys come from Redis (one round
 * trip), and from PostgreSQL when Redis does not hold them. Whatever changes them calls `forgetUser`,
 * `markSessionEnded` or `forgetApiKeySecrets`, so revocation and suspension apply to the next request.
 */
type CachedUser = Omit<Viewer, 'sessionId' | 'apiKey'> & { status: UserStatus };

interface CachedKey {
  keyId: string;
  organizationId: string;
  scopes: string[];
  createdBy: string;
  revoked: boolean;
  /** Epoch ms after which this secret is rejected (a rotated secret's grace period), or null. */
  validUntil: number | null;
}

const USER_TTL_SECONDS = 300;
/** A session's "active" mark is re-checked in PostgreSQL this often, which bounds what a lost revocation costs. */
const SESSION_TTL_SECONDS = 300;
const KEY_TTL_SECONDS = 60;

/** Redis is a cache here: when it is away, the answer comes from PostgreSQL and the cache is skipped. */
async function cached<T>(work: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'redis unavailable; identity read from PostgreSQL');
    return fallback;
  }
}
const sessionKey = (sid: string) => redisKey('session', sid);
const userKey = (userId: string) => redisKey('viewer', userId);
const apiKeyKey = (hash: string) => redisKey('apikey', hash);

export async function loadCachedUser(em: EntityManager, userId: string): Promise<CachedUser | null> {
  const user = await em.findOne(User, { id: userId });
  if (!user) return null;
  const memberships = await em.find(OrganizationMember, { user: userId }, { fields: ['role', 'roles', 'organization'] });
  return {
    userId: user.id,
    email: user.email,
    roles: user.roles,
    registrationRole: user.registrationRole,
    status: user.status,
    memberships: memberships.map((m) => ({ organizationId: m.organization.id, role: m.role, roles: m.roles.length ? m.roles : [m.role] })),
  };
}

export class Identity {
  constructor(private readonly newEm: () => EntityManager) {}

  async viewerFromAccessToken(token: string): Promise<Viewer> {
    const claims = await verifyToken(token, 'access');
    const sid = claims.sid;
    if (!sid) throw errors.unauthorized('Invalid token');
    const redis = appRedis();
    // Two GETs rather than MGET: the keys lie in different slots of a Redis Cluster (one round trip all the same,
    // the client pipelines them).
    const [sessionState, userJson] = await cached(
      () => Promise.all([redis.get(sessionKey(sid)), redis.get(userKey(claims.sub))]),
      [null, null],
    );
    if (sessionState === 'revoked') throw errors.unauthorized('Session has ended; sign in again');
    if (sessionState === null) {
      const session = await this.newEm().findOne(Session, { id: sid, userId: claims.sub });
      const ttl = session ? Math.floor((session.expiresAt.getTime() - clock.nowMs()) / 1000) : 0;
      if (!session || session.revokedAt || ttl <= 0) {
        await cached(() => redis.set(sessionKey(sid), 'revoked', 'EX', 3600), null);
        throw errors.unauthorized('Session has ended; sign in again');
      }
      // NX: never overwrite a revocation written meanwhile.
      await cached(() => redis.set(sessionKey(sid), 'active', 'EX', Math.min(ttl, SESSION_TTL_SECONDS), 'NX'), null);
    }
    const user = await this.activeUser(claims.sub, userJson);
    return { ...user, sessionId: sid };
  }

  /** A developer API key (`X-API-Key`) acting for its organization with only its scopes. */
  async viewerFromApiKey(secret: string): Promise<Viewer> {
    const hash = sha256(secret);
    const redis = appRedis();
    const raw = await cached(() => redis.get(apiKeyKey(hash)), null);
    let key: CachedKey | null = raw ? JSON.parse(raw) : null;
    if (!key) {
      key = await this.loadKey(hash);
      if (!key) throw errors.unauthorized('Invalid API key');
      await cached(() => redis.set(apiKeyKey(hash), JSON.stringify(key), 'EX', KEY_TTL_SECONDS), null);
    }
    if (key.revoked) throw errors.unauthorized('This API key has been revoked');
    if (key.validUntil !== null && key.validUntil <= clock.nowMs()) {
      throw errors.unauthorized('This API key secret was rotated and its grace period is over');
    }
    const creator = await this.activeUser(key.createdBy, await cached(() => redis.get(userKey(key.createdBy)), null));
    this.touch(key.keyId);
    return {
      userId: creator.userId,
      email: creator.email,
      roles: [],
      registrationRole: 'API_KEY',
      memberships: [],
      apiKey: { id: key.keyId, organizationId: key.organizationId, scopes: key.scopes },
    };
  }

  private async activeUser(userId: string, json: string | null): Promise<CachedUser> {
    let user: CachedUser | null = json ? JSON.parse(json) : null;
    if (!user) {
      user = await loadCachedUser(this.newEm(), userId);
      const found = user;
      if (found) await cached(() => appRedis().set(userKey(userId), JSON.stringify(found), 'EX', USER_TTL_SECONDS), null);
    }
    if (!user) throw errors.unauthorized('Account no longer exists');
    if (user.status !== UserStatus.active) throw errors.unauthorized('Account is suspended');
    return user;
  }

  private async loadKey(hash: string): Promise<CachedKey | null> {
    const secret = await this.newEm().findOne(ApiKeySecret, { secretHash: hash }, { populate: ['apiKey'] });
    if (!secret) return null;
    const k = secret.apiKey;
    return {
      keyId: k.id,
      organizationId: k.organizationId,
      scopes: k.scopes,
      createdBy: k.createdBy,
      revoked: !!k.revokedAt,
      validUntil: secret.validUntil ? secret.validUntil.getTime() : null,
    };
  }

  /** Records when a key was last used, at most once a minute per key. */
  private touch(keyId: string): void {
    void appRedis()
      .set(redisKey('apikey-used', keyId), '1', 'EX', 60, 'NX')
      .then((fresh) => (fresh ? this.newEm().nativeUpdate(ApiKey, { id: keyId }, { lastUsedAt: clock.now() }) : 0))
      .catch((err) => logger.warn({ err: (err as Error).message, keyId }, 'could not record API key use'));
  }
}

/** Drops the cached roles, status and memberships of a user after they change. */
export async function forgetUser(userId: string): Promise<void> {
  await appRedis()
    .del(userKey(userId))
    .catch((err) => logger.error({ err, userId }, 'could not drop cached viewer; it expires on its own'));
}

/** Drops cached API key secrets after the key is rotated or revoked (they expire within a minute regardless). */
export async function forgetApiKeySecrets(hashes: string[]): Promise<void> {
  if (hashes.length) await cached(() => deleteKeys(appRedis(), hashes.map(apiKeyKey)), 0);
}

export async function markSessionActive(session: Session): Promise<void> {
  const ttl = Math.min(SESSION_TTL_SECONDS, Math.floor((session.expiresAt.getTime() - clock.nowMs()) / 1000));
  if (ttl > 0) await cached(() => appRedis().set(sessionKey(session.id), 'active', 'EX', ttl), null);
}

/** Marks a session ended for the edge; PostgreSQL already says so, and the "active" mark lives 5 minutes at most. */
export async function markSessionEnded(session: Session): Promise<void> {
  const ttl = Math.max(60, Math.floor((session.expiresAt.getTime() - clock.nowMs()) / 1000));
  await cached(() => appRedis().set(sessionKey(session.id), 'revoked', 'EX', ttl), null);
}
