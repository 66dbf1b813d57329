import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { errors } from '../../../shared/errors';
import { PageArgs, paginate } from '../../../shared/model';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import { OrganizationRef, ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { loadPatient } from '../access/patient-access';
import { Patient } from '../patients/patient.entity';
import { NotifiableCase } from './case.entity';
import { CaseService, diseaseView } from './case.service';
import {
  CaseListArgs,
  DashboardArgs,
  DashboardCell,
  OrganizationCount,
  ReportsysSkipped,
  NotifiableCasePage,
  NotifiableDisease,
  NotifiableDiseasePage,
  PublicHealthDashboard,
  ReportCaseInput,
  ReportsysArgs,
  ReportsysExport,
  ReportsysPushResult,
  ReportsysSubmissionPage,
  SubmissionListArgs,
} from './case.types';
import { diseaseByCode } from './diseases';
import { ReportsysSubmission } from './reportsys.entity';
import { caseReport, pushReport } from './reportsys.service';

@Resolver(() => NotifiableCase)
export class NotifiableCaseResolver {
  private readonly service = new CaseService();

  @Mutation(() => NotifiableCase, {
    description:
      "Report a notifiable case (clinicians of the patient's organization). A repeat report of the same patient and disease within the incubation window is linked to the case, not counted again",
  })
  reportNotifiableCase(@Arg('input', { description: 'The case' }) input: ReportCaseInput, @Ctx() ctx: SubgraphContext) {
    return this.service.report(ctx, input);
  }

  @Query(() => NotifiableCasePage, {
    description: "Notifiable case reports the caller may read: a patient's, or their organizations' (all for public health administrators)",
  })
  notifiableCases(@Args() args: CaseListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => NotifiableCase, { nullable: true, description: 'A notifiable case report' })
  notifiableCase(@Arg('id', () => ID, { description: 'The report id' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @FieldResolver(() => NotifiableDisease, { description: 'The disease of the notifiable list' })
  disease(@Root() report: NotifiableCase): NotifiableDisease {
    const disease = diseaseByCode(report.diseaseCode);
    if (!disease) throw errors.notFound('Notifiable disease');
    return diseaseView(disease);
  }

  @FieldResolver(() => NotifiableCase, { nullable: true, description: 'The first report of the case, when this one repeats it' })
  primaryCase(@Root() report: NotifiableCase, @Ctx() ctx: SubgraphContext) {
    return this.service.primaryOf(ctx, report);
  }

  @FieldResolver(() => Patient, { description: 'The patient' })
  patient(@Root() report: NotifiableCase, @Ctx() ctx: SubgraphContext) {
    return loadPatient(ctx, report.patientId);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The reporting organization' })
  organization(@Root() report: NotifiableCase) {
    return ref(report.organizationId);
  }
}

@Resolver()
export class PublicHealthResolver {
  private readonly cases = new CaseService();

  @Query(() => NotifiableDiseasePage, { description: 'The notifiable diseases and their ICD-10 codes (any signed-in caller)' })
  notifiableDiseases(@Args() args: PageArgs, @Ctx() ctx: SubgraphContext) {
    const all = this.cases.diseases(ctx);
    return {
      items: all.slice((args.page - 1) * args.limit, args.page * args.limit),
      total: all.length,
      page: args.page,
      limit: args.limit,
    };
  }

  @RequiresPlatformPermission('public-health')
  @Query(() => PublicHealthDashboard, {
    description: 'Notifiable cases by disease, week, organization and classification (public health administrators)',
  })
  publicHealthDashboard(@Args() args: DashboardArgs, @Ctx() ctx: SubgraphContext) {
    return this.cases.dashboard(ctx, args);
  }

  @RequiresPlatformPermission('public-health')
  @Query(() => ReportsysExport, {
    description: 'Notifiable case counts of a period as DHIS2 dataValueSets, from the reporting mapping (public health administrators)',
  })
  reportsysExport(@Args() args: ReportsysArgs, @Ctx() ctx: SubgraphContext) {
    return caseReport(ctx, args);
  }

  @RequiresPlatformPermission('public-health')
  @Mutation(() => ReportsysPushResult, {
    description:
      'Post the case counts of a period to the aggregate reporting system and keep its import summary; the same period again updates',
  })
  async pushReportsys(@Args() args: ReportsysArgs, @Ctx() ctx: SubgraphContext) {
    const report = await caseReport(ctx, args);
    return pushReport(ctx, report);
  }

  @RequiresPlatformPermission('public-health')
  @Query(() => ReportsysSubmissionPage, {
    description: 'What was pushed to the aggregate reporting system, latest first (public health administrators)',
  })
  reportsysSubmissions(@Args() args: SubmissionListArgs, @Ctx() ctx: SubgraphContext) {
    return paginate(
      ctx.em,
      ReportsysSubmission,
      { ...(args.kind ? { kind: args.kind } : {}), ...(args.period ? { period: args.period } : {}) },
      args,
      {
        pushedAt: 'desc',
        id: 'asc',
      },
    );
  }
}

/** The organization object beside each `organizationId` of the public health types (owned by org). */
@Resolver(() => OrganizationCount)
export class OrganizationCountResolver {
  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization' })
  organization(@Root() row: OrganizationCount) {
    return ref(row.organizationId);
  }
}

@Resolver(() => DashboardCell)
export class DashboardCellResolver {
  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization' })
  organization(@Root() row: DashboardCell) {
    return ref(row.organizationId);
  }
}

@Resolver(() => ReportsysSkipped)
export class ReportsysSkippedResolver {
  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization' })
  organization(@Root() row: ReportsysSkipped) {
    return ref(row.organizationId);
  }
}

@Resolver(() => ReportsysSubmission)
export class ReportsysSubmissionResolver {
  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization the org unit stands for' })
  organization(@Root() row: ReportsysSubmission) {
    return ref(row.organizationId);
  }
}
