import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { IsText } from '../../../shared/validation';
import { CaseClassification, CaseOutcome, NotifiableCase } from './case.entity';
import { ReportsysKind, ReportsysProvider, ReportsysSubmission } from './reportsys.entity';

@InputType({ description: 'A notifiable case to report' })
export class ReportCaseInput {
  @Field(() => ID, { description: 'The patient (of an organization where the caller writes clinical data)' })
  patientId!: string;

  @Field({ description: 'ICD-10 code of a notifiable disease, such as A00.1 (cholera) or B05.9 (measles)' })
  @IsText(16)
  icd10Code!: string;

  @Field(() => LocalDate, { description: 'When the first symptoms began; not in the future' })
  onsetDate!: string;

  @Field(() => CaseClassification, { description: 'suspected, probable or confirmed' })
  classification!: CaseClassification;

  @Field(() => CaseOutcome, { nullable: true, description: 'The outcome as known now; unknown when omitted' })
  outcome?: CaseOutcome;

  @Field({ nullable: true, description: 'Free text, up to 2000 characters' })
  @IsText(2000)
  notes?: string;
}

@ArgsType()
export class CaseListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's reports" })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: "Only this organization's reports" })
  organizationId?: string;

  @Field({ nullable: true, description: 'Only this disease (code of the notifiable disease list)' })
  @IsText(64)
  diseaseCode?: string;

  @Field(() => CaseClassification, { nullable: true, description: 'Only reports with this classification' })
  classification?: CaseClassification;

  @Field(() => LocalDate, { nullable: true, description: 'Onset on or after this day' })
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Onset on or before this day' })
  to?: string;
}

@ObjectType({ description: 'A page of notifiable case reports, newest onset first' })
export class NotifiableCasePage extends PageOf(NotifiableCase) {}

/** A disease of the notifiable list (notifiable-diseases.json, with its sources). */
@ObjectType('NotifiableDisease', { description: 'A disease of the notifiable list (WHO IHR Annex 2, WHO-AFRO IDSR)' })
export class NotifiableDisease {
  @Field({ description: 'Stable code, such as cholera' })
  code!: string;

  @Field({ description: 'Name' })
  name!: string;

  @Field(() => [String], { description: 'ICD-10 code prefixes it covers (A00 covers A00.0 to A00.9)' })
  icd10!: string[];

  @Field({ description: 'Reported immediately (an event is emitted for each new case), rather than weekly in aggregate' })
  immediatelyNotifiable!: boolean;

  @Field(() => Int, { description: 'Shortest incubation period, days' })
  incubationMinDays!: number;

  @Field(() => Int, { description: 'Longest incubation period, days: reports of one patient closer than this are one case' })
  incubationMaxDays!: number;

  @Field(() => [String], { description: 'Why it is notifiable: the IHR Annex 2 or IDSR category' })
  basis!: string[];
}

@ObjectType({ description: 'A page of notifiable diseases' })
export class NotifiableDiseasePage extends PageOf(NotifiableDisease) {}

@ArgsType()
export class DashboardArgs {
  @Field(() => LocalDate, {
    nullable: true,
    description: 'First onset day counted; when omitted the Monday 11 weeks before the week of `to` (12 epidemiological weeks)',
  })
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Last onset day counted; today when omitted. At most 366 days after `from`' })
  to?: string;

  @Field({ nullable: true, description: 'Only this disease' })
  @IsText(64)
  diseaseCode?: string;

  @Field(() => ID, { nullable: true, description: 'Only this organization' })
  organizationId?: string;
}

@ObjectType({ description: 'Cases of one disease' })
export class DiseaseCount {
  @Field({ description: 'Disease code' })
  diseaseCode!: string;

  @Field({ description: 'Disease name' })
  diseaseName!: string;

  @Field(() => Int, { description: 'Cases (repeat reports not counted)' })
  count!: number;
}

@ObjectType({ description: 'Cases with onset in one epidemiological (ISO) week' })
export class WeekCount {
  @Field({ description: 'The week in DHIS2 syntax, such as 2026W47' })
  week!: string;

  @Field(() => LocalDate, { description: 'Its Monday' })
  startDate!: string;

  @Field(() => Int, { description: 'Cases' })
  count!: number;
}

@ObjectType({ description: 'Cases reported by one organization' })
export class OrganizationCount {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field(() => Int, { description: 'Cases' })
  count!: number;
}

@ObjectType({ description: 'Cases of one classification' })
export class ClassificationCount {
  @Field(() => CaseClassification, { description: 'The classification' })
  classification!: CaseClassification;

  @Field(() => Int, { description: 'Cases' })
  count!: number;
}

@ObjectType({ description: 'Cases of one disease, week, organization and classification together' })
export class DashboardCell {
  @Field({ description: 'Disease code' })
  diseaseCode!: string;

  @Field({ description: 'Week, such as 2026W47' })
  week!: string;

  @Field(() => ID, { description: 'Organization' })
  organizationId!: string;

  @Field(() => CaseClassification, { description: 'Classification' })
  classification!: CaseClassification;

  @Field(() => Int, { description: 'Cases' })
  count!: number;
}

@ObjectType({ description: 'Notifiable cases counted by disease, week, organization and classification (by onset date)' })
export class PublicHealthDashboard {
  @Field(() => LocalDate, { description: 'First onset day counted' })
  from!: string;

  @Field(() => LocalDate, { description: 'Last onset day counted' })
  to!: string;

  @Field(() => Int, { description: 'Cases: each patient and disease once per incubation window' })
  totalCases!: number;

  @Field(() => Int, { description: 'Reports that repeated a case and were linked to it, not counted' })
  linkedReports!: number;

  @Field(() => Int, { description: 'Cases of immediately notifiable diseases' })
  immediatelyNotifiableCases!: number;

  @Field(() => Int, { description: 'Cases whose outcome is death' })
  deaths!: number;

  @Field(() => [DiseaseCount], { description: 'By disease, most cases first' })
  byDisease!: DiseaseCount[];

  @Field(() => [WeekCount], { description: 'By week of onset, oldest first, weeks without cases included' })
  byWeek!: WeekCount[];

  @Field(() => [OrganizationCount], { description: 'By organization, most cases first' })
  byOrganization!: OrganizationCount[];

  @Field(() => [ClassificationCount], { description: 'By classification, each one listed' })
  byClassification!: ClassificationCount[];

  @Field(() => [DashboardCell], { description: 'Every combination of disease, week, organization and classification that has cases' })
  cells!: DashboardCell[];
}

@ArgsType()
export class ReportsysArgs {
  @Field({ description: 'The period in DHIS2 syntax: 20261121 (day), 2026W47 (ISO week), 202611 (month), 2026Q4, 2026' })
  @IsText(10)
  period!: string;

  @Field(() => ID, {
    nullable: true,
    description:
      'Only this organization (by its mapping, or the built-in default); when omitted, every organization with a mapping of its own or with counts in the period',
  })
  organizationId?: string;
}

export enum ReportsysSkipReason {
  organization_not_mapped = 'organization_not_mapped',
  disease_not_mapped = 'disease_not_mapped',
  syndrome_not_mapped = 'syndrome_not_mapped',
  age_unknown = 'age_unknown',
}
registerEnumType(ReportsysSkipReason, { name: 'ReportsysSkipReason', description: 'Why counts were left out of an aggregate report' });

@ObjectType({ description: 'Counts left out of an aggregate report for want of a mapping' })
export class ReportsysSkipped {
  @Field(() => ReportsysSkipReason, { description: 'Why' })
  reason!: ReportsysSkipReason;

  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field({ description: 'The disease or syndrome code' })
  code!: string;

  @Field(() => Int, { description: 'How many were left out' })
  count!: number;
}

export enum ReportsysPeriodType {
  daily = 'daily',
  weekly = 'weekly',
  monthly = 'monthly',
  quarterly = 'quarterly',
  yearly = 'yearly',
}
registerEnumType(ReportsysPeriodType, {
  name: 'ReportsysPeriodType',
  description: 'How long a reporting period is, as DHIS2 periods go: a day, an ISO week, a month, a quarter or a year',
});

@ObjectType({ description: 'An aggregate report: DHIS2 dataValueSets, one per org unit, ready to post' })
export class ReportsysExport {
  @Field(() => ReportsysKind, { description: 'Case counts or surveillance counts' })
  kind!: ReportsysKind;

  @Field({ description: 'The period in DHIS2 syntax' })
  period!: string;

  @Field(() => ReportsysPeriodType)
  periodType!: `${ReportsysPeriodType}`;

  @Field(() => LocalDate, { description: 'First day of the period' })
  startDate!: string;

  @Field(() => LocalDate, { description: 'Last day of the period' })
  endDate!: string;

  @Field(() => [GraphQLJSONObject], {
    description:
      'Each dataValueSet exactly as DHIS2 takes it at /api/dataValueSets: dataSet, completeDate (once the period has ended), period, orgUnit, the id scheme fields when names are codes, dataValues (dataElement, categoryOptionCombo, value)',
  })
  dataValueSets!: Record<string, unknown>[];

  @Field(() => [ReportsysSkipped], { description: 'Counts left out, and why' })
  skipped!: ReportsysSkipped[];

  /** The organization of each dataValueSet, in their order (not in the graph: each set names its org unit). */
  organizationIds!: string[];
}

@ObjectType({ description: 'What a push to the aggregate reporting system did' })
export class ReportsysPushResult extends ReportsysExport {
  @Field(() => ReportsysProvider, { description: 'The adapter used' })
  provider!: `${ReportsysProvider}`;

  @Field(() => [ReportsysSubmission], { description: 'One per dataValueSet, with its import summary' })
  submissions!: ReportsysSubmission[];
}

@ArgsType()
export class SubmissionListArgs extends PageArgs {
  @Field(() => ReportsysKind, { nullable: true, description: 'Only this kind' })
  kind?: ReportsysKind;

  @Field({ nullable: true, description: 'Only this period (DHIS2 syntax)' })
  @IsText(10)
  period?: string;
}

@ObjectType({ description: 'A page of aggregate report submissions, latest push first' })
export class ReportsysSubmissionPage extends PageOf(ReportsysSubmission) {}
