import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { membershipRole, membershipRoles } from '../../../shared/viewer';
import { Organization } from './organization.entity';
import { OrganizationService } from './organization.service';
import {
  CreateOrganizationInput,
  OrganizationListArgs,
  OrganizationPage,
  OrganizationStatusArgs,
  UpdateOrganizationInput,
} from './organization.types';

@Resolver(() => Organization)
export class OrganizationResolver {
  private readonly service = new OrganizationService();

  @Mutation(() => Organization, { description: 'Create an organization; the caller becomes its ORG:ADMIN' })
  createOrganization(@Arg('input') input: CreateOrganizationInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => OrganizationPage)
  organizations(@Args() args: OrganizationListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => OrganizationPage, { description: "The caller's organizations" })
  myOrganizations(@Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx, args);
  }

  @Query(() => Organization, { nullable: true })
  organization(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Organization)
  updateOrganization(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateOrganizationInput, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Organization, {
    description: 'Activate, suspend or close an organization (platform administrators); closed is final',
  })
  updateOrganizationStatus(@Args() args: OrganizationStatusArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.setStatus(ctx, args);
  }

  @FieldResolver(() => [String], { description: 'Every role the caller holds in this organization (empty when not a member)' })
  viewerRoles(@Root() org: Organization, @Ctx() ctx: SubgraphContext): string[] {
    return membershipRoles(ctx.viewer, org.id);
  }

  @FieldResolver(() => String, { nullable: true, description: "The caller's role in this organization" })
  viewerRole(@Root() org: Organization, @Ctx() ctx: SubgraphContext): string | null {
    return membershipRole(ctx.viewer, org.id) ?? null;
  }

  static resolveReference(ref: { id: string }, ctx: SubgraphContext) {
    return new OrganizationService().load(ctx, ref.id);
  }
}
