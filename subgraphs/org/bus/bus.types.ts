import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { DeadLetter } from './bus.entities';

@ArgsType()
export class DeadLetterListArgs extends PageArgs {
  @Field({ nullable: true })
  @IsText(200)
  topic?: string;
}

@ObjectType()
export class DeadLetterPage extends PageOf(DeadLetter) {}

@ObjectType()
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

@ObjectType()
export class DeadLetterAction {
  @Field(() => ID)
  id!: string;

  @Field()
  eventId!: string;

  @Field()
  topic!: string;

  @Field({ description: 'retried (back on its queue with fresh attempts) or discarded' })
  outcome!: string;

  @Field(() => String, { nullable: true, description: 'The queue it went back to' })
  queue?: string | null;
}

@ObjectType()
export class WebhookReceipt {
  @Field(() => ID)
  deliveryId!: string;

  @Field(() => Boolean, { description: 'True when this provider event was already received: acknowledged, not applied again' })
  duplicate!: boolean;
}

@ArgsType()
export class WebhookDeliveryArgs {
  @Field()
  provider!: string;

  @Field()
  providerEventId!: string;

  @Field(() => String, { nullable: true })
  eventType?: string | null;

  @Field()
  rawBody!: string;
}
