import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { IsText } from '../../../shared/validation';
import { EarsAlgorithm, SurveillanceAlert, SyndromeDailyCount } from './surveillance.entity';

@ObjectType('Syndrome', { description: 'A syndrome monitored by surveillance, defined by ICD-10 codes and chief complaint terms' })
export class Syndrome {
  @Field({ description: 'Stable code, such as fever_rash' })
  code!: string;

  @Field({ description: 'Name' })
  name!: string;

  @Field({ description: 'The case definition it follows, and whose it is' })
  definition!: string;

  @Field(() => [String], { description: 'ICD-10 code prefixes that count for it (B05 covers B05.9)' })
  icd10!: string[];

  @Field(() => [[String]], { description: 'Chief complaint term groups: a complaint holding every term of one group (whole words) counts' })
  complaintTerms!: string[][];

  @Field(() => [String], { description: 'Terms that rule it out in a chief complaint' })
  excludeTerms!: string[];
}

@ObjectType({ description: 'A page of monitored syndromes' })
export class SyndromePage extends PageOf(Syndrome) {}

@ArgsType()
export class AlertListArgs extends PageArgs {
  @Field({ nullable: true, description: 'Only this syndrome' })
  @IsText(64)
  syndromeCode?: string;

  @Field(() => ID, { nullable: true, description: 'Only this organization (one where the caller reads clinical data)' })
  organizationId?: string;

  @Field(() => EarsAlgorithm, { nullable: true, description: 'Only alerts of this EARS method' })
  algorithm?: EarsAlgorithm;

  @Field(() => LocalDate, { nullable: true, description: 'Days on or after this one' })
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Days on or before this one' })
  to?: string;
}

@ObjectType({ description: 'A page of surveillance alerts, newest day first' })
export class SurveillanceAlertPage extends PageOf(SurveillanceAlert) {}

@ArgsType()
export class CountListArgs extends PageArgs {
  @Field({ nullable: true, description: 'Only this syndrome' })
  @IsText(64)
  syndromeCode?: string;

  @Field(() => ID, { nullable: true, description: 'Only this organization (one where the caller reads clinical data)' })
  organizationId?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Days on or after this one' })
  from?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Days on or before this one' })
  to?: string;
}

@ObjectType({ description: 'A page of daily syndrome counts, newest day first (days without patients are not listed)' })
export class SyndromeDailyCountPage extends PageOf(SyndromeDailyCount) {}
