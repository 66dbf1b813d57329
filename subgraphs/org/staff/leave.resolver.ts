import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { LeaveRequest } from './leave.entity';
import { LeaveService } from './leave.service';
import {
  CreateLeaveRequestInput,
  CreateLeaveRequestPayload,
  LeaveDecisionArgs,
  LeaveListArgs,
  LeaveRequestPage,
  OrganizationLeaveListArgs,
  RejectLeaveArgs,
} from './leave.types';

@Resolver(() => LeaveRequest)
export class LeaveResolver {
  private readonly service = new LeaveService();

  @PayloadMutation(CreateLeaveRequestPayload, {
    description: 'Ask for leave from an organization the caller belongs to; a bad field or dates that overlap leave held are a user error',
  })
  createLeaveRequest(
    @Arg('input', { description: 'The fields of the new leave request' }) input: CreateLeaveRequestInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => LeaveRequestPage, { description: "The caller's leave requests, newest first" })
  myLeaveRequests(@Args() args: LeaveListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx, args);
  }

  @Query(() => LeaveRequestPage, { description: "An organization's leave requests: all for approvers, else the caller's own" })
  organizationLeaveRequests(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: OrganizationLeaveListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForOrganization(ctx, organizationId, args);
  }

  @Query(() => LeaveRequest, {
    nullable: true,
    description: "A leave request, for its requester or the organization's approvers; NOT_FOUND otherwise",
  })
  leaveRequest(@Arg('id', () => ID, { description: 'The leave request' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => LeaveRequest, { description: 'Approve a pending leave request (leave:approve)' })
  approveLeaveRequest(@Args() args: LeaveDecisionArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.approve(ctx, args);
  }

  @Mutation(() => LeaveRequest, { description: 'Reject a pending leave request (leave:approve)' })
  rejectLeaveRequest(@Args() args: RejectLeaveArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.reject(ctx, args);
  }

  @Mutation(() => LeaveRequest, { description: 'Withdraw a pending leave request (its requester)' })
  cancelLeaveRequest(@Arg('id', () => ID, { description: 'The leave request' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, id);
  }
}
