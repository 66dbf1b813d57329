import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { EPrescription, Prescription } from './prescription.entity';
import { EPrescriptionService, PrescriptionService } from './prescription.service';
import {
  EPrescriptionConnection,
  CancelPrescriptionArgs,
  CreateEPrescriptionInput,
  CreatePrescriptionInput,
  EPrescriptionListArgs,
  EPrescriptionPage,
  PrescriptionListArgs,
  PrescriptionPage,
  UpdatePrescriptionInput,
  PrescriptionConnection,
} from './prescription.types';

const PRESCRIPTION_LIST = patientList('prescription', Prescription, { sortColumn: 'created_at' });
const E_PRESCRIPTION_LIST = patientList('eprescription', EPrescription, { sortColumn: 'created_at' });

/** `patient { prescriptions }`: the newest prescriptions, batched across patients. */
@Resolver(() => Patient)
export class PatientPrescriptionsResolver {
  @FieldResolver(() => PrescriptionConnection, {
    nullable: true,
    description: 'Prescriptions, newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  prescriptions(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, PRESCRIPTION_LIST, patient, args);
  }

  @FieldResolver(() => EPrescriptionConnection, {
    nullable: true,
    description:
      'Electronic prescriptions sent to pharmacies, newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  ePrescriptions(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, E_PRESCRIPTION_LIST, patient, args);
  }
}

@Resolver(() => Prescription)
export class PrescriptionResolver {
  private readonly service = new PrescriptionService();

  @Mutation(() => Prescription, { description: "Write a draft prescription (clinicians of the patient's organization)" })
  createPrescription(
    @Arg('input', { description: 'The fields of the new prescription' }) input: CreatePrescriptionInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => PrescriptionPage, {
    description: "A patient's prescriptions (patientId), or those of my organizations and mine as a patient",
  })
  prescriptions(@Args() args: PrescriptionListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => Prescription, { nullable: true, description: 'A prescription; NOT_FOUND when missing or not readable' })
  prescription(@Arg('id', () => ID, { description: 'The prescription' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => Prescription, { description: 'Change a draft; a signed or cancelled prescription cannot be edited' })
  updatePrescription(
    @Arg('id', () => ID, { description: 'The prescription' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdatePrescriptionInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Prescription, { description: 'Sign a draft (doctors only)' })
  signPrescription(@Arg('id', () => ID, { description: 'The prescription' }) id: string, @Ctx() ctx: SubgraphContext) {
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
  createEPrescription(
    @Arg('input', { description: 'The fields of the new e-prescription' }) input: CreateEPrescriptionInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => EPrescriptionPage, { description: "A patient's e-prescriptions, newest first" })
  patientEPrescriptions(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: EPrescriptionListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForPatient(ctx, patientId, args);
  }

  @Query(() => EPrescriptionPage, { description: 'E-prescriptions sent to a pharmacy (its members)' })
  pharmacyEPrescriptions(
    @Arg('pharmacyId', () => ID, { description: 'The pharmacy (an organization)' }) pharmacyId: string,
    @Args() args: EPrescriptionListArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForPharmacy(ctx, pharmacyId, args);
  }

  @Query(() => EPrescription, {
    nullable: true,
    description: 'An e-prescription sent to a pharmacy, for its prescriber, patient or pharmacy; NOT_FOUND otherwise',
  })
  ePrescription(@Arg('id', () => ID, { description: 'The e-prescription' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => EPrescription, { description: 'Transmit to the pharmacy' })
  transmitEPrescription(@Arg('id', () => ID, { description: 'The e-prescription' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.transmit(ctx, id);
  }

  @Mutation(() => EPrescription, { description: 'Mark as dispensed (pharmacists of the pharmacy)' })
  dispenseEPrescription(@Arg('id', () => ID, { description: 'The e-prescription' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.dispense(ctx, id);
  }

  @Mutation(() => EPrescription, { description: 'Request a refill (the patient or their clinicians); uses one of the refills remaining' })
  refillEPrescription(@Arg('id', () => ID, { description: 'The e-prescription' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.refill(ctx, id);
  }

  @FieldResolver(() => Prescription, { description: 'What is prescribed' })
  prescription(@Root() ep: EPrescription, @Ctx() ctx: SubgraphContext) {
    return this.service.prescriptionOf(ctx, ep);
  }
}
