import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { config } from '../../../shared/config';
import { PageArgs } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Appointment } from '../scheduling/appointment.entity';
import { AppointmentService } from '../scheduling/appointment.service';
import { VideoParticipant, VideoSession } from './telemedicine.entity';
import { issuedJoins, TelemedicineService } from './telemedicine.service';
import { VideoJoinType, VideoParticipantPage } from './telemedicine.types';

@Resolver(() => VideoSession)
export class TelemedicineResolver {
  private readonly service = new TelemedicineService();

  @Mutation(() => VideoSession, {
    description: 'Start (or return the open) video session of an appointment; its doctor or patient gets a join token in `join`',
  })
  initiateTelemedicine(
    @Arg('appointmentId', () => ID, { description: 'The appointment' }) appointmentId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.initiate(ctx, appointmentId);
  }

  @Mutation(() => VideoSession, { description: "A join token for the appointment's doctor or patient" })
  joinTelemedicine(
    @Arg('appointmentId', () => ID, { description: 'The appointment' }) appointmentId: string,
    @Arg('sessionId', () => ID, { description: 'The video session' }) sessionId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.join(ctx, appointmentId, sessionId);
  }

  @Query(() => VideoSession, {
    nullable: true,
    description: "A video session of an appointment, for the appointment's participants; NOT_FOUND otherwise",
  })
  telemedicineSession(
    @Arg('appointmentId', () => ID, { description: 'The appointment' }) appointmentId: string,
    @Arg('sessionId', () => ID, { description: 'The video session' }) sessionId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.status(ctx, appointmentId, sessionId);
  }

  @Mutation(() => VideoSession, { description: 'End the session and close its room (the doctor or scheduling staff)' })
  endTelemedicine(
    @Arg('appointmentId', () => ID, { description: 'The appointment' }) appointmentId: string,
    @Arg('sessionId', () => ID, { description: 'The video session' }) sessionId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.end(ctx, appointmentId, sessionId);
  }

  @Query(() => VideoParticipantPage, { description: "Who joined a video session and when, for the appointment's participants" })
  telemedicineParticipants(
    @Arg('appointmentId', () => ID, { description: 'The appointment' }) appointmentId: string,
    @Arg('sessionId', () => ID, { description: 'The video session' }) sessionId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.participants(ctx, appointmentId, sessionId, args);
  }

  @FieldResolver(() => VideoJoinType, { nullable: true, description: 'Set only on the answer that issued it' })
  join(@Root() session: VideoSession): VideoJoinType | null {
    const join = issuedJoins.get(session);
    return join ? { ...join, serverUrl: config().VIDEO_PROVIDER === 'livekit' ? (config().VIDEO_API_URL ?? null) : null } : null;
  }

  @FieldResolver(() => Appointment, {
    nullable: true,
    description: 'The appointment the session is for, under the rule of appointment(id); null when the caller may not read it',
  })
  appointment(@Root() session: VideoSession, @Ctx() ctx: SubgraphContext) {
    return new AppointmentService().resolveReference(ctx, session.appointmentId);
  }

  @FieldResolver(() => [VideoParticipant])
  participants(@Root() session: VideoSession, @Ctx() ctx: SubgraphContext): Promise<VideoParticipant[]> {
    return ctx
      .loader<string, VideoParticipant[]>('video-participants', async (ids) => {
        const rows = await ctx.em.find(VideoParticipant, { session: { $in: [...ids] } }, { orderBy: { createdAt: 'asc' } });
        return ids.map((id) => rows.filter((r) => r.session.id === id));
      })
      .load(session.id)
      .then((rows) => rows ?? []);
  }
}
