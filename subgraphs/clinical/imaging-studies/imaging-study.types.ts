import { Matches, MaxLength, Min } from 'class-validator';
import { ConnectionOf } from '../../../shared/connection';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { TransitionArgs } from '../../../shared/transitions';
import { PayloadOf } from '../../../shared/user-errors';
import { IsNotFuture, IsText } from '../../../shared/validation';
import { ImagingModality } from '../imaging/imaging-order.entity';
import { DICOM_UID, DICOM_UID_MAX, ImagingStudy, ImagingStudyStatus } from './imaging-study.entity';

@InputType({ description: 'The fields of a new imaging study (DICOM metadata)' })
export class CreateImagingStudyInput {
  @Field(() => ID)
  patientId!: string;

  @Field(() => ID, { nullable: true, description: 'The imaging order the study fulfils (of the same patient)' })
  imagingOrderId?: string;

  @Field(() => ID, { nullable: true, description: 'The service request the study fulfils (of the same patient)' })
  serviceRequestId?: string;

  @Field(() => ImagingModality)
  modality!: ImagingModality;

  @Field({ nullable: true, description: 'Body part examined, such as chest or left knee' })
  @IsText(200)
  bodyPart?: string;

  @Field({ nullable: true })
  @IsText(2000)
  description?: string;

  @Field({ nullable: true, description: `DICOM Study Instance UID: digits and dots, at most ${DICOM_UID_MAX} characters; unique` })
  @Matches(DICOM_UID, { message: 'must be a DICOM UID: numbers separated by dots, such as 1.2.840.113619.2.55.3' })
  @MaxLength(DICOM_UID_MAX, { message: `must be at most ${DICOM_UID_MAX} characters` })
  studyInstanceUid?: string;

  @Field(() => Int, { nullable: true })
  @Min(0, { message: 'must not be negative' })
  numberOfSeries?: number;

  @Field(() => Int, { nullable: true })
  @Min(0, { message: 'must not be negative' })
  numberOfInstances?: number;

  @Field(() => Date, { nullable: true, description: 'When the study started; never in the future' })
  @IsNotFuture()
  startedAt?: Date;

  @Field(() => ImagingStudyStatus, { nullable: true, description: 'registered (default) or available' })
  status?: ImagingStudyStatus;
}

@ArgsType()
export class ImagingStudyListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's (any patient the caller may read)" })
  patientId?: string;

  @Field(() => ImagingStudyStatus, { nullable: true, description: 'Only studies in this status; every status when omitted' })
  status?: ImagingStudyStatus;

  @Field(() => ImagingModality, {
    nullable: true,
    description: 'Only studies of this DICOM modality (CT, MR, US...); every modality when omitted',
  })
  modality?: ImagingModality;
}

@ArgsType()
export class ImagingStudyTransitionArgs extends TransitionArgs {
  @Field(() => String, { nullable: true, description: 'Why the status changes' })
  @IsText(1000)
  override reason?: string | null;
}

@ObjectType()
export class ImagingStudyPage extends PageOf(ImagingStudy) {}

@ObjectType({ description: 'ImagingStudy records of a patient, by cursor' })
export class ImagingStudyConnection extends ConnectionOf(ImagingStudy, 'ImagingStudy') {}

@ObjectType({
  description:
    'What createImagingStudy answers: the new imaging study, or what the user must fix (a bad field, a Study Instance UID taken)',
})
export class CreateImagingStudyPayload extends PayloadOf(ImagingStudy, 'imagingStudy') {}
