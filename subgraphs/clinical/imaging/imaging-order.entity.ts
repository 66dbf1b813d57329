import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

/** DICOM modality codes (PS3.3 C.7.3.1.1.1), stored as given. */
export const MODALITIES = ['CR', 'CT', 'MR', 'US', 'MG', 'NM', 'PT', 'XA', 'DX', 'RF'] as const;
export const LATERALITIES = ['left', 'right', 'bilateral', 'none'] as const;
export const IMAGING_PRIORITIES = ['routine', 'urgent', 'asap', 'stat'] as const;

export enum ImagingOrderStatus {
  ordered = 'ordered',
  scheduled = 'scheduled',
  in_progress = 'in_progress',
  completed = 'completed',
  cancelled = 'cancelled',
}
registerEnumType(ImagingOrderStatus, {
  name: 'ImagingOrderStatus',
  description: 'Where an imaging order is: ordered, scheduled, in progress, completed or cancelled',
});

/**
 * ordered → scheduled (again to reschedule) → in_progress → completed. Cancelling is possible until the
 * examination starts.
 */
export const IMAGING_ORDER = stateMachine<ImagingOrderStatus, 'schedule' | 'start' | 'complete' | 'cancel'>('imaging order', {
  schedule: { from: [ImagingOrderStatus.ordered, ImagingOrderStatus.scheduled], to: ImagingOrderStatus.scheduled },
  start: { from: [ImagingOrderStatus.scheduled], to: ImagingOrderStatus.in_progress },
  complete: { from: [ImagingOrderStatus.in_progress], to: ImagingOrderStatus.completed },
  cancel: { from: [ImagingOrderStatus.ordered, ImagingOrderStatus.scheduled], to: ImagingOrderStatus.cancelled },
});

/** A request for an imaging examination of a patient. */
@ObjectType('ImagingOrder', { description: 'An order for an imaging examination (X-ray, CT, MRI, ultrasound ...)' })
@Entity({ tableName: 'imaging_orders' })
@Index({ properties: ['patientId', 'createdAt'] })
export class ImagingOrder extends PatientRecord {
  @Field({ description: `DICOM modality: ${MODALITIES.join(', ')}` })
  @Property({ type: 'text' })
  modality!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  bodyPart?: string | null;

  @Field(() => String, { nullable: true, description: LATERALITIES.join(', ') })
  @Property({ type: 'text', nullable: true })
  laterality?: string | null;

  @Field({ description: IMAGING_PRIORITIES.join(', ') })
  @Property({ type: 'text' })
  priority!: string;

  @Field({ description: 'Why the examination is needed' })
  @Property({ type: 'text' })
  clinicalIndication!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ImagingOrderStatus)
  @Enum({ items: () => ImagingOrderStatus })
  status!: ImagingOrderStatus;

  @Field(() => ID, { description: 'Who ordered it' })
  @Property({ type: 'uuid' })
  orderedBy!: string;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  scheduledAt?: Opt<Date> | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  startedAt?: Opt<Date> | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Opt<Date> | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Opt<Date> | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  cancelledBy?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  cancelReason?: string | null;
}
