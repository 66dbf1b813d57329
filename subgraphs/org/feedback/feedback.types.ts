import { Max, Min } from 'class-validator';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { Feedback, FeedbackCategory, FeedbackStatus } from './feedback.entity';

export const MAX_MESSAGE = 2000;

@InputType({ description: 'Feedback from a signed-in person' })
export class SubmitFeedbackInput {
  @Field(() => FeedbackCategory, { description: 'What it is about' })
  category!: FeedbackCategory;

  @Field(() => Int, { description: '1 (very poor) to 5 (excellent)' })
  @Min(1, { message: 'must be between 1 and 5' })
  @Max(5, { message: 'must be between 1 and 5' })
  rating!: number;

  @Field({ description: `What happened, up to ${MAX_MESSAGE} characters` })
  @IsText(MAX_MESSAGE)
  message!: string;

  @Field(() => ID, { nullable: true, description: 'The organization it is about' })
  organizationId?: string;

  @Field(() => ID, { nullable: true, description: 'An appointment of yours it is about (its organization is taken from it)' })
  appointmentId?: string;
}

@InputType({ description: 'Feedback without an account: only what is typed here is kept' })
export class AnonymousFeedbackInput {
  @Field(() => FeedbackCategory, { description: 'What it is about' })
  category!: FeedbackCategory;

  @Field(() => Int, { description: '1 (very poor) to 5 (excellent)' })
  @Min(1, { message: 'must be between 1 and 5' })
  @Max(5, { message: 'must be between 1 and 5' })
  rating!: number;

  @Field({ description: `What happened, up to ${MAX_MESSAGE} characters` })
  @IsText(MAX_MESSAGE)
  message!: string;

  @Field(() => ID, { nullable: true, description: 'The organization it is about' })
  organizationId?: string;
}

@InputType({ description: 'A status change or a note on feedback' })
export class UpdateFeedbackInput {
  @Field(() => FeedbackStatus, { nullable: true, description: 'triaged, or resolved' })
  status?: FeedbackStatus;

  @Field({ nullable: true, description: 'What was done about it' })
  @IsText(2000)
  resolutionNote?: string;
}

@ArgsType()
export class FeedbackListArgs extends PageArgs {
  @Field(() => FeedbackStatus, { nullable: true, description: 'Only feedback in this status' })
  status?: FeedbackStatus;

  @Field(() => FeedbackCategory, { nullable: true, description: 'Only this category' })
  category?: FeedbackCategory;

  @Field(() => ID, { nullable: true, description: 'Only feedback about this organization (one you handle feedback for)' })
  organizationId?: string;

  @Field({ nullable: true, description: 'Only what I sent' })
  mine?: boolean;
}

@ObjectType({ description: 'A page of feedback, newest first' })
export class FeedbackPage extends PageOf(Feedback) {}
