import { Max, Min } from 'class-validator';
import { ConnectionOf } from '../../../shared/connection';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { EPrescription, EPrescriptionStatus, MAX_REFILLS, Prescription, PrescriptionStatus } from './prescription.entity';

@InputType({ description: 'The fields of a new prescription (a draft until signed)' })
export class CreatePrescriptionInput {
  @Field(() => ID)
  patientId!: string;

  @Field({ description: 'The medicine, such as "Amoxicillin 500 mg capsule"' })
  @IsText(200)
  medication!: string;

  @Field({ description: 'How much per dose, such as "1 capsule"' })
  @IsText(200)
  dosage!: string;

  @Field({ description: 'How often, such as "every 8 hours"' })
  @IsText(200)
  frequency!: string;

  @Field({ nullable: true, description: 'For how long, such as "7 days"' })
  @IsText(200)
  duration?: string;

  @Field({ nullable: true })
  @IsText(2000)
  instructions?: string;

  @Field(() => Int, { nullable: true, description: `Refills allowed after the first fill, 0 (default) to ${MAX_REFILLS}` })
  @Min(0, { message: 'must not be negative' })
  @Max(MAX_REFILLS, { message: `must be at most ${MAX_REFILLS}` })
  refills?: number;
}

/** Every field optional; optional fields sent as null are cleared. Drafts only. */
@InputType({ description: 'The fields of a draft prescription to change; those left out stay' })
export class UpdatePrescriptionInput {
  @Field({ nullable: true })
  @IsText(200)
  medication?: string;

  @Field({ nullable: true })
  @IsText(200)
  dosage?: string;

  @Field({ nullable: true })
  @IsText(200)
  frequency?: string;

  @Field(() => String, { nullable: true })
  @IsText(200)
  duration?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(2000)
  instructions?: string | null;

  @Field(() => Int, { nullable: true })
  @Min(0, { message: 'must not be negative' })
  @Max(MAX_REFILLS, { message: `must be at most ${MAX_REFILLS}` })
  refills?: number;
}

@ArgsType()
export class PrescriptionListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's (any patient the caller may read)" })
  patientId?: string;

  @Field(() => PrescriptionStatus, { nullable: true, description: 'Only prescriptions in this status; every status when omitted' })
  status?: PrescriptionStatus;
}

@ArgsType()
export class CancelPrescriptionArgs {
  @Field(() => ID, { description: 'The prescription' })
  id!: string;

  @Field({ nullable: true, description: 'Why it was cancelled' })
  @IsText(500)
  reason?: string;
}

@InputType({ description: 'The signed prescription to send and the pharmacy to send it to' })
export class CreateEPrescriptionInput {
  @Field(() => ID, { description: 'A signed prescription' })
  prescriptionId!: string;

  @Field(() => ID, { description: 'The pharmacy (an active organization) that will dispense it' })
  pharmacyId!: string;
}

@ArgsType()
export class EPrescriptionListArgs extends PageArgs {
  @Field(() => EPrescriptionStatus, { nullable: true, description: 'Only e-prescriptions in this status; every status when omitted' })
  status?: EPrescriptionStatus;
}

@ObjectType()
export class PrescriptionPage extends PageOf(Prescription) {}

@ObjectType()
export class EPrescriptionPage extends PageOf(EPrescription) {}

@ObjectType({ description: 'Prescription records of a patient, by cursor' })
export class PrescriptionConnection extends ConnectionOf(Prescription, 'Prescription') {}

@ObjectType({ description: 'Electronic prescriptions by cursor, newest first' })
export class EPrescriptionConnection extends ConnectionOf(EPrescription, 'EPrescription') {}
