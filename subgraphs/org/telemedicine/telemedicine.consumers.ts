import { LockMode } from '@mikro-orm/core';
import { videoProvider } from '../../../shared/adapters/video';
import { webhookTopic, type ConsumerDefinition } from '../../../shared/events';
import { logger } from '../../../shared/logger';
import { timeOf, webhookBody } from '../../../shared/webhook-body';
import { Appointment } from '../scheduling/appointment.entity';
import { User } from '../users/user.entity';
import { participantRole } from './telemedicine.service';
import { ParticipantRole, VideoParticipant, VideoSession, VideoSessionStatus } from './telemedicine.entity';

const later = (a: Date | null | undefined, b: Date) => (a && a > b ? a : b);

/** Track kinds as we list them, from the provider's `track.source` or `track.type`. */
function trackKind(track: Record<string, any> | undefined): string | null {
  const source = String(track?.source ?? '').toLowerCase();
  if (source === 'screen_share' || source === 'screen_share_audio') return 'screen_share';
  const type = String(track?.type ?? '').toLowerCase();
  return type === 'audio' || type === 'video' ? type : source === 'microphone' ? 'audio' : source === 'camera' ? 'video' : null;
}

/**
 * Video provider events (LiveKit's shapes) keep sessions and their participants: `room_started` makes a session
 * active, `room_finished` ends it, `participant_joined` / `participant_left` / `track_published` record who was there
 * and what they shared. Someone the appointment does not name who got into the room is recorded as
 * `unauthorized` and removed from it. Events for rooms that are not ours change nothing. Each update takes the
 * session's row lock, so events handled at once for one room apply one after the other.
 */
export const videoWebhooks: ConsumerDefinition = {
  name: 'video-webhooks',
  description: 'keeps video sessions and their participants as the video provider reports them',
  topics: [webhookTopic('video')],
  async handle(event, { em }) {
    const { body } = webhookBody(event);
    const roomName = body.room?.name ? String(body.room.name) : null;
    const session = roomName ? await em.findOne(VideoSession, { roomName }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!session) {
      logger.info({ event: body.event, room: roomName }, 'video event for a room that is not a session here');
      return;
    }
    const at = timeOf(body.createdAt);
    switch (body.event) {
      case 'room_started':
        session.roomSid ??= body.room?.sid ? String(body.room.sid) : null;
        if (session.status === VideoSessionStatus.created) session.status = VideoSessionStatus.active;
        session.startedAt ??= at;
        return;
      case 'room_finished':
        if (session.status !== VideoSessionStatus.ended) {
          session.status = VideoSessionStatus.ended;
          session.endedAt = at;
        }
        return;
      case 'participant_joined':
      case 'participant_left':
      case 'track_published': {
        const identity = body.participant?.identity ? String(body.participant.identity) : null;
        if (!identity) return;
        let participant = await em.findOne(VideoParticipant, { session, identity });
        if (!participant) {
          const appointment = await em.findOneOrFail(Appointment, { id: session.appointmentId });
          const user = await em.findOne(User, { id: identity });
          const role = user ? participantRole(appointment, { userId: user.id, email: user.email }) : null;
          participant = em.create(VideoParticipant, {
            session,
            identity,
            name: body.participant?.name ? String(body.participant.name) : null,
            role: role ?? ParticipantRole.unauthorized,
          });
        }
        if (body.event === 'participant_joined') {
          participant.joinedAt = later(participant.joinedAt, at);
          participant.joinCount += 1;
          if (session.status === VideoSessionStatus.created) session.status = VideoSessionStatus.active;
          session.startedAt ??= at;
          if (participant.role === ParticipantRole.unauthorized) {
            // Only the appointment's doctor and patient may be in the room.
            logger.warn({ room: session.roomName, identity }, 'removing a participant the appointment does not name');
            await videoProvider().removeParticipant(session.roomName, identity);
          }
        } else if (body.event === 'participant_left') {
          participant.leftAt = later(participant.leftAt, at);
        } else {
          const kind = trackKind(body.track);
          if (kind && !participant.publishedTracks.includes(kind)) participant.publishedTracks = [...participant.publishedTracks, kind];
        }
        return;
      }
      default:
        return; // other provider events (egress, ingress, ...) change nothing here
    }
  },
};
