import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

/** DICOM modality codes (PS3.3 C.7.3.1.1.1), stored as given. */
export enum ImagingModality {
  CR = 'CR',
  CT = 'CT',
  MR = 'MR',
  US = 'US',
  MG = 'MG',
  NM = 'NM',
  PT = 'PT',
  XA = 'XA',
  DX = 'DX',
  RF = 'RF',
}
registerEnumType(ImagingModality, {
  name: 'ImagingModality',
  description: 'DICOM modality code, upper case as DICOM writes it: CR, CT, MR, US, MG, NM, PT, XA, DX or RF',
});
export enum Laterality {
  left = 'left',
  right = 'right',
  bilateral = 'bilateral',
  none = 'none',
}
registerEnumType(Laterality, {
  name: 'Laterality',
  description: 'Which side of the body: left, right, bilateral, or none (a part without sides)',
});
export enum ImagingOrderPriority {
  routine = 'routine',
  urgent = 'urgent',
  asap = 'asap',
  stat = 'stat',
}
registerEnumType(ImagingOrderPriority, {
  name: 'ImagingOrderPriority',
  description: 'How soon an imaging order is to be done: routine, urgent, asap or stat (at once)',
});

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
  @Field(() => ImagingModality)
  @Property({ type: 'text' })
  modality!: ImagingModality;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  bodyPart?: string | null;

  @Field(() => Laterality, { nullable: true })
  @Property({ type: 'text', nullable: true })
  laterality?: Laterality | null;

  @Field(() => ImagingOrderPriority)
  @Property({ type: 'text' })
  priority!: ImagingOrderPriority;

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
