import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

/** FHIR observation categories, in snake_case. */
export enum ObservationCategory {
  vital_signs = 'vital_signs',
  laboratory = 'laboratory',
  social_history = 'social_history',
  exam = 'exam',
  survey = 'survey',
  imaging = 'imaging',
  procedure = 'procedure',
  therapy = 'therapy',
  activity = 'activity',
}
registerEnumType(ObservationCategory, {
  name: 'ObservationCategory',
  description: 'What kind of observation it is (FHIR observation category, in snake_case)',
});

/** FHIR observation interpretation (N, A, L, H, LL, HH), in words. */
export enum ObservationInterpretation {
  normal = 'normal',
  abnormal = 'abnormal',
  low = 'low',
  high = 'high',
  critically_low = 'critically_low',
  critically_high = 'critically_high',
}
registerEnumType(ObservationInterpretation, {
  name: 'ObservationInterpretation',
  description: 'How a result compares with its reference range (FHIR interpretation N, A, L, H, LL, HH, in words)',
});

export enum ObservationStatus {
  registered = 'registered',
  preliminary = 'preliminary',
  final = 'final',
  amended = 'amended',
  cancelled = 'cancelled',
  entered_in_error = 'entered_in_error',
}
registerEnumType(ObservationStatus, {
  name: 'ObservationStatus',
  description: 'Where an observation is (FHIR): registered, preliminary, final, amended, cancelled, or entered in error',
});

/** A new observation starts in one of these; the others are reached by transitions. */
export const INITIAL_OBSERVATION_STATUSES = [ObservationStatus.registered, ObservationStatus.preliminary, ObservationStatus.final] as const;

/**
 * registered (ordered, no result yet) → preliminary → final; changing a final result amends it; an observation not
 * yet final may be cancelled; any may be withdrawn as entered in error (DELETE), after which it is hidden.
 */
export const OBSERVATION = stateMachine<ObservationStatus, 'report_preliminary' | 'finalize' | 'amend' | 'cancel' | 'enter_in_error'>(
  'observation',
  {
    report_preliminary: { from: [ObservationStatus.registered], to: ObservationStatus.preliminary },
    finalize: { from: [ObservationStatus.registered, ObservationStatus.preliminary], to: ObservationStatus.final },
    amend: { from: [ObservationStatus.final, ObservationStatus.amended], to: ObservationStatus.amended },
    cancel: { from: [ObservationStatus.registered, ObservationStatus.preliminary], to: ObservationStatus.cancelled },
    enter_in_error: {
      from: [
        ObservationStatus.registered,
        ObservationStatus.preliminary,
        ObservationStatus.final,
        ObservationStatus.amended,
        ObservationStatus.cancelled,
      ],
      to: ObservationStatus.entered_in_error,
    },
  },
);

/** The transition an update asking for `status` makes (entered in error is DELETE's). */
export const STATUS_ACTIONS: Partial<Record<ObservationStatus, 'report_preliminary' | 'finalize' | 'amend' | 'cancel'>> = {
  [ObservationStatus.preliminary]: 'report_preliminary',
  [ObservationStatus.final]: 'finalize',
  [ObservationStatus.amended]: 'amend',
  [ObservationStatus.cancelled]: 'cancel',
};

/** A measurement or finding about a patient, FHIR Observation-like, coded with LOINC. */
@ObjectType('Observation', { description: 'An observation (FHIR Observation): a measurement or finding with its value and interpretation' })
@Entity({ tableName: 'observations' })
@Index({ properties: ['patientId', 'effectiveAt'] })
export class Observation extends PatientRecord {
  @Field({ description: 'LOINC code, such as 8867-4' })
  @Property({ type: 'text' })
  code!: string;

  @Field(() => String, { nullable: true, description: 'What was observed; the LOINC name for a known code when not given' })
  @Property({ type: 'text', nullable: true })
  display?: string | null;

  @Field(() => ObservationCategory)
  @Property({ type: 'text' })
  category!: ObservationCategory;

  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  valueQuantity?: number | null;

  @Field(() => String, { nullable: true, description: 'UCUM unit of valueQuantity, such as mm[Hg]' })
  @Property({ type: 'text', nullable: true })
  unit?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  valueString?: string | null;

  @Field(() => ObservationStatus)
  @Enum({ items: () => ObservationStatus })
  status!: ObservationStatus;

  @Field(() => Date, { description: 'When the observation was made' })
  @Property({ type: 'timestamptz' })
  effectiveAt!: Date;

  @Field(() => ObservationInterpretation, { nullable: true })
  @Property({ type: 'text', nullable: true })
  interpretation?: ObservationInterpretation | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  recordedBy!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;
}
