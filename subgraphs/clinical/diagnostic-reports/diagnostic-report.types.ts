import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionOf } from '../../../shared/connection';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsNotFuture, IsText } from '../../../shared/validation';
import { IsCodeSystem } from '../service-requests/service-request.types';
import { DiagnosticReport, DiagnosticReportCategory, DiagnosticReportStatus } from './diagnostic-report.entity';

@InputType({ description: 'The fields of a new diagnostic report' })
export class CreateDiagnosticReportInput {
  @Field(() => ID)
  patientId!: string;

  @Field(() => ID, { nullable: true, description: 'The service request the report answers (of the same patient)' })
  serviceRequestId?: string;

  @Field(() => DiagnosticReportCategory, { nullable: true })
  category?: DiagnosticReportCategory;

  @Field({ description: 'What was investigated: a code (LOINC, SNOMED CT, a local code) or a short text' })
  @IsText(200)
  code!: string;

  @Field({ nullable: true, description: 'The code system URI, such as http://loinc.org' })
  @IsCodeSystem()
  codeSystem?: string;

  @Field({ nullable: true })
  @IsText(500)
  title?: string;

  @Field({ nullable: true })
  @IsText(20000)
  findings?: string;

  @Field({ nullable: true })
  @IsText(10000)
  conclusion?: string;

  @Field({ nullable: true })
  @IsText(2000)
  resultSummary?: string;

  @Field(() => Date, { nullable: true, description: 'When the findings were observed; never in the future' })
  @IsNotFuture()
  effectiveAt?: Date;
}

/** Every field optional; optional fields sent as null are cleared. Only a preliminary report changes. */
@InputType({ description: 'The fields of a diagnostic report to change; those left out stay' })
export class UpdateDiagnosticReportInput {
  @Field(() => DiagnosticReportCategory, { nullable: true })
  category?: DiagnosticReportCategory | null;

  @Field({ nullable: true })
  @IsText(200)
  code?: string;

  @Field(() => String, { nullable: true })
  @IsCodeSystem()
  codeSystem?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(500)
  title?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(20000)
  findings?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(10000)
  conclusion?: string | null;

  @Field(() => String, { nullable: true })
  @IsText(2000)
  resultSummary?: string | null;

  @Field(() => Date, { nullable: true })
  @IsNotFuture()
  effectiveAt?: Date | null;
}

@ArgsType()
export class DiagnosticReportListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's (any patient the caller may read)" })
  patientId?: string;

  @Field(() => DiagnosticReportStatus, { nullable: true, description: 'Only reports in this status; every status when omitted' })
  status?: DiagnosticReportStatus;

  @Field(() => DiagnosticReportCategory, { nullable: true, description: 'Only reports in this category; every category when omitted' })
  category?: DiagnosticReportCategory;

  @Field(() => ID, { nullable: true, description: 'Only the reports answering this service request' })
  serviceRequestId?: string;
}

@ObjectType()
export class DiagnosticReportPage extends PageOf(DiagnosticReport) {}

@ObjectType({ description: 'DiagnosticReport records of a patient, by cursor' })
export class DiagnosticReportConnection extends ConnectionOf(DiagnosticReport, 'DiagnosticReport') {}
