import { Min } from 'class-validator';
import { ConnectionOf } from '../../../shared/connection';
import { PayloadOf } from '../../../shared/user-errors';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { AuditEvent } from '../../../shared/audit/audit-event.entity';
import { ClinicalRecord, EncounterType } from './clinical-record.entity';

@InputType({ description: 'The fields of a new clinical record' })
export class CreateClinicalRecordInput {
  @Field(() => ID)
  patientId!: string;

  @Field(() => EncounterType)
  encounterType!: EncounterType;

  @Field({ nullable: true })
  @IsText(2000)
  chiefComplaint?: string;

  @Field({ nullable: true })
  @IsText(50000)
  notes?: string;
}

@InputType({ description: 'The fields of a clinical record to change; those left out stay' })
export class UpdateClinicalRecordInput {
  @Field(() => EncounterType, { nullable: true })
  encounterType?: EncounterType;

  @Field(() => String, { nullable: true })
  @IsText(2000)
  chiefComplaint?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(50000)
  notes?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: 'The version being edited; when the record is at another, the change is refused (STALE_VERSION; 409 on REST)',
  })
  @Min(1, { message: 'must be at least 1' })
  expectedVersion?: number;
}

@ObjectType()
export class ClinicalRecordPage extends PageOf(ClinicalRecord) {}

@ObjectType({ description: 'What updateClinicalRecord answers: the changed record, or what the user must fix (a stale expectedVersion)' })
export class UpdateClinicalRecordPayload extends PayloadOf(ClinicalRecord, 'clinicalRecord') {}

@ObjectType()
export class AuditEventPage extends PageOf(AuditEvent) {}

@ArgsType()
export class AuditTrailArgs extends PageArgs {}

@ObjectType({ description: 'ClinicalRecord records of a patient, by cursor' })
export class ClinicalRecordConnection extends ConnectionOf(ClinicalRecord, 'ClinicalRecord') {}
