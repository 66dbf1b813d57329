import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDate } from '../../../shared/scalars';
import { PatientRecord } from '../patient-record';

export enum CaseClassification {
  suspected = 'suspected',
  probable = 'probable',
  confirmed = 'confirmed',
}
registerEnumType(CaseClassification, {
  name: 'CaseClassification',
  description:
    'How certain the diagnosis is, by the case definition: suspected, probable (epidemiologically linked), confirmed (laboratory)',
});

/** Certainty order: a later report of the same case only ever raises it. */
export const CLASSIFICATION_RANK: Record<CaseClassification, number> = { suspected: 0, probable: 1, confirmed: 2 };

export enum CaseOutcome {
  under_treatment = 'under_treatment',
  recovered = 'recovered',
  died = 'died',
  lost_to_follow_up = 'lost_to_follow_up',
  unknown = 'unknown',
}
registerEnumType(CaseOutcome, { name: 'CaseOutcome', description: "The patient's outcome as known when reported" });

/**
 * A report of a notifiable disease in a patient, by a clinician of the patient's organization. A second report of
 * the same patient and disease whose onset falls within the disease's incubation window of the first is kept and
 * linked to it (`primaryCaseId`): one case, counted once.
 */
@ObjectType('NotifiableCase', { description: 'A notifiable disease reported in a patient' })
@Entity({ tableName: 'notifiable_cases' })
@Index({ properties: ['patientId', 'diseaseCode', 'onsetDate'] })
@Index({ properties: ['organizationId', 'onsetDate'] })
@Index({ properties: ['onsetDate'] })
export class NotifiableCase extends PatientRecord {
  @Field({ description: 'The notifiable disease (code of the reference list, such as cholera)' })
  @Property({ type: 'text' })
  diseaseCode!: string;

  @Field({ description: 'The ICD-10 code reported, upper case (A00.1)' })
  @Property({ type: 'text', fieldName: 'icd10_code' })
  icd10Code!: string;

  @Field(() => LocalDate, { description: 'When the first symptoms began' })
  @Property({ type: 'date' })
  onsetDate!: string;

  @Field(() => CaseClassification, { description: 'For a linked report, as reported; the first report holds the most certain one' })
  @Enum({ items: () => CaseClassification })
  classification!: CaseClassification;

  @Field(() => CaseOutcome, { description: 'For a linked report, as reported; the first report holds the latest known' })
  @Enum({ items: () => CaseOutcome })
  outcome: Opt<CaseOutcome> = CaseOutcome.unknown;

  @Field({ description: 'Whether the disease is reported immediately (an event is emitted at once for a new case)' })
  @Property({ type: 'boolean' })
  immediatelyNotifiable!: boolean;

  @Field(() => ID, { nullable: true, description: 'The first report of the same case, when this one repeats it (it is not counted again)' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  primaryCaseId?: string | null;

  @Field(() => String, { nullable: true, description: 'Free text from the reporter' })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { description: 'The clinician who reported it' })
  @Property({ type: 'uuid' })
  reportedBy!: string;
}
