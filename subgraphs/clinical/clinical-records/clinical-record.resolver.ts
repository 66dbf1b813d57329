import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { PayloadMutation } from '../../../shared/user-errors';
import type { SubgraphContext } from '../../../shared/subgraph';
import { ClinicalRecord, ClinicalRecordVersion } from './clinical-record.entity';
import { ClinicalRecordService } from './clinical-record.service';
import {
  AuditEventPage,
  ClinicalRecordPage,
  CreateClinicalRecordInput,
  UpdateClinicalRecordInput,
  UpdateClinicalRecordPayload,
  ClinicalRecordConnection,
} from './clinical-record.types';

const CLINICAL_RECORD_LIST = patientList('clinical_record', ClinicalRecord, { sortColumn: 'created_at', where: 'deleted_at is null' });

/** `patient { clinicalRecords }`: the newest records, batched across patients. */
@Resolver(() => Patient)
export class PatientClinicalRecordsResolver {
  @FieldResolver(() => ClinicalRecordConnection, {
    nullable: true,
    description: 'Clinical records, newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  clinicalRecords(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, CLINICAL_RECORD_LIST, patient, args);
  }
}

@Resolver(() => ClinicalRecord)
export class ClinicalRecordResolver {
  private readonly service = new ClinicalRecordService();

  @Mutation(() => ClinicalRecord, { description: 'Record an encounter with a patient (clinicians of its organization)' })
  createClinicalRecord(
    @Arg('input', { description: 'The fields of the new clinical record' }) input: CreateClinicalRecordInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => ClinicalRecordPage, { description: 'Records the caller wrote, and records about the caller as a patient' })
  myClinicalRecords(@Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx, args);
  }

  @Query(() => ClinicalRecordPage, { description: "A patient's clinical records, newest first, under the clinical access rules" })
  patientClinicalRecords(
    @Arg('patientId', () => ID, { description: 'The patient' }) patientId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForPatient(ctx, patientId, args);
  }

  @Query(() => ClinicalRecord, {
    nullable: true,
    description: 'A clinical record (an encounter note) with its versions; NOT_FOUND when missing, deleted or not readable',
  })
  clinicalRecord(@Arg('id', () => ID, { description: 'The clinical record' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @PayloadMutation(UpdateClinicalRecordPayload, {
    description: 'Change a record; the previous text stays as a version. A stale expectedVersion or a bad field is a user error',
  })
  updateClinicalRecord(
    @Arg('id', () => ID, { description: 'The clinical record' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateClinicalRecordInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => ClinicalRecord, {
    description: 'Mark a clinical record entered in error: kept with its versions, hidden from lists and reads',
  })
  markClinicalRecordEnteredInError(@Arg('id', () => ID, { description: 'The clinical record' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.delete(ctx, id);
  }

  @Query(() => AuditEventPage, { description: 'Who read or changed a record and when' })
  clinicalRecordAudit(
    @Arg('id', () => ID, { description: 'The clinical record' }) id: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.auditTrail(ctx, id, args);
  }

  @FieldResolver(() => [ClinicalRecordVersion])
  versions(@Root() record: ClinicalRecord, @Ctx() ctx: SubgraphContext) {
    return this.service.versions(ctx, record);
  }
}
