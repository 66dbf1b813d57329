import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Consent } from './consent.entity';
import { ConsentService } from './consent.service';
import { ConsentListArgs, ConsentPage, GrantConsentInput, RequestConsentInput } from './consent.types';

@Resolver(() => Consent)
export class ConsentResolver {
  private readonly service = new ConsentService();

  @Query(() => ConsentPage, { description: 'Consents about me as a patient, given to me, or asked for by me' })
  myConsents(@Args() args: ConsentListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx, args);
  }

  @Query(() => Consent, { nullable: true })
  consent(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Consent, { description: 'The patient gives a clinician or an organization access to their clinical data' })
  grantConsent(@Arg('input') input: GrantConsentInput, @Ctx() ctx: SubgraphContext) {
    return this.service.grant(ctx, input);
  }

  @Mutation(() => Consent, { description: 'A clinician asks a patient for access' })
  requestConsent(@Arg('input') input: RequestConsentInput, @Ctx() ctx: SubgraphContext) {
    return this.service.request(ctx, input);
  }

  @Mutation(() => Consent)
  approveConsent(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.approve(ctx, id);
  }

  @Mutation(() => Consent, { description: 'Withdraw a consent or a request; access ends at once' })
  revokeConsent(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.revoke(ctx, id);
  }
}
