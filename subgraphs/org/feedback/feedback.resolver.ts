import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Public } from '../../../shared/public';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Organization } from '../organizations/organization.entity';
import { Appointment } from '../scheduling/appointment.entity';
import { Feedback, FeedbackStatus } from './feedback.entity';
import { FeedbackService } from './feedback.service';
import { AnonymousFeedbackInput, FeedbackListArgs, FeedbackPage, SubmitFeedbackInput, UpdateFeedbackInput } from './feedback.types';

@Resolver(() => Feedback)
export class FeedbackResolver {
  private readonly service = new FeedbackService();

  @Mutation(() => Feedback, { description: 'Send feedback, signed in (rate limited per user)' })
  submitFeedback(@Arg('input', { description: 'The feedback' }) input: SubmitFeedbackInput, @Ctx() ctx: SubgraphContext) {
    return this.service.submit(ctx, input);
  }

  @Public()
  @Mutation(() => Feedback, {
    description: 'Send feedback without an account (public; rate limited per address; nothing about the sender is kept)',
  })
  submitAnonymousFeedback(@Arg('input', { description: 'The feedback' }) input: AnonymousFeedbackInput, @Ctx() ctx: SubgraphContext) {
    return this.service.submitAnonymous(ctx, input);
  }

  @Query(() => FeedbackPage, {
    description:
      "Feedback the caller may read: all of it for platform administrators, their organizations' for its administrators, their own for everyone",
  })
  feedbackList(@Args() args: FeedbackListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Feedback, { nullable: true, description: 'One piece of feedback (its handlers and its sender)' })
  feedback(@Arg('id', () => ID, { description: 'The feedback id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Feedback, { description: 'Change the status wanted (triaged, resolved) and the note on what was done (administrators)' })
  updateFeedback(
    @Arg('id', () => ID, { description: 'The feedback id' }) id: string,
    @Arg('input', { description: 'The changes' }) input: UpdateFeedbackInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Feedback, { description: 'Mark new feedback triaged (administrators)' })
  triageFeedback(@Arg('id', () => ID, { description: 'The feedback id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, { status: FeedbackStatus.triaged });
  }

  @Mutation(() => Feedback, { description: 'Mark feedback resolved, with what was done (administrators)' })
  resolveFeedback(
    @Arg('id', () => ID, { description: 'The feedback id' }) id: string,
    @Arg('resolutionNote', () => String, { nullable: true, description: 'What was done about it' }) resolutionNote: string | undefined,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, { status: FeedbackStatus.resolved, resolutionNote: resolutionNote ?? undefined });
  }

  @FieldResolver(() => Organization, { nullable: true, description: 'The organization it is about' })
  organization(@Root() feedback: Feedback, @Ctx() ctx: SubgraphContext) {
    return this.service.organizationOf(ctx, feedback);
  }

  @FieldResolver(() => Appointment, { nullable: true, description: 'The appointment it is about' })
  appointment(@Root() feedback: Feedback, @Ctx() ctx: SubgraphContext) {
    return this.service.appointmentOf(ctx, feedback);
  }
}
