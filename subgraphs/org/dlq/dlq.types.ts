import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { enumOf } from '../../../shared/enums';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';

/** An event that could not be processed: kept in the platform's store until an administrator retries or discards it. */
@ObjectType('DeadLetter', { description: 'A bus event a consumer failed on, kept for an administrator to retry or discard' })
export class DeadLetterView {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Id of the original event' })
  eventId!: string;

  @Field()
  topic!: string;

  @Field({ description: 'The queue it failed in: events (dispatch) or consumer.<name>' })
  queue!: string;

  @Field({ description: 'The raw JSON that failed (for a webhook, the body exactly as received)' })
  originalPayload!: string;

  @Field({ description: 'Why it failed' })
  error!: string;

  @Field(() => Int)
  attempts!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;
}

@ArgsType()
export class DeadLetterListArgs extends PageArgs {
  @Field({ nullable: true, description: 'Only dead letters of this event topic, up to 200 characters; every topic when omitted' })
  @IsText(200)
  topic?: string;
}

@ObjectType()
export class DeadLetterPage extends PageOf(DeadLetterView) {}

@ObjectType({ description: 'How many dead letters wait, the oldest, and whether that is over the alert threshold' })
export class DeadLetterDepth {
  @Field(() => Int, { description: 'Entries waiting in the dead letter queue' })
  depth!: number;

  @Field(() => Boolean, { description: 'True when the depth reached the configured threshold' })
  alert!: boolean;

  @Field(() => Int)
  threshold!: number;

  @Field(() => Date, { nullable: true, description: 'When the oldest entry failed' })
  oldestEvent?: Date | null;
}

export const DeadLetterOutcome = enumOf(
  ['retried', 'discarded'],
  'DeadLetterOutcome',
  'What became of a dead letter: retried (back on its queue with fresh attempts) or discarded',
);

@ObjectType({ description: 'The outcome of retrying or discarding a dead letter' })
export class DeadLetterAction {
  @Field(() => ID)
  id!: string;

  @Field()
  eventId!: string;

  @Field()
  topic!: string;

  @Field(() => DeadLetterOutcome, { description: 'retried (back on its queue with fresh attempts) or discarded' })
  outcome!: 'retried' | 'discarded';

  @Field(() => String, { nullable: true, description: 'The queue it went back to' })
  queue?: string | null;
}
