import { Entity, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

/**
 * Someone the organization rosters: a nurse, a doctor, a porter. A member may have an account on the platform
 * (`userId`, then they ask for and accept swaps themselves and their approved leave reaches the roster) or not (a
 * manager acts for them). Skills are short codes the organization chooses (`icu`, `midwife`, `triage`).
 */
@ObjectType('WorkforceMember', { description: 'A member of staff of an organization, as its rosters see them' })
@Entity({ tableName: 'workforce_members' })
@Index({ properties: ['organizationId', 'name'] })
@Index({
  name: 'workforce_members_user_unique',
  expression:
    'create unique index "workforce_members_user_unique" on "org"."workforce_members" ("organization_id", "user_id") where "user_id" is not null',
})
export class WorkforceMember extends BaseRecord {
  @Field(() => ID, { description: 'The organization the member works for' })
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => ID, { nullable: true, description: 'Their platform account, a member of the organization; null for staff without one' })
  @Property({ type: 'uuid', nullable: true })
  userId?: string | null;

  @Field({ description: 'Name as shown on rosters' })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Where the published roster is mailed: the account’s email, or the one given for staff without an account',
  })
  @Property({ type: 'text', nullable: true })
  email?: string | null;

  @Field({ description: 'Their job on the ward, as the organization words it (Registered nurse, Medical officer)' })
  @Property({ type: 'text' })
  role!: string;

  @Field(() => Float, { description: 'Contracted hours per week; a roster never gives more in any of its weeks' })
  @Property({ type: 'double' })
  contractedHoursPerWeek!: number;

  @Field(() => [String], { description: 'Skill codes, lower case (icu, midwife); shift types and requirements name them' })
  @Property({ type: 'text[]', default: '{}' })
  skills: Opt<string[]> = [];

  @Field(() => Boolean, { description: 'May work night shifts (at least 3 hours between 23:00 and 06:00)' })
  @Property({ type: 'boolean', default: true })
  nightEligible: Opt<boolean> = true;

  @Field(() => Boolean, { description: 'May work shifts starting on a Saturday or Sunday' })
  @Property({ type: 'boolean', default: true })
  weekendEligible: Opt<boolean> = true;

  @Field(() => ID, { nullable: true, description: 'Who added the member' })
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null;
}
