import { ArrayMaxSize, ValidateNested } from 'class-validator';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PayloadOf } from '../../../shared/user-errors';
import { IsText } from '../../../shared/validation';

export enum ReportsysIdScheme {
  uid = 'uid',
  code = 'code',
}
registerEnumType(ReportsysIdScheme, {
  name: 'ReportsysIdScheme',
  description:
    "How the reporting system reads the org unit, data set and data element names: uid (DHIS2's 11-character UIDs) or code (their codes)",
});

export enum ReportsysMappingSource {
  set = 'set',
  seed = 'seed',
  built_in = 'built_in',
}
registerEnumType(ReportsysMappingSource, {
  name: 'ReportsysMappingSource',
  description:
    "Where an organization's reporting mapping comes from: set by an administrator, the REPORTSYS_MAPPING seed, or the built-in default",
});

@ObjectType({ description: 'An age band of the reports: ages up to maxYears completed years' })
export class ReportsysAgeBand {
  @Field({ description: 'The band code, lower case letters, digits and _ (under_5)' })
  code!: string;

  @Field(() => Int, { nullable: true, description: 'The oldest age in the band, in completed years; null on the last band' })
  maxYears?: number | null;
}

@ObjectType({ description: 'The category option combo of an age band' })
export class ReportsysBandCombo {
  @Field({ description: 'The age band code, or "unknown" for cases of unknown age' })
  band!: string;

  @Field({ description: 'The category option combo UID' })
  categoryOptionCombo!: string;
}

@ObjectType({ description: "A notifiable disease's data elements in the reports" })
export class ReportsysDiseaseMapping {
  @Field({ description: 'The notifiable disease code (cholera)' })
  code!: string;

  @Field({ description: 'The data element of the case count' })
  cases!: string;

  @Field(() => String, { nullable: true, description: 'The data element of the death count; none reported when null' })
  deaths?: string | null;

  @Field(() => String, { nullable: true, description: 'The category option combo of every count, when counts are not by age band' })
  categoryOptionCombo?: string | null;

  @Field(() => [ReportsysBandCombo], { description: 'The category option combo of each age band, when counts are by age band' })
  categoryOptionCombos!: ReportsysBandCombo[];
}

@ObjectType({ description: "A syndrome's data element in the surveillance reports" })
export class ReportsysSyndromeMapping {
  @Field({ description: 'The monitored syndrome code (ili)' })
  code!: string;

  @Field({ description: 'The data element of the syndrome count' })
  dataElement!: string;

  @Field({ description: 'Its category option combo UID' })
  categoryOptionCombo!: string;
}

@ObjectType({
  description:
    "How an organization's counts become aggregate report data values: its org unit, data sets and data elements, and where that comes from",
})
export class ReportsysMapping {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field(() => ReportsysMappingSource, { description: 'Set by an administrator, from the REPORTSYS_MAPPING seed, or built in' })
  source!: ReportsysMappingSource;

  @Field(() => ReportsysIdScheme, { description: 'How the org unit, data set and data element names are read' })
  idScheme!: ReportsysIdScheme;

  @Field({ description: "The organization's org unit (the built-in default: the org unit coded with the organization's id)" })
  orgUnit!: string;

  @Field({ description: 'The data set of notifiable case counts' })
  dataSet!: string;

  @Field(() => String, { nullable: true, description: 'The data set of syndrome counts; the case data set when null' })
  surveillanceDataSet?: string | null;

  @Field(() => String, { nullable: true, description: 'The attribute option combo UID of every value; the default when null' })
  attributeOptionCombo?: string | null;

  @Field(() => [ReportsysAgeBand], { description: 'Age bands, youngest first; empty when counts are not by age' })
  ageBands!: ReportsysAgeBand[];

  @Field(() => [ReportsysDiseaseMapping], { description: 'The diseases reported, by code; a disease not listed is left out' })
  diseases!: ReportsysDiseaseMapping[];

  @Field(() => [ReportsysSyndromeMapping], { description: 'The syndromes reported, by code; a syndrome not listed is left out' })
  syndromes!: ReportsysSyndromeMapping[];

  @Field(() => Date, { nullable: true, description: 'When an administrator last set it; null for the seed and the built-in default' })
  updatedAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'Who last set it; null for the seed and the built-in default' })
  updatedBy?: string | null;
}

@InputType({ description: 'An age band: ages up to maxYears completed years' })
export class ReportsysAgeBandInput {
  @Field({ description: 'Lower case letters, digits and _ (under_5)' })
  @IsText(40)
  code!: string;

  @Field(() => Int, { nullable: true, description: 'The oldest age in the band, 0 to 150; omitted on the last band only' })
  maxYears?: number | null;
}

@InputType({ description: 'The category option combo of an age band' })
export class ReportsysBandComboInput {
  @Field({ description: 'An age band code, or "unknown" for cases of unknown age' })
  @IsText(40)
  band!: string;

  @Field({ description: 'The category option combo UID' })
  @IsText(64)
  categoryOptionCombo!: string;
}

@InputType({ description: "A notifiable disease's data elements" })
export class ReportsysDiseaseMappingInput {
  @Field({ description: 'A notifiable disease code (GET /api/public-health/diseases)' })
  @IsText(40)
  code!: string;

  @Field({ description: 'The data element of the case count' })
  @IsText(64)
  cases!: string;

  @Field({ nullable: true, description: 'The data element of the death count' })
  @IsText(64)
  deaths?: string;

  @Field({ nullable: true, description: 'The category option combo of every count (or categoryOptionCombos by age band)' })
  @IsText(64)
  categoryOptionCombo?: string;

  @Field(() => [ReportsysBandComboInput], {
    nullable: true,
    description: 'The category option combo of each age band (or one categoryOptionCombo)',
  })
  @ValidateNested()
  @ArrayMaxSize(20, { message: 'must have at most 20 items' })
  categoryOptionCombos?: ReportsysBandComboInput[];
}

@InputType({ description: "A syndrome's data element" })
export class ReportsysSyndromeMappingInput {
  @Field({ description: 'A monitored syndrome code (GET /api/surveillance/syndromes)' })
  @IsText(40)
  code!: string;

  @Field({ description: 'The data element of the syndrome count' })
  @IsText(64)
  dataElement!: string;

  @Field({ description: 'Its category option combo UID' })
  @IsText(64)
  categoryOptionCombo!: string;
}

@InputType({
  description:
    "An organization's reporting mapping, replacing the one it had: its org unit, data sets and data elements (a disease or syndrome not listed is not reported)",
})
export class ReportsysMappingInput {
  @Field(() => ReportsysIdScheme, {
    nullable: true,
    description: 'How the org unit, data set and data element names are read: uid (the default; 11-character UIDs) or code',
  })
  idScheme?: ReportsysIdScheme;

  @Field({ description: "The organization's org unit, as idScheme names it" })
  @IsText(64)
  orgUnit!: string;

  @Field({ description: 'The data set of notifiable case counts, as idScheme names it' })
  @IsText(64)
  dataSet!: string;

  @Field({ nullable: true, description: 'The data set of syndrome counts; the case data set when omitted' })
  @IsText(64)
  surveillanceDataSet?: string;

  @Field({ nullable: true, description: 'The attribute option combo UID of every value' })
  @IsText(64)
  attributeOptionCombo?: string;

  @Field(() => [ReportsysAgeBandInput], { nullable: true, description: 'Age bands, youngest first; none when omitted' })
  @ValidateNested()
  @ArrayMaxSize(20, { message: 'must have at most 20 items' })
  ageBands?: ReportsysAgeBandInput[];

  @Field(() => [ReportsysDiseaseMappingInput], { nullable: true, description: 'The diseases reported; none when omitted' })
  @ValidateNested()
  @ArrayMaxSize(100, { message: 'must have at most 100 items' })
  diseases?: ReportsysDiseaseMappingInput[];

  @Field(() => [ReportsysSyndromeMappingInput], { nullable: true, description: 'The syndromes reported; none when omitted' })
  @ValidateNested()
  @ArrayMaxSize(100, { message: 'must have at most 100 items' })
  syndromes?: ReportsysSyndromeMappingInput[];
}

@ObjectType({ description: "What setReportsysMapping answers: the organization's mapping, or what the user must fix" })
export class SetReportsysMappingPayload extends PayloadOf(ReportsysMapping, 'reportsysMapping') {}

@ObjectType({ description: 'What resetReportsysMapping answers: the mapping the organization reports by now (seed or built in)' })
export class ResetReportsysMappingPayload extends PayloadOf(ReportsysMapping, 'reportsysMapping') {}
