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

  @Field(() => String, {
    nullable: true,
    description: "The laboratory's comments on the order (NTE segments after its OBR), one message's after another's",
  })
  @Property({ type: 'text', nullable: true })
  labComment?: string | null;
}

/**
 * One HL7 message a laboratory sent and the platform stored results of, keyed as the sender keys it: sending
 * application (MSH-3), sending facility (MSH-4) and control id (MSH-10), within an organization. Its content hash
 * tells a redelivery (answered again, as first answered) from another message reusing the key (refused with AE).
 * Only messages that stored something are kept: a message refused whole may be sent again once corrected.
 */
@Entity({ tableName: 'lab_messages' })
@Unique({ properties: ['organizationId', 'sendingApplication', 'sendingFacility', 'messageControlId'] })
export class LabMessage extends BaseRecord {
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'uuid' })
  patientId!: string;

  /** MSH-3 as sent (all components), empty when absent. */
  @Property({ type: 'text' })
  sendingApplication!: string;

  /** MSH-4 as sent (all components), empty when absent. */
  @Property({ type: 'text' })
  sendingFacility!: string;

  @Property({ type: 'text' })
  messageControlId!: string;

  /** Lowercase hex SHA-256 of the message without framing and MSH-7. */
  @Property({ type: 'text' })
  contentHash!: string;

  /** The answer given (AA, or AE when part of the message was not stored), repeated to a redelivery. */
  @Property({ type: 'text' })
  acknowledgmentCode!: string;

  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  /** The ERR segments of the answer, and what was not stored. */
  @Property({ type: 'json' })
  problems!: { segment: string; position: number; field: number; code: string; text: string }[];

  @Property({ type: 'json' })
  labOrderIds!: string[];

  @Property({ type: 'json' })
  resultIds!: string[];
}

/** One observation (an HL7v2 OBX segment) of a lab order's results. */
@ObjectType('LabResult', { description: 'A laboratory result, with its interpretation and review' })
@Entity({ tableName: 'lab_results' })
@Index({ properties: ['patientId', 'receivedAt'] })
@Index({ properties: ['patientId', 'createdAt'] })
// An organization's critical results waiting for review, newest first (`criticalResultsInbox`): the inbox reads
// only these rows, however many results the organization keeps.
@Index({
  name: 'lab_results_critical_pending_index',
  expression:
    'create index "lab_results_critical_pending_index" on "clinical"."lab_results" ("organization_id", "received_at", "id") ' +
    'where "critical" and "review_status" = \'pending_review\'',
})
@Unique({ properties: ['labMessageId', 'sequence'] })
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

  /** The stored message it came in (null for results stored before messages were kept). */
  @Field(() => ID, { nullable: true, description: 'The message it came in, shared by the results of one message' })
  @Property({ type: 'uuid', nullable: true })
  labMessageId?: string | null;

  @Field(() => Date, { description: 'When the message it came in was received: the same for every result of a message' })
  @Property({ type: 'timestamptz' })
  receivedAt: Opt<Date> = new Date();

  @Field(() => Int, { description: 'Position of its OBX in the message, from 1: results are listed in this order' })
  @Property({ type: 'integer' })
  sequence!: number;

  @Field(() => String, { nullable: true, description: 'Observation sub-id (OBX-4): groups the results of one isolate, specimen, ...' })
  @Property({ type: 'text', nullable: true })
  subId?: string | null;

  @Field(() => String, { nullable: true, description: 'Alternate code (OBX-3.4) the laboratory gave besides the code' })
  @Property({ type: 'text', nullable: true })
  alternateCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Code system of the alternate code (OBX-3.6), such as LN' })
  @Property({ type: 'text', nullable: true })
  alternateCodeSystem?: string | null;

  @Field(() => String, { nullable: true, description: "The laboratory's comments on the result (NTE segments after its OBX)" })
  @Property({ type: 'text', nullable: true })
  comment?: string | null;

  /** Where an embedded document (value type ED) is kept in object storage. */
  @Property({ type: 'text', nullable: true })
  documentKey?: string | null;

  @Property({ type: 'text', nullable: true })
  documentContentType?: string | null;

  @Property({ type: 'integer', nullable: true })
  documentSize?: number | null;

  @Property({ type: 'text', nullable: true })
  documentSha256?: string | null;

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
