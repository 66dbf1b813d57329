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
  @Field(() => ID)
  organizationId!: string;

  @Field(() => ID)
  userId!: string;

  @Field({ description: ORG_ROLES.join(', ') })
  @IsOneOf(ORG_ROLES)
  role!: string;
}

@ObjectType()
export class OrganizationMemberPage extends PageOf(OrganizationMember) {}
