import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { byIds } from '../../../shared/model';
import { OrganizationRef } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { labTest } from './lab-data';
import { LabOrder, LabResult } from './lab.entity';
import { documentInfo, LabService } from './lab.service';
import {
  CancelLabOrderArgs,
  CreateLabOrderInput,
  IngestLabMessageArgs,
  LabIngestAck,
  LabOrderListArgs,
  LabOrderPage,
  LabResultDocument,
  LabResultDocumentInfo,
  LabResultListArgs,
  LabResultPage,
  ReviewLabResultArgs,
  UpdateLabOrderInput,
  LabResultConnection,
  LabOrderConnection,
} from './lab.types';

const LAB_RESULT_LIST = patientList('lab_result', LabResult, { sortColumn: 'created_at' });
const LAB_ORDER_LIST = patientList('lab_order', LabOrder, { sortColumn: 'created_at' });

/** `patient { labResults labOrders }`: the newest results and orders, batched across patients. */
@Resolver(() => Patient)
export class PatientLabResultsResolver {
  @FieldResolver(() => LabResultConnection, {
    nullable: true,
    description: 'Lab results, newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  labResults(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, LAB_RESULT_LIST, patient, args);
  }

  @FieldResolver(() => LabOrderConnection, {
    nullable: true,
    description: 'Lab orders, newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  labOrders(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, LAB_ORDER_LIST, patient, args);
  }
}

@Resolver(() => LabOrder)
export class LabOrderResolver {
  private readonly service = new LabService();

  @Mutation(() => LabOrder, { description: 'Order a lab test for a patient (clinicians of its organization)' })
  createLabOrder(
    @Arg('input', { description: 'The fields of the new lab order' }) input: CreateLabOrderInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => LabOrderPage, { description: "A patient's orders, or those of every organization where the caller reads clinical data" })
  labOrders(@Args() args: LabOrderListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => LabOrder, { nullable: true, description: 'A lab order with its results; NOT_FOUND when missing or not readable' })
  labOrder(@Arg('id', () => ID, { description: 'The lab order' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => LabOrder, { description: 'Change the test, priority or notes of an order not yet in progress' })
  updateLabOrder(
    @Arg('id', () => ID, { description: 'The lab order' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateLabOrderInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => LabOrder, { description: 'Cancel an order that has no final results' })
  cancelLabOrder(
    @Arg('id', () => ID, { description: 'The lab order' }) id: string,
    @Args() args: CancelLabOrderArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
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

  @FieldResolver(() => LabOrder, { nullable: true, description: 'The order this result answers (batched)' })
  labOrder(@Root() result: LabResult, @Ctx() ctx: SubgraphContext): Promise<LabOrder | null> {
    return ctx.loader<string, LabOrder>('lab-orders', byIds(ctx.em, LabOrder)).load(result.labOrderId);
  }

  @Query(() => LabResultPage, {
    description:
      "A patient's lab results as the laboratory sent them: the newest message first, a message's results in the order of their OBX (sequence)",
  })
  patientLabResults(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: LabResultListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listResults(ctx, patientId, args);
  }

  @Query(() => LabResultDocument, {
    nullable: true,
    description:
      'The document embedded in a result (an OBX of value type ED, such as a PDF report); NOT_FOUND when missing or not readable',
  })
  labResultDocument(@Arg('id', () => ID, { description: 'The lab result' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.document(ctx, id);
  }

  @FieldResolver(() => LabResultDocumentInfo, {
    nullable: true,
    description: 'The embedded document the result carries (value type ED), without its bytes: labResultDocument has them',
  })
  document(@Root() result: LabResult) {
    return documentInfo(result);
  }

  @Query(() => LabResult, { nullable: true, description: 'A lab result; NOT_FOUND when missing or not readable' })
  labResult(@Arg('id', () => ID, { description: 'The lab result' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.getResult(ctx, id);
  }

  @Mutation(() => LabResult, { description: 'A clinician reviews a result (critical results wait for this)' })
  reviewLabResult(
    @Arg('id', () => ID, { description: 'The lab result' }) id: string,
    @Args() args: ReviewLabResultArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.review(ctx, id, args.note);
  }
}

/** The critical results waiting for review in an organization: `criticalResultsInbox`, `organization { criticalResults }`. */
@Resolver(() => OrganizationRef)
export class OrganizationCriticalResultsResolver {
  private readonly service = new LabService();

  @Query(() => LabResultConnection, {
    description:
      "An organization's critical lab results (flagged HH, LL, AA or beyond a panic limit) not yet reviewed, newest received first, by cursor; clinical:read in the organization. reviewLabResult takes a result out",
  })
  criticalResultsInbox(
    @Arg('organizationId', () => ID, { description: 'The organization' }) organizationId: string,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.criticalInbox(ctx, organizationId, args);
  }

  @FieldResolver(() => LabResultConnection, {
    nullable: true,
    description:
      'Critical lab results not yet reviewed, newest received first, by cursor; as criticalResultsInbox. Null with a FORBIDDEN error without clinical:read there',
  })
  criticalResults(@Root() org: OrganizationRef, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.criticalInbox(ctx, org.id, args);
  }
}
