import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { DataSubjectRequest } from './dsr.entity';
import { DsrService } from './dsr.service';
import { DataSubjectRequestPage, DsrListArgs, ErasureArgs } from './dsr.types';

/** A patient's data export (GDPR Art. 20): `sections` holds one list per kind of data, snake_case. */
@ObjectType()
export class PatientDataExport {
  @Field({ description: 'ccp-patient-export/1' })
  format!: string;

  @Field()
  generatedAt!: Date;

  @Field(() => ID)
  patientId!: string;

  @Field(() => GraphQLJSONObject)
  sections!: Record<string, unknown>;
}

@Resolver(() => DataSubjectRequest)
export class DsrResolver {
  private readonly service = new DsrService();

  @Mutation(() => DataSubjectRequest, { description: "Erase a patient's personal identifiers (GDPR Art. 17); cannot be undone" })
  requestErasure(@Args() args: ErasureArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.erase(ctx, args.patientId, args.reason);
  }

  @Query(() => DataSubjectRequestPage, { description: 'Data subject requests about a patient, with their outcome' })
  dataSubjectRequests(@Args() args: DsrListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args.patientId, args);
  }

  @Query(() => PatientDataExport, { nullable: true, description: 'Everything held about a patient, machine-readable (GDPR Art. 20)' })
  patientExport(@Arg('patientId', () => ID) patientId: string, @Ctx() ctx: SubgraphContext) {
    return this.service.export(ctx, patientId);
  }
}
