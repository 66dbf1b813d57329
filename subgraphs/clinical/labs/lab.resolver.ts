import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { labTest } from './lab-data';
import { LabOrder, LabResult } from './lab.entity';
import { LabService } from './lab.service';
import {
  CancelLabOrderArgs,
  CreateLabOrderInput,
  IngestLabMessageArgs,
  LabIngestAck,
  LabOrderListArgs,
  LabOrderPage,
  LabResultListArgs,
  LabResultPage,
  ReviewLabResultArgs,
  UpdateLabOrderInput,
} from './lab.types';

/** `patient { labResults }`: the newest results, batched across patients. */
@Resolver(() => Patient)
export class PatientLabResultsResolver {
  @FieldResolver(() => [LabResult], {
    nullable: true,
    description: 'Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  labResults(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, LabResult, patient, { limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE), resourceType: 'lab_result' });
  }
}

@Resolver(() => LabOrder)
export class LabOrderResolver {
  private readonly service = new LabService();

  @Mutation(() => LabOrder, { description: 'Order a lab test for a patient (clinicians of its organization)' })
  createLabOrder(@Arg('input') input: CreateLabOrderInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => LabOrderPage, { description: "A patient's orders, or those of every organization where the caller reads clinical data" })
  labOrders(@Args() args: LabOrderListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => LabOrder, { nullable: true })
  labOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => LabOrder, { description: 'Change the test, priority or notes of an order not yet in progress' })
  updateLabOrder(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateLabOrderInput, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => LabOrder, { description: 'Cancel an order that has no final results' })
  cancelLabOrder(@Arg('id', () => ID) id: string, @Args() args: CancelLabOrderArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, id, args.reason);
  }

  @FieldResolver(() => String, { description: 'The catalogue name of the test' })
  testName(@Root() order: LabOrder) {
    return labTest(order.testType)?.name ?? order.testType;
  }

  @FieldResolver(() => String, { nullable: true, description: 'LOINC code of the test' })
  loincCode(@Root() order: LabOrder) {
    return labTest(order.testType)?.loinc ?? null;
  }

  @FieldResolver(() => String, { nullable: true })
  specimen(@Root() order: LabOrder) {
    return labTest(order.testType)?.specimen ?? null;
  }

  @FieldResolver(() => [LabResult])
  results(@Root() order: LabOrder, @Ctx() ctx: SubgraphContext) {
    return this.service.results(ctx, order);
  }
}

@Resolver(() => LabResult)
export class LabResultResolver {
  private readonly service = new LabService();

  @Mutation(() => LabIngestAck, { description: 'Take an HL7v2 ORU^R01 result message from a laboratory; answers the HL7 ACK' })
  ingestLabMessage(@Args() args: IngestLabMessageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.ingest(ctx, args);
  }

  @Query(() => LabResultPage)
  patientLabResults(@Arg('patientId', () => ID) patientId: string, @Args() args: LabResultListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listResults(ctx, patientId, args);
  }

  @Query(() => LabResult, { nullable: true })
  labResult(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.getResult(ctx, id);
  }

  @Mutation(() => LabResult, { description: 'A clinician reviews a result (critical results wait for this)' })
  reviewLabResult(@Arg('id', () => ID) id: string, @Args() args: ReviewLabResultArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.review(ctx, id, args.note);
  }
}
