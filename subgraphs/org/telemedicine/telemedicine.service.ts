import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { videoProvider } from '../../../shared/adapters/video';
import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import { isUuid, paginate, type PageArgs, type PageResult } from '../../../shared/model';
import { can, requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { Appointment, readableAppointment } from '../scheduling/appointment.entity';
import { ParticipantRole, VideoParticipant, VideoSession, VideoSessionStatus, videoSessionMachine } from './telemedicine.entity';

/** Appointment states in which a video visit can take place. */
const VISIT_STATES = ['booked', 'confirmed', 'checked_in', 'in_progress'];
const OPEN = [VideoSessionStatus.created, VideoSessionStatus.active];

/** What a participant needs to connect: the provider's access token for the session's room, for them alone. */
export interface VideoJoin {
  token: string;
  identity: string;
  role: ParticipantRole;
  expiresAt: Date;
}

/** Join credentials issued in this request, shown only on the session object they were issued with. */
export const issuedJoins = new WeakMap<VideoSession, VideoJoin>();

/** The appointment's doctor or patient, by user id (the patient also by the email the appointment was booked under). */
export function participantRole(appointment: Appointment, person: { userId: string; email?: string | null }): ParticipantRole | null {
  if (appointment.doctorUserId && person.userId === appointment.doctorUserId) return ParticipantRole.doctor;
  if (appointment.patientUserId && person.userId === appointment.patientUserId) return ParticipantRole.patient;
  const email = person.email?.trim().toLowerCase();
  if (!appointment.patientUserId && email && email === appointment.patientEmail?.trim().toLowerCase()) return ParticipantRole.patient;
  return null;
}

const isStaff = (viewer: Viewer, appointment: Appointment) => can(viewer, 'appointments:write', appointment.organizationId);

export class TelemedicineService {
  /**
   * Opens the appointment's video room (the doctor, the patient, or the organization's scheduling staff). While a
   * session is open, initiating again answers that session, so a retried request opens no second room. The doctor
   * or patient who initiates gets their join token with the answer.
   */
  async initiate(ctx: SubgraphContext, appointmentId: string): Promise<VideoSession> {
    const viewer = requireUser(ctx.viewer);
    const appointment = await readableAppointment(ctx, appointmentId);
    const role = participantRole(appointment, viewer);
    if (!role && !isStaff(viewer, appointment))
      throw errors.forbidden("Only the appointment's doctor, its patient or scheduling staff may start its video session");
    if (!VISIT_STATES.includes(appointment.status)) {
      throw errors.conflict(`Cannot start a video session for an appointment that is ${appointment.status.replace(/_/g, ' ')}`);
    }
    const session = await ctx.em.transactional(async (em) => {
      // One open session per appointment, even when two people press "start" at once.
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`video-session:${appointment.id}`]);
      const open = await em.findOne(VideoSession, { appointmentId: appointment.id, status: { $in: OPEN } });
      if (open) return open;
      return em.create(VideoSession, {
        appointmentId: appointment.id,
        organizationId: appointment.organizationId,
        provider: videoProvider().name,
        roomName: `appt-${appointment.id}-${randomUUID().slice(0, 8)}`,
        initiatedBy: viewer.userId,
      });
    });
    if (!session.roomSid) {
      const room = await videoProvider().createRoom(session.roomName);
      session.roomSid = room.sid;
      await ctx.em.flush();
    }
    if (role) issuedJoins.set(session, await this.grant(session, viewer, role));
    return session;
  }

  /** A join token for the appointment's doctor or patient; nobody else may join (403), and not after the end (409). */
  async join(ctx: SubgraphContext, appointmentId: string, sessionId: string): Promise<VideoSession> {
    const viewer = requireUser(ctx.viewer);
    const { appointment, session } = await this.load(ctx, appointmentId, sessionId);
    const role = participantRole(appointment, viewer);
    if (!role) throw errors.forbidden("Only the appointment's doctor and patient may join its video session");
    if (session.status === VideoSessionStatus.ended) throw errors.conflict('Cannot join a video session that is ended');
    issuedJoins.set(session, await this.grant(session, viewer, role));
    return session;
  }

  async status(ctx: SubgraphContext, appointmentId: string, sessionId: string): Promise<VideoSession> {
    return (await this.load(ctx, appointmentId, sessionId)).session;
  }

  /** Ends the session and closes the provider's room (the doctor or scheduling staff); ending twice is a 409. */
  async end(ctx: SubgraphContext, appointmentId: string, sessionId: string): Promise<VideoSession> {
    const viewer = requireUser(ctx.viewer);
    const { appointment, session } = await this.load(ctx, appointmentId, sessionId);
    if (participantRole(appointment, viewer) !== ParticipantRole.doctor && !isStaff(viewer, appointment)) {
      throw errors.forbidden("Only the appointment's doctor or scheduling staff may end its video session");
    }
    // The provider's room_finished may be ending it at the same moment: one of the two ends it, the other sees it ended.
    const ended = await ctx.em.transactional(async (em) => {
      const locked = await em.findOneOrFail(VideoSession, { id: session.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      locked.status = videoSessionMachine.next(locked.status, 'end');
      locked.endedAt = clock.now();
      locked.endedBy = viewer.userId;
      return locked;
    });
    await videoProvider()
      .deleteRoom(ended.roomName)
      .catch((err) => logger.warn({ err, room: ended.roomName }, 'could not close the video room; it closes when empty'));
    return ended;
  }

  async participants(
    ctx: SubgraphContext,
    appointmentId: string,
    sessionId: string,
    args: PageArgs,
  ): Promise<PageResult<VideoParticipant>> {
    const { session } = await this.load(ctx, appointmentId, sessionId);
    return paginate(ctx.em, VideoParticipant, { session }, args, { createdAt: 'asc', id: 'asc' });
  }

  /** The session, when the caller may read its appointment and it belongs to that appointment (404 otherwise). */
  private async load(ctx: SubgraphContext, appointmentId: string, sessionId: string) {
    const appointment = await readableAppointment(ctx, appointmentId);
    const session = isUuid(sessionId) ? await ctx.em.findOne(VideoSession, { id: sessionId, appointmentId: appointment.id }) : null;
    if (!session) throw errors.notFound('Video session');
    return { appointment, session };
  }

  private async grant(session: VideoSession, viewer: Viewer, role: ParticipantRole): Promise<VideoJoin> {
    const { token, expiresAt } = await videoProvider().accessToken({
      room: session.roomName,
      identity: viewer.userId,
      name: viewer.email,
      ttlSeconds: config().VIDEO_TOKEN_TTL_SECONDS,
    });
    return { token, identity: viewer.userId, role, expiresAt };
  }
}
