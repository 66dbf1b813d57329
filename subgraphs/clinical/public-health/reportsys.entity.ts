import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

export enum ReportsysKind {
  cases = 'cases',
  surveillance = 'surveillance',
}
registerEnumType(ReportsysKind, {
  name: 'ReportsysKind',
  description: 'What an aggregate report carries: notifiable case counts, or syndromic surveillance counts',
});

export enum ReportsysProvider {
  sandbox = 'sandbox',
  dhis2 = 'dhis2',
}
registerEnumType(ReportsysProvider, {
  name: 'ReportsysProvider',
  description: 'The aggregate reporting adapter: sandbox (kept on the platform, for tests and demos) or dhis2',
});

export enum ReportsysImportStatus {
  success = 'success',
  warning = 'warning',
  error = 'error',
}
registerEnumType(ReportsysImportStatus, {
  name: 'ReportsysImportStatus',
  description: "The aggregate reporting system's verdict on an import (DHIS2 ImportSummary status, lower case)",
});

/** One value the aggregate reporting system refused, as its import summary names it. */
@ObjectType('ReportsysConflict', { description: 'A value the aggregate reporting system refused' })
export class ReportsysConflict {
  @Field({ description: 'What was refused: a data element, org unit, period or category option combo id' })
  object!: string;

  @Field({ description: "Why, in the system's words" })
  value!: string;

  @Field(() => String, { nullable: true, description: "The system's error code (DHIS2: E7610 and the like)" })
  errorCode?: string | null;
}

/**
 * The latest push of one dataValueSet (one kind, data set, period and org unit) to the aggregate reporting system,
 * with the import summary it answered. Pushing the same period again updates this row (and, in the reporting
 * system, the same data values): never a second one.
 */
@ObjectType('ReportsysSubmission', { description: 'The latest push of one dataValueSet and the import summary it got' })
@Entity({ tableName: 'reportsys_submissions' })
@Unique({ properties: ['kind', 'dataSet', 'period', 'orgUnit'] })
@Index({ properties: ['period'] })
export class ReportsysSubmission extends BaseRecord {
  @Field(() => ReportsysKind, { description: 'Case counts or surveillance counts' })
  @Enum({ items: () => ReportsysKind })
  kind!: ReportsysKind;

  @Field({ description: 'The data set id in the reporting system' })
  @Property({ type: 'text' })
  dataSet!: string;

  @Field({ description: 'The period in DHIS2 syntax (2026W47, 202611)' })
  @Property({ type: 'text' })
  period!: string;

  @Field({ description: 'The org unit id in the reporting system' })
  @Property({ type: 'text' })
  orgUnit!: string;

  @Field(() => ID, { description: 'The organization the org unit stands for' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ReportsysProvider, { description: 'The adapter that sent it' })
  @Property({ type: 'text' })
  provider!: `${ReportsysProvider}`;

  @Field(() => GraphQLJSONObject, { description: 'The dataValueSet last sent, exactly as posted to /api/dataValueSets' })
  @Property({ type: 'jsonb' })
  dataValueSet!: Record<string, unknown>;

  @Field(() => ReportsysImportStatus, { description: 'The import summary status' })
  @Enum({ items: () => ReportsysImportStatus })
  status!: ReportsysImportStatus;

  @Field(() => Int, { description: 'Values created by the last push' })
  @Property({ type: 'integer' })
  imported!: number;

  @Field(() => Int, { description: 'Values that existed and were updated by the last push' })
  @Property({ type: 'integer' })
  updated!: number;

  @Field(() => Int, { description: 'Values refused by the last push (see conflicts)' })
  @Property({ type: 'integer' })
  ignored!: number;

  @Field(() => Int, { description: 'Values deleted by the last push' })
  @Property({ type: 'integer' })
  deleted!: number;

  @Field(() => [ReportsysConflict], { description: 'What the last push had refused, and why' })
  @Property({ type: 'jsonb' })
  conflicts!: ReportsysConflict[];

  @Field(() => GraphQLJSONObject, { description: 'The import summary as the reporting system answered it' })
  @Property({ type: 'jsonb' })
  importSummary!: Record<string, unknown>;

  @Field(() => Int, { description: 'How many times this dataValueSet was pushed' })
  @Property({ type: 'integer' })
  attempts: Opt<number> = 1;

  @Field(() => Date, { description: 'When it was last pushed' })
  @Property({ type: 'timestamptz' })
  pushedAt!: Date;

  @Field(() => ID, { description: 'Who last pushed it' })
  @Property({ type: 'uuid' })
  pushedBy!: string;
}

/**
 * The aggregate reporting mapping an administrator set for one organization (its org unit, data sets and data
 * elements; reportsys.mapping.ts). Organizations without one report by the REPORTSYS_MAPPING seed or the built-in
 * default. Shown in the graph as `ReportsysMapping`. One org unit is one organization's: two reporting to it would
 * overwrite each other's reports.
 */
@Entity({ tableName: 'reportsys_mappings' })
@Unique({ properties: ['idScheme', 'orgUnit'] })
export class ReportsysOrganizationMapping extends BaseRecord {
  @Property({ type: 'uuid' })
  @Unique()
  organizationId!: string;

  /** `uid` or `code`: how the reporting system reads the org unit, data set and data element names. */
  @Enum({ items: ['uid', 'code'] })
  idScheme!: 'uid' | 'code';

  @Property({ type: 'text' })
  orgUnit!: string;

  @Property({ type: 'text' })
  dataSet!: string;

  @Property({ type: 'text', nullable: true })
  surveillanceDataSet?: string | null;

  @Property({ type: 'text', nullable: true })
  attributeOptionCombo?: string | null;

  /** `[{ code, maxYears? }]`, youngest first. */
  @Property({ type: 'jsonb' })
  ageBands!: { code: string; maxYears?: number }[];

  /** Disease code → `{ cases, deaths?, categoryOptionCombo? , categoryOptionCombos? }`. */
  @Property({ type: 'jsonb' })
  diseases!: Record<
    string,
    { cases: string; deaths?: string; categoryOptionCombo?: string; categoryOptionCombos?: Record<string, string> }
  >;

  /** Syndrome code → `{ dataElement, categoryOptionCombo }`. */
  @Property({ type: 'jsonb' })
  syndromes!: Record<string, { dataElement: string; categoryOptionCombo: string }>;

  @Property({ type: 'uuid' })
  updatedBy!: string;
}
