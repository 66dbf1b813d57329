import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { AuditEvent } from '../../../shared/audit/audit-event.entity';
import type { SubgraphContext } from '../../../shared/subgraph';
import { AuditEventPage } from '../clinical-records/clinical-record.types';
import { ClinicalAuditService } from './audit.service';
import { AuditSearchArgs, AuditTrailArgs, LogAuditEventInput } from './audit.types';

@Resolver(() => AuditEvent)
export class ClinicalAuditResolver {
  private readonly service = new ClinicalAuditService();

  @Mutation(() => AuditEvent, {
    description: "Log what happened on the caller's side (a record shown, printed, shared, ...); the caller is the actor",
  })
  logAuditEvent(@Arg('input', { description: 'The event' }) input: LogAuditEventInput, @Ctx() ctx: SubgraphContext) {
    return this.service.log(ctx, input);
  }

  @Query(() => AuditEvent, {
    nullable: true,
    description:
      "An audit event the caller may read (their own, their organization's as its administrator, any as a platform administrator)",
  })
  auditEvent(@Arg('id', () => ID, { description: 'The event' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Query(() => AuditEventPage, { description: 'Who read or changed one record, among the events the caller may read; newest first' })
  resourceAuditTrail(
    @Arg('resourceType', { description: 'The kind of record (clinical_note, recording, patient, ...)' }) resourceType: string,
    @Arg('resourceId', { description: 'The record' }) resourceId: string,
    @Args() args: AuditTrailArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.resourceTrail(ctx, resourceType, resourceId, args);
  }

  @Query(() => AuditEventPage, { description: "What one user did: the caller's own, or anyone's for administrators; newest first" })
  userAuditTrail(
    @Arg('userId', () => ID, { description: 'The user' }) userId: string,
    @Args() args: AuditTrailArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.userTrail(ctx, userId, args);
  }

  @Query(() => AuditEventPage, {
    description: 'Audit events the caller may read, by actor, action, record, patient, organization and time range; newest first',
  })
  searchAuditEvents(@Args() args: AuditSearchArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.search(ctx, args);
  }
}
