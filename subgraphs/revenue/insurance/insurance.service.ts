import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { formatNumber, nextCounterValue } from '../../../shared/counters';
import { logger } from '../../../shared/logger';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { normalizeAmount, toMinor } from '../../../shared/money';
import { emitEvent } from '../../../shared/outbox';
import { organizationsWith, requireOrgPermission, requirePlatformPermission, requireViewer } from '../../../shared/permissions';
import { ownPatientId } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin } from '../../../shared/viewer';
import { isThePatient, patientFacts } from '../invoices/patient-lookup';
import { InsurancePlan, InsurancePolicy, isoDate, Payer, POLICY, PolicyStatus, termEnd } from './insurance.entity';
import { POLICY_ACTIVATED, POLICY_ENROLLED } from './insurance.events';
import type {
  CreateInsurancePlanInput,
  CreatePayerInput,
  EnrollInPlanInput,
  InsurancePlanListArgs,
  InsurancePolicyListArgs,
  PayerListArgs,
} from './insurance.types';

const empty = <T>(args: { page: number; limit: number }): PageResult<T> => ({ items: [], total: 0, page: args.page, limit: args.limit });

export class InsuranceService {
  async createPayer(ctx: SubgraphContext, input: CreatePayerInput): Promise<Payer> {
    requirePlatformPermission(ctx.viewer, 'admin:insurance');
    if (await ctx.em.count(Payer, { code: input.code })) throw errors.duplicate(`A payer with code ${input.code} exists`);
    const payer = ctx.em.create(Payer, {
      name: input.name.trim(),
      code: input.code,
      ...(input.adapter ? { adapter: input.adapter } : {}),
      ...(input.paymentTermsDays ? { paymentTermsDays: input.paymentTermsDays } : {}),
      countryCode: input.countryCode ?? null,
    });
    await ctx.em.flush();
    return payer;
  }

  async payers(ctx: SubgraphContext, args: PayerListArgs): Promise<PageResult<Payer>> {
    requireViewer(ctx.viewer);
    return paginate(ctx.em, Payer, { active: true }, args, { name: 'asc', id: 'asc' });
  }

  /** Limits and the premium must be above zero; each benefit category appears once and fits within the cover limit. */
  async createPlan(ctx: SubgraphContext, input: CreateInsurancePlanInput): Promise<InsurancePlan> {
    requirePlatformPermission(ctx.viewer, 'admin:insurance');
    if (!isUuid(input.payerId)) throw errors.invalidField('payerId', 'must be a payer id');
    const payer = await ctx.em.findOne(Payer, { id: input.payerId });
    if (!payer) throw errors.invalidField('payerId', 'must name an existing payer');
    const { currency } = input;
    const positive = (value: string, field: string) => {
      if (toMinor(value, currency, field) <= 0n) throw errors.invalidField(field, 'must be above zero');
      return normalizeAmount(value, currency, field);
    };
    const premium = positive(input.premium, 'premium');
    const coverLimit = positive(input.coverLimit, 'coverLimit');
    const threshold =
      input.preauthorizationThreshold === undefined || input.preauthorizationThreshold === null
        ? null
        : normalizeAmount(input.preauthorizationThreshold, currency, 'preauthorizationThreshold');
    const seen = new Set<string>();
    const benefits = input.benefits.map((b, i) => {
      if (seen.has(b.category)) throw errors.invalidField(`benefits.${i}.category`, 'must appear once');
      seen.add(b.category);
      const limit = positive(b.limit, `benefits.${i}.limit`);
      if (toMinor(limit, currency) > toMinor(coverLimit, currency))
        throw errors.invalidField(`benefits.${i}.limit`, 'must not exceed the cover limit');
      return { category: b.category, limit, waitingPeriodDays: b.waitingPeriodDays ?? 0 };
    });
    const plan = ctx.em.create(InsurancePlan, {
      payerId: payer.id,
      name: input.name.trim(),
      description: input.description?.trim() ?? null,
      currency,
      premiumAmount: premium,
      termMonths: input.termMonths,
      coverLimit,
      coinsurancePercent: input.coinsurancePercent,
      waitingPeriodDays: input.waitingPeriodDays,
      preauthThreshold: threshold,
      benefits,
    });
    await ctx.em.flush();
    return plan;
  }

  /** The plans on sale, for anyone signed in. */
  async plans(ctx: SubgraphContext, args: InsurancePlanListArgs): Promise<PageResult<InsurancePlan>> {
    requireViewer(ctx.viewer);
    const where: FilterQuery<InsurancePlan> = { active: true };
    if (args.currency) where.currency = args.currency;
    if (args.payerId !== undefined && args.payerId !== null) {
      if (!isUuid(args.payerId)) throw errors.invalidField('payerId', 'must be a payer id');
      where.payerId = args.payerId;
    }
    if (args.category) where.benefits = { $contains: [{ category: args.category }] } as never;
    return paginate(ctx.em, InsurancePlan, where, args, { name: 'asc', id: 'asc' });
  }

  async plan(ctx: SubgraphContext, id: string): Promise<InsurancePlan> {
    requireViewer(ctx.viewer);
    const plan = isUuid(id) ? await ctx.em.findOne(InsurancePlan, { id }) : null;
    if (!plan) throw errors.notFound('Insurance plan');
    return plan;
  }

  /**
   * Enrolls a patient: the patient themselves, a member of the patient's organization holding `insurance:write`, or
   * a platform administrator. The policy waits for its first premium (`pending_payment`); one open policy per
   * patient and plan (409 otherwise).
   */
  async enroll(ctx: SubgraphContext, input: EnrollInPlanInput): Promise<InsurancePolicy> {
    const viewer = requireViewer(ctx.viewer);
    if (!isUuid(input.planId)) throw errors.invalidField('planId', 'must be a plan id');
    if (!isUuid(input.patientId)) throw errors.invalidField('patientId', 'must be a patient id');
    if (input.startDate && input.startDate < isoDate(clock.now())) throw errors.invalidField('startDate', 'must not be in the past');
    const plan = await ctx.em.findOne(InsurancePlan, { id: input.planId, active: true });
    if (!plan) throw errors.notFound('Insurance plan');
    const patient = await patientFacts(ctx, input.patientId);
    if (!patient) throw errors.notFound('Patient');
    if (!isThePatient(ctx, patient) && !isPlatformAdmin(viewer)) {
      if (!patient.organizationId) throw errors.forbidden('Only the patient may enroll themselves');
      requireOrgPermission(viewer, patient.organizationId, 'insurance:write', 'Patient');
    }
    const payer = await ctx.em.findOneOrFail(Payer, { id: plan.payerId });
    return ctx.em.transactional(async (em) => {
      const open = await em.findOne(InsurancePolicy, {
        patientId: patient.id,
        planId: plan.id,
        status: { $in: [PolicyStatus.pending_payment, PolicyStatus.active] },
      });
      if (open)
        throw errors.conflict(`The patient already has a ${open.status.replace('_', ' ')} policy of this plan (${open.policyNumber})`);
      const policy = em.create(InsurancePolicy, {
        policyNumber: formatNumber(payer.code, await nextCounterValue(em, 'policy', payer.id)),
        planId: plan.id,
        payerId: payer.id,
        patientId: patient.id,
        organizationId: patient.organizationId,
        currency: plan.currency,
        premiumAmount: plan.premiumAmount,
        requestedStartDate: input.startDate ?? null,
        enrolledBy: viewer.userId,
      });
      emitEvent(em, 'revenue', POLICY_ENROLLED, {
        policy_id: policy.id,
        plan_id: plan.id,
        payer_id: payer.id,
        patient_id: patient.id,
        organization_id: policy.organizationId ?? null,
        premium_amount: policy.premiumAmount,
        currency: policy.currency,
      });
      return policy;
    });
  }

  /** Who may see a policy: platform administrators, the organization's `insurance:read` members, the patient. */
  async readablePolicy(ctx: SubgraphContext, id: string): Promise<InsurancePolicy> {
    const viewer = requireViewer(ctx.viewer);
    const policy = isUuid(id) ? await ctx.em.findOne(InsurancePolicy, { id }) : null;
    if (!policy) throw errors.notFound('Insurance policy');
    if (isPlatformAdmin(viewer)) return policy;
    if (policy.organizationId && organizationsWith(viewer, 'insurance:read')?.includes(policy.organizationId)) return policy;
    if ((await ownPatientId(ctx)) === policy.patientId) return policy;
    if (policy.organizationId && viewer.memberships.some((m) => m.organizationId === policy.organizationId)) throw errors.forbidden();
    throw errors.notFound('Insurance policy');
  }

  async cancel(ctx: SubgraphContext, id: string): Promise<InsurancePolicy> {
    const found = await this.readablePolicy(ctx, id);
    const viewer = ctx.viewer!;
    const self = (await ownPatientId(ctx)) === found.patientId;
    if (!self && !isPlatformAdmin(viewer)) {
      if (!found.organizationId) throw errors.forbidden();
      requireOrgPermission(viewer, found.organizationId, 'insurance:write');
    }
    return ctx.em.transactional(async (em) => {
      const policy = await em.findOneOrFail(InsurancePolicy, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      policy.status = POLICY.next(policy.status, 'cancel');
      policy.cancelledAt = clock.now();
      return policy;
    });
  }

  /**
   * Policies the caller may see, `active` ones unless `status` says otherwise: with `organizationId` that
   * organization's (insurance:read), else those of every organization where the caller holds insurance:read and the
   * caller's own as a patient; platform administrators see all.
   */
  async policies(ctx: SubgraphContext, args: InsurancePolicyListArgs): Promise<PageResult<InsurancePolicy>> {
    const viewer = requireViewer(ctx.viewer);
    const where: FilterQuery<InsurancePolicy>[] = [];
    if (args.status) where.push({ status: args.status });
    if (args.patientId !== undefined && args.patientId !== null) {
      if (!isUuid(args.patientId)) throw errors.invalidField('patientId', 'must be a patient id');
      where.push({ patientId: args.patientId });
    }
    if (args.organizationId !== undefined && args.organizationId !== null) {
      if (!isUuid(args.organizationId)) throw errors.invalidField('organizationId', 'must be an organization id');
      requireOrgPermission(viewer, args.organizationId, 'insurance:read');
      where.push({ organizationId: args.organizationId });
    } else if (!isPlatformAdmin(viewer)) {
      const orgs = organizationsWith(viewer, 'insurance:read') ?? [];
      const own = await ownPatientId(ctx);
      const scope: FilterQuery<InsurancePolicy>[] = [
        ...(orgs.length ? [{ organizationId: { $in: orgs } }] : []),
        ...(own ? [{ patientId: own }] : []),
      ];
      if (!scope.length) return empty(args);
      where.push({ $or: scope });
    }
    return paginate(ctx.em, InsurancePolicy, where.length ? { $and: where } : {}, args);
  }
}

/**
 * The first premium is paid: the policy becomes active from the payment day (or its requested start date, if
 * later) for the plan's term. Called by the payments module in the transaction that completes the payment; a policy
 * that is no longer pending (cancelled meanwhile) is left as it is.
 */
export async function activatePolicy(
  em: EntityManager,
  policyId: string,
  paidAt: Date,
  paymentId: string | null,
): Promise<InsurancePolicy | null> {
  const policy = await em.findOne(InsurancePolicy, { id: policyId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!policy) return null;
  if (!POLICY.can(policy.status, 'activate')) {
    logger.warn({ policyId, status: policy.status }, 'a premium was paid for a policy that is not waiting for one');
    return policy;
  }
  const plan = await em.findOneOrFail(InsurancePlan, { id: policy.planId });
  const paidOn = isoDate(paidAt);
  const start = policy.requestedStartDate && policy.requestedStartDate > paidOn ? policy.requestedStartDate : paidOn;
  policy.status = POLICY.next(policy.status, 'activate');
  policy.startDate = start;
  policy.endDate = termEnd(start, plan.termMonths);
  policy.activatedAt = paidAt;
  policy.premiumPaymentId = paymentId;
  emitEvent(em, 'revenue', POLICY_ACTIVATED, {
    policy_id: policy.id,
    plan_id: policy.planId,
    patient_id: policy.patientId,
    organization_id: policy.organizationId ?? null,
    start_date: policy.startDate,
    end_date: policy.endDate,
    payment_id: paymentId,
  });
  return policy;
}
