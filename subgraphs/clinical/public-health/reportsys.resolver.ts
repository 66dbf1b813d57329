import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { OrganizationRef, ref } from '../../../shared/refs';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { ReportsysMappingService } from './reportsys-mapping.service';
import { ReportsysMapping, ReportsysMappingInput, ResetReportsysMappingPayload, SetReportsysMappingPayload } from './reportsys.types';

@Resolver(() => ReportsysMapping)
export class ReportsysMappingResolver {
  private readonly service = new ReportsysMappingService();

  @RequiresPlatformPermission('public-health')
  @Query(() => ReportsysMapping, {
    nullable: true,
    description:
      "An organization's aggregate reporting mapping as its reports use it: set by an administrator, from the REPORTSYS_MAPPING seed, or built in (public health administrators)",
  })
  reportsysMapping(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.get(ctx, organizationId);
  }

  @RequiresPlatformPermission('public-health')
  @PayloadMutation(SetReportsysMappingPayload, {
    description:
      "Set an organization's aggregate reporting mapping (org unit, data sets, data elements and category option combos), replacing the one it had; public health administrators; a bad field is a user error",
  })
  setReportsysMapping(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Arg('input', { description: 'The mapping' }) input: ReportsysMappingInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.set(ctx, organizationId, input);
  }

  @RequiresPlatformPermission('public-health')
  @PayloadMutation(ResetReportsysMappingPayload, {
    description:
      'Forget the mapping an administrator set for an organization: it reports by the REPORTSYS_MAPPING seed or the built-in default again',
  })
  resetReportsysMapping(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.reset(ctx, organizationId);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization' })
  organization(@Root() mapping: ReportsysMapping) {
    return ref(mapping.organizationId);
  }
}
