import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsOneOf, IsText } from '../../../shared/validation';
import { LAB_TEST_KEYS } from './lab-data';
import { LabOrder, LabOrderPriority, LabOrderStatus, LabResult, LabResultReviewStatus } from './lab.entity';

@InputType({ description: 'The fields of a new lab order' })
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

@InputType({ description: 'The fields of a lab order to change; those left out stay' })
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

  @Field(() => LabOrderStatus, { nullable: true, description: 'Only orders in this status; every status when omitted' })
  status?: LabOrderStatus;
}

@ArgsType()
export class LabResultListArgs extends PageArgs {
  @Field(() => LabResultReviewStatus, { nullable: true, description: 'Only results in this review status; every status when omitted' })
  reviewStatus?: LabResultReviewStatus;

  @Field(() => ID, { nullable: true, description: "Only this order's results" })
  labOrderId?: string;
}

@ArgsType()
export class CancelLabOrderArgs {
  @Field({ nullable: true, description: 'Why the order is cancelled, up to 2000 characters; optional' })
  @IsText(2000)
  reason?: string;
}

@ArgsType()
export class ReviewLabResultArgs {
  @Field({ nullable: true, description: 'A note on the review, up to 5000 characters; optional' })
  @IsText(5000)
  note?: string;
}

@ArgsType()
export class IngestLabMessageArgs {
  @Field({ description: 'An HL7v2 ORU^R01 message (segments separated by CR or LF)' })
  @IsText(1_000_000)
  message!: string;
}

/** HL7 v2 acknowledgment codes (table 0008), upper case as in MSA-1. */
export enum Hl7AckCode {
  AA = 'AA',
  AE = 'AE',
  AR = 'AR',
}
registerEnumType(Hl7AckCode, {
  name: 'Hl7AckCode',
  description: 'HL7 v2 acknowledgment code (MSA-1), upper case as HL7 writes it: AA accepted, AE error, AR rejected',
});

/** What the laboratory's system gets back: the HL7 ACK, and what became of the message. */
@ObjectType({ description: 'The acknowledgement of an HL7 lab message: accepted or why not' })
export class LabIngestAck {
  @Field(() => Hl7AckCode, {
    description:
      'AA stored; AE not stored, or stored in part (see not_stored): unknown patient or order, cancelled order, control id reused for another message; AR malformed or refused (batches)',
  })
  acknowledgmentCode!: `${Hl7AckCode}`;

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

  @Field(() => [ID], { description: 'The results stored, in the order of their OBX' })
  resultIds!: string[];

  @Field({ description: 'True when this repeats the answer to a message already stored (same sender, control id and content)' })
  duplicate!: boolean;

  @Field(() => [String], {
    description: 'What was not stored and why, one line per part (also in the ACK as ERR segments); empty for AA',
  })
  notStored!: string[];
}

/** An embedded document a result carries (an OBX of value type ED), without its bytes. */
@ObjectType({ description: 'An embedded document a result carries (an OBX of value type ED), without its bytes' })
export class LabResultDocumentInfo {
  @Field({ description: 'Media type, such as application/pdf' })
  contentType!: string;

  @Field(() => Int, { description: 'Size in bytes' })
  size!: number;

  @Field({ description: 'SHA-256 of the bytes, lowercase hex' })
  sha256!: string;
}

/** The embedded document of a result, with its bytes. */
@ObjectType({ description: 'The embedded document of a result (an OBX of value type ED), with its bytes' })
export class LabResultDocument extends LabResultDocumentInfo {
  @Field(() => ID)
  labResultId!: string;

  @Field({ description: 'The bytes, Base64' })
  data!: string;
}

@ObjectType()
export class LabOrderPage extends PageOf(LabOrder) {}

@ObjectType()
export class LabResultPage extends PageOf(LabResult) {}

@ObjectType({ description: 'LabResult records of a patient, by cursor' })
export class LabResultConnection extends ConnectionOf(LabResult, 'LabResult') {}

@ObjectType({ description: 'Lab orders by cursor, newest first' })
export class LabOrderConnection extends ConnectionOf(LabOrder, 'LabOrder') {}
