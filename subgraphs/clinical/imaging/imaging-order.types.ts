import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { ImagingModality, ImagingOrder, ImagingOrderPriority, ImagingOrderStatus, Laterality } from './imaging-order.entity';

@InputType({ description: 'The fields of a new imaging order' })
export class CreateImagingOrderInput {
  @Field(() => ID)
  patientId!: string;

  @Field(() => ImagingModality)
  modality!: ImagingModality;

  @Field({ nullable: true, description: 'Body part examined, such as chest or left knee' })
  @IsText(200)
  bodyPart?: string;

  @Field(() => Laterality, { nullable: true })
  laterality?: Laterality;

  @Field(() => ImagingOrderPriority, { nullable: true, description: 'routine when omitted' })
  priority?: ImagingOrderPriority;

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

  @Field(() => ImagingModality, {
    nullable: true,
    description: 'Only orders for this DICOM modality (CT, MR, US...); every modality when omitted',
  })
  modality?: ImagingModality;
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
