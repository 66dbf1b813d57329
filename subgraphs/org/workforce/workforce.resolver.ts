import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { byIds, PageArgs } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { Organization } from '../organizations/organization.entity';
import { OrganizationService } from '../organizations/organization.service';
import { FairnessService } from './fairness.service';
import { WorkforceMember } from './member.entity';
import { MemberService } from './member.service';
import { Roster, RosterAssignment } from './roster.entity';
import { RosterService } from './roster.service';
import { CoverageRequirement, ShiftType } from './shift-type.entity';
import { ShiftService } from './shift.service';
import { SwapRequest } from './swap.entity';
import { SwapService } from './swap.service';
import {
  AssignmentListArgs,
  CoverageGapPage,
  CoverageListArgs,
  CoverageRequirementPage,
  CreateCoverageRequirementInput,
  CreateCoverageRequirementPayload,
  CreateRosterInput,
  CreateShiftTypeInput,
  CreateShiftTypePayload,
  CreateSwapRequestInput,
  CreateSwapRequestPayload,
  CreateWorkforceMemberInput,
  CreateWorkforceMemberPayload,
  FairnessArgs,
  FairnessReport,
  GiniArgs,
  GiniCoefficient,
  MemberListArgs,
  OrganizationPageArgs,
  RosterAssignmentPage,
  RosterListArgs,
  RosterPage,
  ShiftTypePage,
  SwapListArgs,
  SwapRequestPage,
  WorkforceMemberPage,
} from './workforce.types';

const organizations = new OrganizationService();
const members = new MemberService();
const loadShiftType = (ctx: SubgraphContext, id: string) =>
  ctx.loader<string, ShiftType>('workforce-shift-type', byIds(ctx.em, ShiftType)).load(id);
const loadRoster = (ctx: SubgraphContext, id: string) => ctx.loader<string, Roster>('workforce-roster', byIds(ctx.em, Roster)).load(id);
const loadAssignment = (ctx: SubgraphContext, id: string) =>
  ctx.loader<string, RosterAssignment>('workforce-assignment', byIds(ctx.em, RosterAssignment)).load(id);

@Resolver(() => WorkforceMember)
export class WorkforceMemberResolver {
  @PayloadMutation(CreateWorkforceMemberPayload, {
    description: 'Add a member of staff to roster (workforce:manage); a bad field or a user already a member is a user error',
  })
  createWorkforceMember(@Arg('input', { description: 'The member' }) input: CreateWorkforceMemberInput, @Ctx() ctx: SubgraphContext) {
    return members.create(ctx, input);
  }

  @Query(() => WorkforceMemberPage, { description: 'The staff an organization rosters, by name (every member)' })
  workforceMembers(@Args() args: MemberListArgs, @Ctx() ctx: SubgraphContext) {
    return members.list(ctx, args);
  }

  @Query(() => WorkforceMember, { nullable: true, description: 'A member of staff (every member of their organization)' })
  workforceMember(@Arg('id', () => ID, { description: 'The workforce member' }) id: string, @Ctx() ctx: SubgraphContext) {
    return members.get(ctx, id);
  }

  @FieldResolver(() => Organization, { nullable: true, description: 'The organization' })
  organization(@Root() member: WorkforceMember, @Ctx() ctx: SubgraphContext) {
    return organizations.load(ctx, member.organizationId);
  }
}

@Resolver(() => ShiftType)
export class ShiftTypeResolver {
  private readonly service = new ShiftService();

  @PayloadMutation(CreateShiftTypePayload, {
    description: 'Add a kind of shift, optionally with its default minimum staff (workforce:manage); a name taken is a user error',
  })
  createShiftType(@Arg('input', { description: 'The shift type' }) input: CreateShiftTypeInput, @Ctx() ctx: SubgraphContext) {
    return this.service.createShiftType(ctx, input);
  }

  @Query(() => ShiftTypePage, { description: 'An organization’s shift types, by start time (every member)' })
  shiftTypes(@Args() args: OrganizationPageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listShiftTypes(ctx, args);
  }

  @Query(() => ShiftType, { nullable: true, description: 'A shift type (every member of its organization)' })
  shiftType(@Arg('id', () => ID, { description: 'The shift type' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.getShiftType(ctx, id);
  }
}

@Resolver(() => CoverageRequirement)
export class CoverageRequirementResolver {
  private readonly service = new ShiftService();

  @PayloadMutation(CreateCoverageRequirementPayload, {
    description: 'Add a coverage requirement, for the organization or one roster (workforce:manage); one already set is a user error',
  })
  createCoverageRequirement(
    @Arg('input', { description: 'The requirement' }) input: CreateCoverageRequirementInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.createRequirement(ctx, input);
  }

  @Query(() => CoverageRequirementPage, { description: 'An organization’s coverage requirements, oldest first (every member)' })
  coverageRequirements(@Args() args: CoverageListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listRequirements(ctx, args);
  }

  @FieldResolver(() => ShiftType, { description: 'The shift type' })
  shiftType(@Root() requirement: CoverageRequirement, @Ctx() ctx: SubgraphContext) {
    return loadShiftType(ctx, requirement.shiftTypeId);
  }
}

@Resolver(() => Roster)
export class RosterResolver {
  private readonly service = new RosterService();

  @Mutation(() => Roster, {
    description: 'Create a draft roster for a period, optionally with its own coverage requirements (workforce:manage)',
  })
  createRoster(@Arg('input', { description: 'The roster' }) input: CreateRosterInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => RosterPage, {
    description: 'An organization’s rosters, latest period first: all for managers, published ones for other members',
  })
  rosters(@Args() args: RosterListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Roster, { nullable: true, description: 'A roster (managers; other members once published)' })
  roster(@Arg('id', () => ID, { description: 'The roster' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Roster, {
    description:
      'Queue the roster for the solver (workforce:manage); answers at once, generation_status and generation_progress follow the job',
  })
  generateRoster(@Arg('id', () => ID, { description: 'The roster' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.generate(ctx, id);
  }

  @Mutation(() => Roster, { description: 'Approve a generated roster (workforce:manage)' })
  approveRoster(@Arg('id', () => ID, { description: 'The roster' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.approve(ctx, id);
  }

  @Mutation(() => Roster, { description: 'Publish an approved roster: its members are mailed their shifts (workforce:manage)' })
  publishRoster(@Arg('id', () => ID, { description: 'The roster' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.publish(ctx, id);
  }

  @Query(() => RosterAssignmentPage, { description: 'The shifts of a roster, by day and start (whoever may see the roster)' })
  rosterAssignments(
    @Arg('rosterId', () => ID, { description: 'The roster' }) rosterId: string,
    @Args() args: AssignmentListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.assignments(ctx, rosterId, args);
  }

  @Query(() => CoverageGapPage, { description: 'What the roster leaves short of its coverage requirements, and why' })
  coverageGaps(
    @Arg('rosterId', () => ID, { description: 'The roster' }) rosterId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.coverageGaps(ctx, rosterId, args);
  }

  @FieldResolver(() => Organization, { nullable: true, description: 'The organization' })
  organization(@Root() roster: Roster, @Ctx() ctx: SubgraphContext) {
    return organizations.load(ctx, roster.organizationId);
  }
}

@Resolver(() => RosterAssignment)
export class RosterAssignmentResolver {
  @FieldResolver(() => WorkforceMember, { description: 'Who works it' })
  member(@Root() a: RosterAssignment, @Ctx() ctx: SubgraphContext) {
    return members.load(ctx, a.memberId);
  }

  @FieldResolver(() => ShiftType, { description: 'The shift type' })
  shiftType(@Root() a: RosterAssignment, @Ctx() ctx: SubgraphContext) {
    return loadShiftType(ctx, a.shiftTypeId);
  }

  @FieldResolver(() => Roster, { description: 'The roster' })
  roster(@Root() a: RosterAssignment, @Ctx() ctx: SubgraphContext) {
    return loadRoster(ctx, a.rosterId);
  }
}

@Resolver(() => SwapRequest)
export class SwapRequestResolver {
  private readonly service = new SwapService();

  @PayloadMutation(CreateSwapRequestPayload, {
    description:
      'Offer one of your shifts to a colleague, for one of theirs or not; a bad field, a swap already pending or a rule the swap would break is a user error',
  })
  createSwapRequest(@Arg('input', { description: 'The swap' }) input: CreateSwapRequestInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => SwapRequestPage, {
    description: 'Swap requests, newest first: all for managers, one’s own (asked or asking) for other members',
  })
  swapRequests(@Args() args: SwapListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => SwapRequest, { nullable: true, description: 'A swap request (its two members and managers)' })
  swapRequest(@Arg('id', () => ID, { description: 'The swap request' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => SwapRequest, {
    description:
      'Accept a swap (the colleague asked, or a manager for staff without an account): applied only if both keep every hard rule, else 409 naming it',
  })
  acceptSwapRequest(@Arg('id', () => ID, { description: 'The swap request' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.accept(ctx, id);
  }

  @Mutation(() => SwapRequest, { description: 'Decline a swap (the colleague asked, or a manager for staff without an account)' })
  rejectSwapRequest(@Arg('id', () => ID, { description: 'The swap request' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.reject(ctx, id);
  }

  @Mutation(() => SwapRequest, { description: 'Withdraw a pending swap (the member who asked, or a manager for staff without an account)' })
  cancelSwapRequest(@Arg('id', () => ID, { description: 'The swap request' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, id);
  }

  @FieldResolver(() => RosterAssignment, { nullable: true, description: 'The shift offered' })
  assignment(@Root() s: SwapRequest, @Ctx() ctx: SubgraphContext) {
    return loadAssignment(ctx, s.assignmentId);
  }

  @FieldResolver(() => RosterAssignment, { nullable: true, description: 'The colleague’s shift asked for in exchange' })
  targetAssignment(@Root() s: SwapRequest, @Ctx() ctx: SubgraphContext) {
    return s.targetAssignmentId ? loadAssignment(ctx, s.targetAssignmentId) : null;
  }

  @FieldResolver(() => WorkforceMember, { description: 'The member asking' })
  requester(@Root() s: SwapRequest, @Ctx() ctx: SubgraphContext) {
    return members.load(ctx, s.requesterMemberId);
  }

  @FieldResolver(() => WorkforceMember, { description: 'The colleague asked' })
  target(@Root() s: SwapRequest, @Ctx() ctx: SubgraphContext) {
    return members.load(ctx, s.targetMemberId);
  }

  @FieldResolver(() => Roster, { description: 'The roster' })
  roster(@Root() s: SwapRequest, @Ctx() ctx: SubgraphContext) {
    return loadRoster(ctx, s.rosterId);
  }
}

@Resolver(() => FairnessReport)
export class FairnessResolver {
  private readonly service = new FairnessService();

  @Query(() => FairnessReport, { description: 'Hours, nights and weekends per member and their spread (workforce:manage)' })
  workforceFairness(@Args() args: FairnessArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.report(ctx, args);
  }

  @Query(() => GiniCoefficient, {
    description: 'The Gini coefficient of how shifts are shared: 0 equal, towards 1 one member has all (workforce:manage)',
  })
  workforceGini(@Args() args: GiniArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.gini(ctx, args);
  }
}
