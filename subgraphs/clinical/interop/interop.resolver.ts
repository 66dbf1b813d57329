import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { SmartLaunch } from './interop.entity';
import { InteropService } from './interop.service';
import { CreateSmartLaunchInput, FhirResourceType, HieCountryCode, PurposeOfUse, SmartLaunchResult } from './interop.types';

@Resolver(() => SmartLaunch)
export class InteropResolver {
  private readonly service = new InteropService();

  @Query(() => GraphQLJSONObject, {
    description:
      "Cross-border lookup: the country's health information exchange's Patients with this national id, as a FHIR R4 searchset Bundle (each Patient's meta.source names the exchange). Clinicians and administrators; every lookup is audited with its purpose of use",
  })
  crossBorderPatients(
    @Arg('nationalId', { description: "National identity number in the country's format" }) nationalId: string,
    @Arg('country', () => HieCountryCode, { description: 'Country whose exchange to ask' }) country: HieCountryCode,
    @Arg('hieEndpoint', () => String, {
      nullable: true,
      description: 'A FHIR base URL of an exchange to ask instead; only those on the configured allowlist',
    })
    hieEndpoint: string | null,
    @Arg('purposeOfUse', () => PurposeOfUse, {
      nullable: true,
      description: 'Why the data is asked for (default TREAT); kept in the audit',
    })
    purposeOfUse: PurposeOfUse | null,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.crossBorder(ctx, { nationalId, country, hieEndpoint, purposeOfUse });
  }

  @Mutation(() => SmartLaunchResult, {
    description: "Launch a SMART app for a patient (EHR launch): records the launch context and answers the app's launch URL",
  })
  createSmartLaunch(
    @Arg('input', { description: 'The SMART app to launch and its context' }) input: CreateSmartLaunchInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.createLaunch(ctx, input);
  }

  @Directive('@inaccessible')
  @Query(() => GraphQLJSONObject, {
    nullable: true,
    description: 'One FHIR R4 resource by id, under the same access rules and audit as REST (the read-only FHIR API uses it)',
  })
  fhirRead(
    @Arg('resourceType', () => FhirResourceType, { description: 'The FHIR resource type' }) resourceType: FhirResourceType,
    @Arg('id', () => ID, { description: 'The resource id' }) id: string,
    @Arg('compartment', () => ID, { nullable: true, description: "Only a resource of this patient's (a SMART app's patient context)" })
    compartment: string | null,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.read(ctx, resourceType, id, compartment);
  }

  @Directive('@inaccessible')
  @Query(() => GraphQLJSONObject, { description: "A patient's FHIR R4 resources of one type, newest first, as a searchset Bundle" })
  fhirSearch(
    @Arg('resourceType', () => FhirResourceType, { description: 'The FHIR resource type' }) resourceType: FhirResourceType,
    @Arg('patient', () => ID, { description: 'The patient' }) patient: string,
    @Arg('category', () => String, {
      nullable: true,
      description: 'Observation category: vital-signs, laboratory, exam, survey or social-history',
    })
    category: string | null,
    @Arg('count', () => Int, { nullable: true, description: 'At most this many, 1 to 100 (default 50)' }) count: number | null,
    @Arg('compartment', () => ID, { nullable: true, description: "Only this patient's (a SMART app's patient context)" })
    compartment: string | null,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.search(ctx, resourceType, patient, { category, count, compartment });
  }
}
