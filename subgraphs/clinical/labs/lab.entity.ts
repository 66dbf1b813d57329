import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

/** FHIR ServiceRequest priorities. */
export enum LabOrderPriority {
  routine = 'routine',
  urgent = 'urgent',
  asap = 'asap',
  stat = 'stat',
}
registerEnumType(LabOrderPriority, { name: 'LabOrderPriority', description: 'How urgent a lab order is: routine, urgent, asap or stat' });

export enum LabOrderStatus {
  ordered = 'ordered',
  in_progress = 'in_progress',
  resulted = 'resulted',
  cancelled = 'cancelled',
}
registerEnumType(LabOrderStatus, {
  name: 'LabOrderStatus',
  description: 'Where a lab order is: ordered, in progress, resulted or cancelled',
});

/**
 * update: only before any result. partial_result: preliminary results arrived. result: every result is final; a
 * resulted order still takes final or corrected results. cancel: while no final result.
 */
export const LAB_ORDER = stateMachine<LabOrderStatus, 'update' | 'partial_result' | 'result' | 'cancel'>('lab order', {
  update: { from: [LabOrderStatus.ordered], to: LabOrderStatus.ordered },
  partial_result: { from: [LabOrderStatus.ordered, LabOrderStatus.in_progress], to: LabOrderStatus.in_progress },
  result: { from: [LabOrderStatus.ordered, LabOrderStatus.in_progress, LabOrderStatus.resulted], to: LabOrderStatus.resulted },
  cancel: { from: [LabOrderStatus.ordered, LabOrderStatus.in_progress], to: LabOrderStatus.cancelled },
});

export enum LabResultReviewStatus {
  not_required = 'not_required',
  pending_review = 'pending_review',
  reviewed = 'reviewed',
}
registerEnumType(LabResultReviewStatus, {
  name: 'LabResultReviewStatus',
  description: 'Whether a clinician has reviewed a lab result (critical results wait for review)',
});

/** Critical results wait for a clinician's review; any other result may be reviewed too, once. */
export const LAB_RESULT_REVIEW = stateMachine<LabResultReviewStatus, 'review'>('lab result', {
  review: { from: [LabResultReviewStatus.pending_review, LabResultReviewStatus.not_required], to: LabResultReviewStatus.reviewed },
});

/** A test ordered for a patient; its results arrive from the laboratory as HL7v2 messages. */
@ObjectType('LabOrder', { description: 'An order for laboratory tests, with its results' })
@Entity({ tableName: 'lab_orders' })
@Index({ properties: ['patientId', 'createdAt'] })
@Index({ properties: ['organizationId', 'createdAt'] })
export class LabOrder extends PatientRecord {
  @Field({ description: 'A key of the lab test catalogue (cbc, bmp, malaria_rdt, ...)' })
  @Property({ type: 'text' })
  testType!: string;

  @Field(() => LabOrderPriority)
  @Enum({ items: () => LabOrderPriority })
  priority!: LabOrderPriority;

  @Field(() => LabOrderStatus)
  @Enum({ items: () => LabOrderStatus })
  status: Opt<LabOrderStatus> = LabOrderStatus.ordered;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { description: 'Who ordered it' })
  @Property({ type: 'uuid' })
  orderedBy!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When its results became final' })
  @Property({ type: 'timestamptz', nullable: true })
  resultedAt?: Date | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  cancelledBy?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  cancelReason?: string | null;
}

/** One observation (an HL7v2 OBX segment) of a lab order's results. */
@ObjectType('LabResult', { description: 'A laboratory result, with its interpretation and review' })
@Entity({ tableName: 'lab_results' })
@Index({ properties: ['patientId', 'createdAt'] })
@Unique({ properties: ['organizationId', 'messageControlId', 'sequence'] })
export class LabResult extends BaseRecord {
  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  labOrderId!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field({ description: 'Observation code (OBX-3.1), LOINC when the code system is LN' })
  @Property({ type: 'text' })
  code!: string;

  @Field(() => String, { nullable: true, description: 'Code system (OBX-3.3), such as LN' })
  @Property({ type: 'text', nullable: true })
  codeSystem?: string | null;

  @Field(() => String, { nullable: true, description: 'Observation name (OBX-3.2)' })
  @Property({ type: 'text', nullable: true })
  display?: string | null;

  @Field({ description: 'HL7 value type (OBX-2): NM, ST, CWE, SN, ...' })
  @Property({ type: 'text' })
  valueType!: string;

  @Field(() => String, { nullable: true, description: 'The value as reported (OBX-5)' })
  @Property({ type: 'text', nullable: true })
  value?: string | null;

  @Field(() => Float, { nullable: true, description: 'The value as a number, for numeric results' })
  @Property({ type: 'double', nullable: true })
  numericValue?: number | null;

  @Field(() => String, { nullable: true, description: 'Unit (OBX-6), UCUM when the sender uses it' })
  @Property({ type: 'text', nullable: true })
  unit?: string | null;

  @Field(() => String, { nullable: true, description: 'Reference range (OBX-7), such as 3.5-5.1' })
  @Property({ type: 'text', nullable: true })
  referenceRange?: string | null;

  @Field(() => String, { nullable: true, description: 'Abnormal flag (OBX-8): L, H, LL, HH, N, A, AA, ...' })
  @Property({ type: 'text', nullable: true })
  abnormalFlag?: string | null;

  @Field({ description: 'Flagged abnormal by the laboratory, or beyond a panic limit' })
  @Property({ type: 'boolean' })
  abnormal!: boolean;

  @Field({ description: 'Flagged HH, LL or AA, or beyond a panic limit: needs a clinician to review it' })
  @Property({ type: 'boolean' })
  critical!: boolean;

  @Field({ description: 'Result status (OBX-11): F final, P preliminary, C corrected, ...' })
  @Property({ type: 'text' })
  resultStatus!: string;

  @Field(() => Date, { nullable: true, description: 'When it was observed (OBX-14, else OBR-7)' })
  @Property({ type: 'timestamptz', nullable: true })
  observedAt?: Date | null;

  @Field({ description: 'The HL7 message it came in (MSH-10)' })
  @Property({ type: 'text' })
  messageControlId!: string;

  /** Position of its OBX in the message: with the control id, what makes a redelivered message recognisable. */
  @Field(() => Int)
  @Property({ type: 'integer' })
  sequence!: number;

  @Field(() => LabResultReviewStatus)
  @Enum({ items: () => LabResultReviewStatus })
  reviewStatus!: LabResultReviewStatus;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  reviewedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  reviewedAt?: Date | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  reviewNote?: string | null;
}
