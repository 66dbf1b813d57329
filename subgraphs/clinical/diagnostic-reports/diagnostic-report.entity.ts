import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

/** FHIR DiagnosticReport categories (diagnostic service sections), narrowed to what a clinic reports. */
export enum DiagnosticReportCategory {
  laboratory = 'laboratory',
  imaging = 'imaging',
  pathology = 'pathology',
  cardiology = 'cardiology',
  other = 'other',
}
registerEnumType(DiagnosticReportCategory, {
  name: 'DiagnosticReportCategory',
  description: 'What kind of diagnostic report it is (the service section that issued it)',
});

/** FHIR DiagnosticReport statuses a report here goes through. */
export enum DiagnosticReportStatus {
  preliminary = 'preliminary',
  final = 'final',
}
registerEnumType(DiagnosticReportStatus, {
  name: 'DiagnosticReportStatus',
  description: 'Where a diagnostic report is (FHIR): preliminary, or final once signed',
});

/** edit: only a preliminary report changes. sign: a doctor makes it final; from then on it is fixed. */
export const DIAGNOSTIC_REPORT = stateMachine<DiagnosticReportStatus, 'edit' | 'sign'>('diagnostic report', {
  edit: { from: [DiagnosticReportStatus.preliminary], to: DiagnosticReportStatus.preliminary },
  sign: { from: [DiagnosticReportStatus.preliminary], to: DiagnosticReportStatus.final },
});

/** The findings and interpretation of an investigation of a patient, FHIR DiagnosticReport-like, signed by a doctor. */
@ObjectType('DiagnosticReport', {
  description: 'A diagnostic report (FHIR DiagnosticReport): conclusions on results, preliminary until signed',
})
@Entity({ tableName: 'diagnostic_reports' })
@Index({ properties: ['patientId', 'createdAt'] })
@Index({ properties: ['organizationId', 'createdAt'] })
export class DiagnosticReport extends PatientRecord {
  @Field(() => ID, { nullable: true, description: 'The service request the report answers' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  serviceRequestId?: string | null;

  @Field(() => DiagnosticReportCategory, { nullable: true })
  @Property({ type: 'text', nullable: true })
  category?: DiagnosticReportCategory | null;

  @Field({ description: 'What was investigated: a code (LOINC, SNOMED CT, a local code) or a short text' })
  @Property({ type: 'text' })
  code!: string;

  @Field(() => String, { nullable: true, description: 'The code system URI, such as http://loinc.org' })
  @Property({ type: 'text', nullable: true })
  codeSystem?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'What was found' })
  @Property({ type: 'text', nullable: true })
  findings?: string | null;

  @Field(() => String, { nullable: true, description: 'The interpretation of the findings' })
  @Property({ type: 'text', nullable: true })
  conclusion?: string | null;

  @Field(() => String, { nullable: true, description: 'The results in brief' })
  @Property({ type: 'text', nullable: true })
  resultSummary?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the findings were observed (the specimen taken, the images made)' })
  @Property({ type: 'timestamptz', nullable: true })
  effectiveAt?: Date | null;

  @Field(() => DiagnosticReportStatus)
  @Enum({ items: () => DiagnosticReportStatus })
  status: Opt<DiagnosticReportStatus> = DiagnosticReportStatus.preliminary;

  @Field(() => ID, { description: 'Who wrote it' })
  @Property({ type: 'uuid' })
  recordedBy!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  signedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  signedAt?: Date | null;
}
