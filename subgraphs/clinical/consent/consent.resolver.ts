import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs } from '../../../shared/connection';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Patient } from '../patients/patient.entity';
import { Consent } from './consent.entity';
import { ConsentService } from './consent.service';
import { ConsentConnection, ConsentListArgs, ConsentPage, GrantConsentInput, RequestConsentInput } from './consent.types';

/** `patient { consents }`: the patient's consents the caller may see, batched across patients. */
@Resolver(() => Patient)
export class PatientConsentsResolver {
  private readonly service = new ConsentService();

  @FieldResolver(() => ConsentConnection, {
    nullable: true,
    description:
      "Consents about the patient, newest first, by cursor: all of them for the patient and their organization's clinicians, otherwise those the caller is party to; null with FORBIDDEN for API keys",
  })
  consents(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.forPatient(ctx, patient, args);
  }
}

@Resolver(() => Consent)
export class ConsentResolver {
  private readonly service = new ConsentService();

  @Query(() => ConsentPage, { description: 'Consents about me as a patient, given to me, or asked for by me' })
  myConsents(@Args() args: ConsentListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx, args);
  }

  @Query(() => Consent, {
    nullable: true,
    description: 'A consent, for the patient or its grantee; NOT_FOUND when missing or not readable',
  })
  consent(@Arg('id', () => ID, { description: 'The consent' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Consent, { description: 'The patient gives a clinician or an organization access to their clinical data' })
  grantConsent(@Arg('input', { description: 'The consent to grant' }) input: GrantConsentInput, @Ctx() ctx: SubgraphContext) {
    return this.service.grant(ctx, input);
  }

  @Mutation(() => Consent, { description: 'A clinician asks a patient for access' })
  requestConsent(
    @Arg('input', { description: 'The consent to ask the patient for' }) input: RequestConsentInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.request(ctx, input);
  }

  @Mutation(() => Consent, { description: 'Approve a requested consent (the patient, or their clinicians); access starts at once' })
  approveConsent(@Arg('id', () => ID, { description: 'The consent (requested)' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.approve(ctx, id);
  }

  @Mutation(() => Consent, { description: 'Withdraw a consent or a request; access ends at once' })
  revokeConsent(@Arg('id', () => ID, { description: 'The consent' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.revoke(ctx, id);
  }
}
