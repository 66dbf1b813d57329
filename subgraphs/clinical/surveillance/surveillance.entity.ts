import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';

/**
 * Patients with a syndrome on one day in one organization, from the day's encounters (clinical records' chief
 * complaints) and notifiable cases (ICD-10 codes, by onset date; a repeat report linked to a case is not counted).
 * A patient counts once a day per syndrome whatever the number of records. Recomputed from those sources (idempotent per day), never incremented.
 */
@ObjectType('SyndromeDailyCount', { description: 'Patients with a syndrome on one day in one organization' })
@Entity({ tableName: 'syndrome_daily_counts' })
@Unique({ properties: ['organizationId', 'syndromeCode', 'date'] })
@Index({ properties: ['date'] })
export class SyndromeDailyCount extends BaseRecord {
  @Field({ description: 'The syndrome (code of the syndrome list)' })
  @Property({ type: 'text' })
  syndromeCode!: string;

  @Field(() => ID, { description: 'The organization' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => LocalDate, { description: 'The day (UTC)' })
  @Property({ type: 'date' })
  date!: string;

  @Field(() => Int, { description: 'Patients with the syndrome that day' })
  @Property({ type: 'integer' })
  count!: number;

  @Field(() => Int, { description: 'Of them, seen in an encounter whose chief complaint speaks of it' })
  @Property({ type: 'integer' })
  encounters!: number;

  @Field(() => Int, { description: 'Of them, reported as notifiable cases with onset that day' })
  @Property({ type: 'integer' })
  cases!: number;
}

export enum EarsAlgorithm {
  c1 = 'c1',
  c2 = 'c2',
  c3 = 'c3',
}
registerEnumType(EarsAlgorithm, {
  name: 'EarsAlgorithm',
  description:
    'CDC EARS method: c1 (C1-MILD, baseline the 7 days before), c2 (C2-MEDIUM, 7 days with a 2-day lag), c3 (C3-ULTRA, 3 days of C2 excesses)',
});

/**
 * A day on which a syndrome's count in an organization is aberrant by one of the CDC EARS methods, with what the
 * method saw: the baseline (days, mean, standard deviation and the floored one it used), the statistic and the
 * threshold it crossed. Recomputed with the counts: one row per organization, syndrome, day and method.
 */
@ObjectType('SurveillanceAlert', { description: 'A syndrome count above what the recent baseline allows (CDC EARS)' })
@Entity({ tableName: 'surveillance_alerts' })
@Unique({ properties: ['organizationId', 'syndromeCode', 'date', 'algorithm'] })
@Index({ properties: ['date'] })
export class SurveillanceAlert extends BaseRecord {
  @Field({ description: 'The syndrome' })
  @Property({ type: 'text' })
  syndromeCode!: string;

  @Field(() => ID, { description: 'The organization' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => LocalDate, { description: 'The day assessed' })
  @Property({ type: 'date' })
  date!: string;

  @Field(() => EarsAlgorithm, { description: 'The EARS method that raised it' })
  @Enum({ items: () => EarsAlgorithm })
  algorithm!: EarsAlgorithm;

  @Field(() => Int, { description: 'Patients with the syndrome that day' })
  @Property({ type: 'integer' })
  observed!: number;

  @Field(() => LocalDate, { description: 'First day of the baseline' })
  @Property({ type: 'date' })
  baselineStart!: string;

  @Field(() => LocalDate, { description: 'Last day of the baseline' })
  @Property({ type: 'date' })
  baselineEnd!: string;

  @Field(() => Float, { description: 'Mean daily count of the baseline' })
  @Property({ type: 'double' })
  baselineMean!: number;

  @Field(() => Float, { description: 'Sample standard deviation of the baseline' })
  @Property({ type: 'double' })
  baselineSd!: number;

  @Field(() => Float, { description: "The standard deviation used: the baseline's, or the floor (0.5) when smaller" })
  @Property({ type: 'double' })
  sigma!: number;

  @Field(() => Float, { description: "The method's statistic (C1, C2: standardized count; C3: sum of three days' C2 excesses over 1)" })
  @Property({ type: 'double' })
  statistic!: number;

  @Field(() => Float, { description: 'The threshold the statistic crossed (3 for C1 and C2, 2 for C3)' })
  @Property({ type: 'double' })
  threshold!: number;

  @Field(() => Float, { description: 'The largest count that day that would not have alerted' })
  @Property({ type: 'double' })
  upperBound!: number;
}
