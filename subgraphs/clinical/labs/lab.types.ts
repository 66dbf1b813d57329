import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsOneOf, IsText } from '../../../shared/validation';
import { LAB_TEST_KEYS } from './lab-data';
import { LabOrder, LabOrderPriority, LabOrderStatus, LabResult, LabResultReviewStatus } from './lab.entity';

@InputType()
export class CreateLabOrderInput {
  @Field(() => ID)
  patientId!: string;

  @Field({ description: `One of: ${LAB_TEST_KEYS.join(', ')}` })
  @IsOneOf(LAB_TEST_KEYS)
  testType!: string;

  @Field(() => LabOrderPriority, { nullable: true, description: 'routine when omitted' })
  priority?: LabOrderPriority;

  @Field({ nullable: true })
  @IsText(5000)
  notes?: string;
}

@InputType()
export class UpdateLabOrderInput {
  @Field({ nullable: true, description: `One of: ${LAB_TEST_KEYS.join(', ')}` })
  @IsOneOf(LAB_TEST_KEYS)
  testType?: string;

  @Field(() => LabOrderPriority, { nullable: true })
  priority?: LabOrderPriority;

  @Field(() => String, { nullable: true })
  @IsText(5000)
  notes?: string | null;
}

@ArgsType()
export class LabOrderListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's orders" })
  patientId?: string;

  @Field(() => LabOrderStatus, { nullable: true })
  status?: LabOrderStatus;
}

@ArgsType()
export class LabResultListArgs extends PageArgs {
  @Field(() => LabResultReviewStatus, { nullable: true })
  reviewStatus?: LabResultReviewStatus;

  @Field(() => ID, { nullable: true, description: "Only this order's results" })
  labOrderId?: string;
}

@ArgsType()
export class CancelLabOrderArgs {
  @Field({ nullable: true })
  @IsText(2000)
  reason?: string;
}

@ArgsType()
export class ReviewLabResultArgs {
  @Field({ nullable: true })
  @IsText(5000)
  note?: string;
}

@ArgsType()
export class IngestLabMessageArgs {
  @Field({ description: 'An HL7v2 ORU^R01 message (segments separated by CR or LF)' })
  @IsText(1_000_000)
  message!: string;
}

/** What the laboratory's system gets back: the HL7 ACK, and what became of the message. */
@ObjectType()
export class LabIngestAck {
  @Field({ description: 'AA accepted, AE not applicable (unknown patient or order, cancelled order), AR malformed' })
  acknowledgmentCode!: string;

  @Field({ description: 'The HL7 ACK message (MSH and MSA segments, separated by CR)' })
  ack!: string;

  @Field(() => String, { nullable: true, description: 'MSH-10 of the message, when it could be read' })
  messageControlId!: string | null;

  @Field(() => String, { nullable: true, description: 'Why the message was not accepted (null for AA)' })
  reason!: string | null;

  @Field(() => ID, { nullable: true })
  patientId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The order of the first OBR' })
  labOrderId!: string | null;

  @Field(() => [ID], { description: 'Every order the message resulted (one per distinct OBR-2)' })
  labOrderIds!: string[];

  @Field(() => [ID])
  resultIds!: string[];
}

@ObjectType()
export class LabOrderPage extends PageOf(LabOrder) {}

@ObjectType()
export class LabResultPage extends PageOf(LabResult) {}

@ObjectType({ description: 'LabResult records of a patient, by cursor' })
export class LabResultConnection extends ConnectionOf(LabResult, 'LabResult') {}
