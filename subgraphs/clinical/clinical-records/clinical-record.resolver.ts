import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE, PageArgs } from '../../../shared/model';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import type { SubgraphContext } from '../../../shared/subgraph';
import { ClinicalRecord, ClinicalRecordVersion } from './clinical-record.entity';
import { ClinicalRecordService } from './clinical-record.service';
import { AuditEventPage, ClinicalRecordPage, CreateClinicalRecordInput, UpdateClinicalRecordInput } from './clinical-record.types';

/** `patient { clinicalRecords }`: the newest records, batched across patients. */
@Resolver(() => Patient)
export class PatientClinicalRecordsResolver {
  @FieldResolver(() => [ClinicalRecord], {
    nullable: true,
    description: 'Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  clinicalRecords(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, ClinicalRecord, patient, {
      limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE),
      resourceType: 'clinical_record',
      where: 'deleted_at is null',
    });
  }
}

@Resolver(() => ClinicalRecord)
export class ClinicalRecordResolver {
  private readonly service = new ClinicalRecordService();

  @Mutation(() => ClinicalRecord, { description: 'Record an encounter with a patient (clinicians of its organization)' })
  createClinicalRecord(@Arg('input') input: CreateClinicalRecordInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => ClinicalRecordPage, { description: 'Records the caller wrote, and records about the caller as a patient' })
  myClinicalRecords(@Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.mine(ctx, args);
  }

  @Query(() => ClinicalRecordPage)
  patientClinicalRecords(@Arg('patientId', () => ID) patientId: string, @Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listForPatient(ctx, patientId, args);
  }

  @Query(() => ClinicalRecord, { nullable: true })
  clinicalRecord(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => ClinicalRecord, { description: 'Change a record; the previous text stays as a version' })
  updateClinicalRecord(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateClinicalRecordInput, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => ClinicalRecord, { description: 'Delete a record: hidden from lists and reads, kept with its versions' })
  deleteClinicalRecord(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.delete(ctx, id);
  }

  @Query(() => AuditEventPage, { description: 'Who read or changed a record and when' })
  clinicalRecordAudit(@Arg('id', () => ID) id: string, @Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.auditTrail(ctx, id, args);
  }

  @FieldResolver(() => [ClinicalRecordVersion])
  versions(@Root() record: ClinicalRecord, @Ctx() ctx: SubgraphContext) {
    return this.service.versions(ctx, record);
  }
}
