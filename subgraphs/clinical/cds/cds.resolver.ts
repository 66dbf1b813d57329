import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireViewer } from '../../../shared/permissions';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import { Public } from '../../../shared/public';
import type { SubgraphContext } from '../../../shared/subgraph';
import { loadPatient } from '../access/patient-access';
import { Patient } from '../patients/patient.entity';
import { Vital } from '../vitals/vital.entity';
import { AdverseEventService } from './adverse-event.service';
import { AdverseEvent, DrugInteractionRule, type News2RiskBand } from './cds.entity';
import { CdsHookRequestInput, CdsHookResponse, CdsServiceDiscovery } from './cds-hooks.types';
import { CdsHooksService } from './cds-hooks.service';
import {
  AdverseEventListArgs,
  AdverseEventPage,
  CalculateEarlyWarningScoreInput,
  DrugInteractionCheck,
  DrugInteractionCheckInput,
  DrugInteractionRuleListArgs,
  DrugInteractionRulePage,
  DrugInteractionUpsert,
  News2Score,
  PanicValueCheck,
  PanicValueCheckInput,
  PatientRisk,
  ReportAdverseEventInput,
  UpsertDrugInteractionInput,
  VitalNews2,
} from './cds.types';
import { EarlyWarningService } from './early-warning.service';
import { InteractionService } from './interaction.service';
import { sideName } from './medication-context';
import { news2OfRecord } from './news2';
import { PANIC_SOURCE, checkPanic } from './panic';
import { PatientRiskService } from './patient-risk.service';

@Resolver(() => DrugInteractionRule)
export class DrugInteractionResolver {
  private readonly service = new InteractionService();

  @Query(() => DrugInteractionCheck, {
    description:
      "Check medications for drug-drug interactions; with patientId, also against the patient's active allergies (any signed-in user; the patient's data needs read access)",
  })
  drugInteractionCheck(
    @Arg('input', { description: 'The medications, and optionally the patient' }) input: DrugInteractionCheckInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.check(ctx, input);
  }

  @RequiresPlatformPermission('cds:knowledge')
  @Mutation(() => DrugInteractionUpsert, {
    description: 'Add an interaction rule, or replace the rule of the same pair (SUPER:ADMIN, APP:ADMIN); the next check uses it',
  })
  upsertDrugInteraction(@Arg('input', { description: 'The rule' }) input: UpsertDrugInteractionInput, @Ctx() ctx: SubgraphContext) {
    return this.service.upsert(ctx, input);
  }

  @Query(() => DrugInteractionRulePage, { description: 'The interaction rules, by pair (any signed-in user)' })
  drugInteractionRules(@Args() args: DrugInteractionRuleListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @FieldResolver(() => String, { description: 'What side A names: the ingredient, or the class described' })
  sideAName(@Root() rule: DrugInteractionRule) {
    return sideName(rule.sideA);
  }

  @FieldResolver(() => String, { description: 'What side B names: the ingredient, or the class described' })
  sideBName(@Root() rule: DrugInteractionRule) {
    return sideName(rule.sideB);
  }
}

@Resolver(() => News2Score)
export class EarlyWarningResolver {
  private readonly service = new EarlyWarningService();

  @Mutation(() => News2Score, {
    description:
      "Calculate NEWS2 (RCP 2017). With patientId: the patient's latest vital signs fill what is not given, the score is kept (clinicians of the organization) and a medium or high score raises svc.cds.critical_score",
  })
  calculateEarlyWarningScore(
    @Arg('input', { description: 'The observations, and optionally the patient' }) input: CalculateEarlyWarningScoreInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.calculate(ctx, input);
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient scored' })
  patient(@Root() score: News2Score, @Ctx() ctx: SubgraphContext) {
    return score.patientId ? loadPatient(ctx, score.patientId) : null;
  }
}

@Resolver(() => PanicValueCheck)
export class PanicValueResolver {
  @Query(() => PanicValueCheck, {
    description: 'Check lab results against the critical (panic) limits the platform ships (any signed-in user)',
  })
  panicValueCheck(
    @Arg('input', { description: 'The results to check' }) input: PanicValueCheckInput,
    @Ctx() ctx: SubgraphContext,
  ): PanicValueCheck {
    requireViewer(ctx.viewer);
    const results = input.results.map((r, index) => ({ index, ...checkPanic(r) }));
    return { results, criticalCount: results.filter((r) => r.critical).length, source: PANIC_SOURCE };
  }
}

@Resolver(() => AdverseEvent)
export class AdverseEventResolver {
  private readonly service = new AdverseEventService();

  @Mutation(() => AdverseEvent, {
    description:
      "Report a suspected adverse drug reaction (clinicians of the patient's organization, or the patient); emits svc.cds.adverse_event_reported",
  })
  reportAdverseEvent(@Arg('input', { description: 'The report' }) input: ReportAdverseEventInput, @Ctx() ctx: SubgraphContext) {
    return this.service.report(ctx, input);
  }

  @Query(() => AdverseEventPage, {
    description: "Adverse event reports of one patient, or of the caller's organizations and own profiles; newest first",
  })
  adverseEvents(@Args() args: AdverseEventListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => AdverseEvent, { nullable: true, description: 'One adverse event report' })
  adverseEvent(@Arg('id', () => ID, { description: 'The report' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient' })
  patient(@Root() event: AdverseEvent, @Ctx() ctx: SubgraphContext) {
    return loadPatient(ctx, event.patientId);
  }
}

/** `Vital.news2`: computed from the record's own fields, so a list of vital signs costs no query more. */
@Resolver(() => Vital)
export class VitalNews2Resolver {
  @FieldResolver(() => VitalNews2, {
    nullable: true,
    description:
      'The NEWS2 of this record (SpO2 scale 1; consciousness not recorded counts as alert, oxygen not recorded as air); null when it lacks respiratory rate, SpO2, systolic pressure, heart rate or temperature',
  })
  news2(@Root() vital: Vital): VitalNews2 | null {
    const r = news2OfRecord(vital);
    return r && { score: r.total, risk: r.risk as News2RiskBand, redScore: r.redScore, assumed: r.assumed };
  }
}

@Resolver(() => PatientRisk)
export class PatientRiskResolver {
  private readonly service = new PatientRiskService();

  @Query(() => PatientRisk, {
    nullable: true,
    description:
      "A patient's risk from NEWS2, unreviewed critical results, interactions and allergy conflicts of active prescriptions, allergies, serious reactions and missed immunizations, with its reasons",
  })
  patientRisk(@Arg('patientId', () => ID, { description: 'The patient' }) patientId: string, @Ctx() ctx: SubgraphContext) {
    return this.service.assess(ctx, patientId);
  }

  @FieldResolver(() => Patient, { nullable: true, description: 'The patient assessed' })
  patient(@Root() risk: PatientRisk, @Ctx() ctx: SubgraphContext) {
    return loadPatient(ctx, risk.patientId);
  }
}

@Resolver(() => CdsHookResponse)
export class CdsHooksResolver {
  private readonly service = new CdsHooksService();

  @Public()
  @Query(() => CdsServiceDiscovery, { description: 'CDS Hooks discovery: the CDS services the platform offers (public)' })
  cdsServices() {
    return this.service.discovery();
  }

  @Mutation(() => CdsHookResponse, {
    description:
      'Call a CDS service with a CDS Hooks request; answers its cards. Critical cards about a patient raise svc.cds.critical_card',
  })
  invokeCdsService(
    @Arg('id', { description: 'The service id (from discovery)' }) id: string,
    @Arg('request', { description: 'The CDS Hooks request' }) request: CdsHookRequestInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.invoke(ctx, id, request);
  }
}
