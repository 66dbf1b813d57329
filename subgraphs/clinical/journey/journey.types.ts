import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
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

/**
 * What a journey entry is: one value per timeline a module declares in its manifest (`patientData[].timeline.kind`);
 * a module adding a timeline adds its kind here (test/graph-types.test.ts checks every declared kind is listed).
 */
export enum JourneyEntryKind {
  action_item = 'action_item',
  adverse_event = 'adverse_event',
  allergy = 'allergy',
  cds_alert = 'cds_alert',
  clinical_note = 'clinical_note',
  clinical_record = 'clinical_record',
  diagnostic_report = 'diagnostic_report',
  early_warning_score = 'early_warning_score',
  imaging_order = 'imaging_order',
  imaging_study = 'imaging_study',
  immunization = 'immunization',
  immunization_adverse_event = 'immunization_adverse_event',
  journey_event = 'journey_event',
  lab_order = 'lab_order',
  lab_result = 'lab_result',
  notifiable_case = 'notifiable_case',
  observation = 'observation',
  prescription = 'prescription',
  service_request = 'service_request',
  session_recording = 'session_recording',
  treatment = 'treatment',
  vital_signs = 'vital_signs',
}
registerEnumType(JourneyEntryKind, {
  name: 'JourneyEntryKind',
  description:
    'What a care journey entry is: a recorded journey event, or the kind of record it comes from (clinical_record, lab_result, ...)',
});

/** One entry of a patient's care journey: a recorded event, or a record, lab, prescription, immunization, ... */
@ObjectType({ description: "One entry of a patient's care journey: a record of any module, in time order" })
export class JourneyEntry {
  @Field()
  occurredAt!: Date;

  @Field(() => JourneyEntryKind)
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
