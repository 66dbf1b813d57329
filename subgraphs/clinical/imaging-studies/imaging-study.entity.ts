import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { ImagingModality } from '../imaging/imaging-order.entity';
import { PatientRecord } from '../patient-record';

/** A DICOM UID (PS3.5 9.1): numeric components without leading zeros, separated by dots, at most 64 characters. */
export const DICOM_UID = /^(0|[1-9]\d*)(\.(0|[1-9]\d*))*$/;
export const DICOM_UID_MAX = 64;

/** FHIR ImagingStudy statuses, in snake_case. */
export enum ImagingStudyStatus {
  registered = 'registered',
  available = 'available',
  cancelled = 'cancelled',
  entered_in_error = 'entered_in_error',
}
registerEnumType(ImagingStudyStatus, {
  name: 'ImagingStudyStatus',
  description: 'Where an imaging study is (FHIR): registered, available, cancelled, or entered in error',
});

/** A study is registered before its images arrive; one recorded afterwards may start available. */
export const INITIAL_IMAGING_STUDY_STATUSES = [ImagingStudyStatus.registered, ImagingStudyStatus.available] as const;

/**
 * registered → available (the images can be retrieved) or cancelled; a registered or available study recorded by
 * mistake is withdrawn as entered in error, after which it is hidden.
 */
export type ImagingStudyAction = 'make_available' | 'cancel' | 'enter_in_error';

export const IMAGING_STUDY = stateMachine<ImagingStudyStatus, ImagingStudyAction>('imaging study', {
  make_available: { from: [ImagingStudyStatus.registered], to: ImagingStudyStatus.available },
  cancel: { from: [ImagingStudyStatus.registered], to: ImagingStudyStatus.cancelled },
  enter_in_error: { from: [ImagingStudyStatus.registered, ImagingStudyStatus.available], to: ImagingStudyStatus.entered_in_error },
});

/**
 * The images of one examination of a patient, FHIR ImagingStudy-like, identified by its DICOM Study Instance UID.
 * The UID is unique among studies not entered in error, so a study withdrawn (the wrong patient, say) can be
 * recorded again under the same UID.
 */
@ObjectType('ImagingStudy', { description: 'An imaging study (FHIR ImagingStudy): the DICOM metadata of images taken' })
@Entity({ tableName: 'imaging_studies' })
@Index({ properties: ['patientId', 'createdAt'] })
@Index({ properties: ['organizationId', 'createdAt'] })
@Unique({
  name: 'imaging_studies_study_instance_uid_unique',
  expression:
    'create unique index "imaging_studies_study_instance_uid_unique" on "clinical"."imaging_studies" ("study_instance_uid") ' +
    'where "status" <> \'entered_in_error\'',
})
export class ImagingStudy extends PatientRecord {
  @Field(() => ID, { nullable: true, description: 'The imaging order the study fulfils' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  imagingOrderId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The service request the study fulfils' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  serviceRequestId?: string | null;

  @Field(() => ImagingModality)
  @Property({ type: 'text' })
  modality!: ImagingModality;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  bodyPart?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'DICOM Study Instance UID (0020,000D)' })
  @Property({ type: 'text', nullable: true })
  studyInstanceUid?: string | null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true, check: 'number_of_series >= 0' })
  numberOfSeries?: number | null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true, check: 'number_of_instances >= 0' })
  numberOfInstances?: number | null;

  @Field(() => Date, { nullable: true, description: 'When the study started' })
  @Property({ type: 'timestamptz', nullable: true })
  startedAt?: Date | null;

  @Field(() => ImagingStudyStatus)
  @Enum({ items: () => ImagingStudyStatus })
  status!: ImagingStudyStatus;

  @Field(() => ID, { description: 'Who recorded it' })
  @Property({ type: 'uuid' })
  recordedBy!: string;

  @Field(() => String, { nullable: true, description: 'Why the status last changed, as given with the change' })
  @Property({ type: 'text', nullable: true })
  statusReason?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  statusChangedAt?: Opt<Date> | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  statusChangedBy?: string | null;
}
