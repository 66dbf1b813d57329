import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../../shared/model';
import { IsOneOf, IsText } from '../../../shared/validation';
import { JOURNEY_EVENT_TYPES, type JourneyEventType } from './journey.entity';

@InputType({ description: 'The event to record on the journey' })
export class RecordJourneyEventInput {
  // A String checked by the subgraph, not the enum: REST reports a wrong type together with the other fields' problems.
  @Field({ description: `One of the JourneyEventType values: ${JOURNEY_EVENT_TYPES.join(', ')}` })
  @IsOneOf(JOURNEY_EVENT_TYPES)
  type!: `${JourneyEventType}`;

  @Field()
  @IsText(200)
  title!: string;

  @Field({ nullable: true })
  @IsText(5000)
  description?: string;

  @Field(() => Date, { nullable: true, description: 'When it happened; now when omitted (not in the future)' })
  occurredAt?: Date;
}

/** One entry of a patient's care journey: a recorded event, or a record, lab, prescription, immunization, ... */
@ObjectType({ description: "One entry of a patient's care journey: a record of any module, in time order" })
export class JourneyEntry {
  @Field()
  occurredAt!: Date;

  @Field({ description: 'journey_event, clinical_record, lab_result, prescription, immunization, ...' })
  kind!: string;

  @Field()
  title!: string;

  @Field({ description: 'Where the entry comes from (the export section name)' })
  resourceType!: string;

  @Field(() => ID)
  resourceId!: string;
}

@ObjectType()
export class JourneyPage extends PageOf(JourneyEntry) {}
