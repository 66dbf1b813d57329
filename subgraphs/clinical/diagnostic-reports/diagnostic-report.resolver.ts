import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { DiagnosticReport } from './diagnostic-report.entity';
import { DiagnosticReportService } from './diagnostic-report.service';
import {
  CreateDiagnosticReportInput,
  DiagnosticReportListArgs,
  DiagnosticReportPage,
  UpdateDiagnosticReportInput,
} from './diagnostic-report.types';

/** `patient { diagnosticReports }`: the newest diagnostic reports, batched across patients. */
@Resolver(() => Patient)
export class PatientDiagnosticReportsResolver {
  @FieldResolver(() => [DiagnosticReport], {
    nullable: true,
    description: 'Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  diagnosticReports(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, DiagnosticReport, patient, {
      limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE),
      resourceType: 'diagnostic_report',
    });
  }
}

@Resolver(() => DiagnosticReport)
export class DiagnosticReportResolver {
  private readonly service = new DiagnosticReportService();

  @Mutation(() => DiagnosticReport, { description: "Write a patient's diagnostic report; it is preliminary until a doctor signs it" })
  createDiagnosticReport(@Arg('input') input: CreateDiagnosticReportInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => DiagnosticReportPage, {
    description: "Diagnostic reports of one patient, or of the caller's organizations and own profiles; newest first",
  })
  diagnosticReports(@Args() args: DiagnosticReportListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => DiagnosticReport, { nullable: true })
  diagnosticReport(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => DiagnosticReport, { description: 'Change a preliminary report; a final one cannot be changed' })
  updateDiagnosticReport(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateDiagnosticReportInput, @Ctx() ctx: SubgraphContext) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => DiagnosticReport, {
    description: 'Sign a preliminary report, making it final (doctors only); an active service request it answers is completed',
  })
  signDiagnosticReport(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.sign(ctx, id);
  }
}
