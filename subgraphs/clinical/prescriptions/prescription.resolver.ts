import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { EPrescription, Prescription } from './prescription.entity';
import { EPrescriptionService, PrescriptionService } from './prescription.service';
import {
  CancelPrescriptionArgs,
  CreateEPrescriptionInput,
  CreatePrescriptionInput,
  EPrescriptionListArgs,
  EPrescriptionPage,
  PrescriptionListArgs,
  PrescriptionPage,
  UpdatePrescriptionInput,
} from './prescription.types';

/** `patient { prescriptions }`: the newest prescriptions, batched across patients. */
@Resolver(() => Patient)
export class PatientPrescriptionsResolver {
  @FieldResolver(() => [Prescription], {
    nullable: true,
    description: 'Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  prescriptions(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, Prescription, patient, {
      limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE),
      resourceType: 'prescription',
    });
  }
}

@Resolver(() => Prescription)
export class PrescriptionResolver {
  private readonly service = new PrescriptionService();

  @Mutation(() => Prescription, { description: "Write a draft prescription (clinicians of the patient's organization)" })
  createPrescription(@Arg('input') input: CreatePrescriptionInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => PrescriptionPage, {
    description: "A patient's prescriptions (patientId), or those of my organizations and mine as a patient",
  })
  prescriptions(@Args() args: PrescriptionListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Prescription, { nullable: true })
  prescription(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Prescription, { description: 'Change a draft; a signed or cancelled prescription cannot be edited' })
  updatePrescription(@Arg('id', () => ID) id: string, @Arg('input') input: UpdatePrescriptionInput, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Prescription, { description: 'Sign a draft (doctors only)' })
  signPrescription(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.sign(ctx, id);
  }

  @Mutation(() => Prescription, { description: 'Cancel a draft or signed prescription, and its e-prescriptions not yet dispensed' })
  cancelPrescription(@Args() args: CancelPrescriptionArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.cancel(ctx, args);
  }
}

@Resolver(() => EPrescription)
export class EPrescriptionResolver {
  private readonly service = new EPrescriptionService();

  @Mutation(() => EPrescription, { description: 'Send a signed prescription to a pharmacy (pending until transmitted)' })
  createEPrescription(@Arg('input') input: CreateEPrescriptionInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => EPrescriptionPage)
  patientEPrescriptions(@Arg('patientId', () => ID) patientId: string, @Args() args: EPrescriptionListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listForPatient(ctx, patientId, args);
  }

  @Query(() => EPrescriptionPage, { description: 'E-prescriptions sent to a pharmacy (its members)' })
  pharmacyEPrescriptions(
    @Arg('pharmacyId', () => ID) pharmacyId: string,
    @Args() args: EPrescriptionListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForPharmacy(ctx, pharmacyId, args);
  }

  @Query(() => EPrescription, { nullable: true })
  ePrescription(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => EPrescription, { description: 'Transmit to the pharmacy' })
  transmitEPrescription(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.transmit(ctx, id);
  }

  @Mutation(() => EPrescription, { description: 'Mark as dispensed (pharmacists of the pharmacy)' })
  dispenseEPrescription(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.dispense(ctx, id);
  }

  @Mutation(() => EPrescription, { description: 'Request a refill (the patient or their clinicians); uses one of the refills remaining' })
  refillEPrescription(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.refill(ctx, id);
  }

  @FieldResolver(() => Prescription, { description: 'What is prescribed' })
  prescription(@Root() ep: EPrescription, @Ctx() ctx: SubgraphContext) {
    return this.service.prescriptionOf(ctx, ep);
  }
}
