import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsOneOf, IsText } from '../../../shared/validation';
import { IMAGING_PRIORITIES, ImagingOrder, ImagingOrderStatus, LATERALITIES, MODALITIES } from './imaging-order.entity';

@InputType({ description: 'The fields of a new imaging order' })
export class CreateImagingOrderInput {
  @Field(() => ID)
  patientId!: string;

  @Field({ description: `DICOM modality code: ${MODALITIES.join(', ')}` })
  @IsOneOf(MODALITIES)
  modality!: string;

  @Field({ nullable: true, description: 'Body part examined, such as chest or left knee' })
  @IsText(200)
  bodyPart?: string;

  @Field({ nullable: true, description: LATERALITIES.join(', ') })
  @IsOneOf(LATERALITIES)
  laterality?: string;

  @Field({ nullable: true, description: `${IMAGING_PRIORITIES.join(', ')}; routine when omitted` })
  @IsOneOf(IMAGING_PRIORITIES)
  priority?: string;

  @Field({ description: 'Why the examination is needed' })
  @IsText(2000)
  clinicalIndication!: string;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;
}

@ArgsType()
export class ImagingOrderListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's (any patient the caller may read)" })
  patientId?: string;

  @Field(() => ImagingOrderStatus, { nullable: true, description: 'Only orders in this status; every status when omitted' })
  status?: ImagingOrderStatus;

  @Field({ nullable: true, description: 'Only orders for this DICOM modality (CT, MR, US...); every modality when omitted' })
  @IsOneOf(MODALITIES)
  modality?: string;
}

@ArgsType()
export class CancelImagingOrderArgs {
  @Field(() => ID, { description: 'The imaging order' })
  id!: string;

  @Field({ nullable: true, description: 'Why the order is cancelled' })
  @IsText(1000)
  reason?: string;
}

@ArgsType()
export class ScheduleImagingOrderArgs {
  @Field(() => ID, { description: 'The imaging order' })
  id!: string;

  @Field(() => Date, { description: 'When the examination is booked; not in the past' })
  scheduledAt!: Date;
}

@ObjectType()
export class ImagingOrderPage extends PageOf(ImagingOrder) {}

@ObjectType({ description: 'Imaging orders by cursor, newest first' })
export class ImagingOrderConnection extends ConnectionOf(ImagingOrder, 'ImagingOrder') {}
