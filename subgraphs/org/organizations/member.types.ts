import { ArrayMaxSize, ArrayNotEmpty } from 'class-validator';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { ORG_ROLES } from '../../../shared/permissions';
import { IsOneOf } from '../../../shared/validation';
import { OrganizationMember } from './organization.entity';

@ArgsType()
export class MemberListArgs extends PageArgs {
  @Field({ nullable: true, description: `Only members holding this role: ${ORG_ROLES.join(', ')}` })
  @IsOneOf(ORG_ROLES)
  role?: string;
}

@ArgsType()
export class MemberRoleArgs {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field(() => ID, { description: 'The member (a user of the organization)' })
  userId!: string;

  @Field({ nullable: true, description: `The member's one role (replacing any others): ${ORG_ROLES.join(', ')}` })
  @IsOneOf(ORG_ROLES)
  role?: string;

  @Field(() => [String], { nullable: true, description: 'Every role the member is to hold, the primary one first (instead of `role`)' })
  @IsOneOf(ORG_ROLES, {}, { each: true })
  @ArrayNotEmpty({ message: 'must name at least one role' })
  @ArrayMaxSize(ORG_ROLES.length)
  roles?: string[];
}

@ObjectType()
export class OrganizationMemberPage extends PageOf(OrganizationMember) {}
