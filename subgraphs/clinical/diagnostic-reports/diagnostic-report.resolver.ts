import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { DiagnosticReport } from './diagnostic-report.entity';
import { DiagnosticReportService } from './diagnostic-report.service';
import {
  CreateDiagnosticReportInput,
  DiagnosticReportListArgs,
  DiagnosticReportPage,
  UpdateDiagnosticReportInput,
  DiagnosticReportConnection,
} from './diagnostic-report.types';

const DIAGNOSTIC_REPORT_LIST = patientList('diagnostic_report', DiagnosticReport, { sortColumn: 'created_at' });

/** `patient { diagnosticReports }`: the newest diagnostic reports, batched across patients. */
@Resolver(() => Patient)
export class PatientDiagnosticReportsResolver {
  @FieldResolver(() => DiagnosticReportConnection, {
    nullable: true,
    description:
      'Diagnostic reports, newest first, by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  diagnosticReports(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, DIAGNOSTIC_REPORT_LIST, patient, args);
  }
}

@Resolver(() => DiagnosticReport)
export class DiagnosticReportResolver {
  private readonly service = new DiagnosticReportService();

  @Mutation(() => DiagnosticReport, { description: "Write a patient's diagnostic report; it is preliminary until a doctor signs it" })
  createDiagnosticReport(
    @Arg('input', { description: 'The fields of the new diagnostic report' }) input: CreateDiagnosticReportInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => DiagnosticReportPage, {
    description: "Diagnostic reports of one patient, or of the caller's organizations and own profiles; newest first",
  })
  diagnosticReports(@Args() args: DiagnosticReportListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => DiagnosticReport, { nullable: true, description: 'A diagnostic report; NOT_FOUND when missing or not readable' })
  diagnosticReport(@Arg('id', () => ID, { description: 'The diagnostic report' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => DiagnosticReport, { description: 'Change a preliminary report; a final one cannot be changed' })
  updateDiagnosticReport(
    @Arg('id', () => ID, { description: 'The diagnostic report' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateDiagnosticReportInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => DiagnosticReport, {
    description: 'Sign a preliminary report, making it final (doctors only); an active service request it answers is completed',
  })
  signDiagnosticReport(@Arg('id', () => ID, { description: 'The diagnostic report' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.sign(ctx, id);
  }
}
