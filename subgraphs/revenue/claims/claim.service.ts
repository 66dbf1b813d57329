import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { formatNumber, nextCounterValue } from '../../../shared/counters';
import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import type { PayloadOf } from '../../../shared/events';
import { logger } from '../../../shared/logger';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { amountProblem, fromMinor, money, normalizeAmount, toMinor } from '../../../shared/money';
import { emitEvent } from '../../../shared/outbox';
import { canSeeOrganization, can, organizationsWith, requireOrgPermission, requireViewer } from '../../../shared/permissions';
import { requirePatientOf, type PeerCaller } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Viewer } from '../../../shared/viewer';
import { isoDate, InsurancePlan, InsurancePolicy, Payer } from '../insurance/insurance.entity';
import { CLAIM, Claim, ClaimOutcome, ClaimStatus, EligibilityCheck, FraudFlag, type ClaimItemRecord } from './claim.entity';
import { CLAIM_ADJUDICATED, CLAIM_PAID, CLAIM_SUBMITTED, type PAYER_CLAIM_RESPONSE } from './claim.events';
import {
  normalizeIcd10,
  ReconciliationStatus,
  type ClaimAnalyticsArgs,
  type ClaimDiagnosisInput,
  type ClaimItemInput,
  type ClaimListArgs,
  type CreateClaimInput,
  type FraudFlagListArgs,
  type InsurerClaimAnalytics,
  type OrganizationClaimListArgs,
  type ProviderClaimAnalytics,
  type ReconciliationArgs,
  type ReconciliationLine,
  type ReconciliationReport,
  type ReconciliationTotals,
  type UpdateClaimInput,
} from './claim.types';
import { payerAdapter } from './payer-adapter';

const SCHEMA = 'revenue';
const empty = <T>(args: { page: number; limit: number }): PageResult<T> => ({ items: [], total: 0, page: args.page, limit: args.limit });

/** Lines with their net amounts computed exactly (quantity × unit price) in the claim's currency. */
function itemsOf(items: ClaimItemInput[], currency: string): { items: ClaimItemRecord[]; total: string } {
  const issues: FieldIssue[] = items.flatMap((item, i) => {
    const problem = amountProblem(item.unitPrice, currency);
    return problem ? [{ field: `items.${i}.unitPrice`, message: problem }] : [];
  });
  if (issues.length) throw errors.validation(issues);
  let total = 0n;
  const records = items.map((item, i): ClaimItemRecord => {
    const unit = toMinor(item.unitPrice, currency, `items.${i}.unitPrice`);
    const net = unit * BigInt(item.quantity);
    total += net;
    return {
      sequence: i + 1,
      code: item.code.trim().toUpperCase(),
      codeSystem: item.codeSystem?.trim() ?? null,
      category: item.category,
      description: item.description.trim(),
      quantity: item.quantity,
      unitPrice: fromMinor(unit, currency),
      net: fromMinor(net, currency),
      servicedDate: item.servicedDate,
      approvedAmount: null,
      adjudicationReason: null,
    };
  });
  return { items: records, total: fromMinor(total, currency) };
}

function diagnosesOf(diagnoses: ClaimDiagnosisInput[]) {
  const seen = new Set<string>();
  return diagnoses.map((d, i) => {
    const code = normalizeIcd10(d.code);
    if (seen.has(code)) throw errors.invalidField(`diagnoses.${i}.code`, 'must appear once');
    seen.add(code);
    return { sequence: i + 1, code, display: d.display?.trim() ?? null };
  });
}

const MEMBERS =
  'query ClaimPractitioner($org: ID!, $page: Int!) { organizationMembers(organizationId: $org, page: $page, limit: 100) { total items { userId } } }';

/** Whether `userId` is a member of the organization, as the org subgraph tells the caller. */
async function isMember(ctx: PeerCaller, organizationId: string, userId: string): Promise<boolean> {
  for (let page = 1; page <= 50; page++) {
    const result = await ctx.peers.query('org', MEMBERS, { org: organizationId, page }, { viewer: ctx.viewer, requestId: ctx.requestId });
    if (result.errors?.length) throw new Error(`member lookup failed: ${result.errors.map((e) => e.message).join('; ')}`);
    const found = result.data?.organizationMembers as { total: number; items: { userId: string }[] } | undefined;
    if (!found) return false;
    if (found.items.some((m) => m.userId === userId)) return true;
    if (page * 100 >= found.total) return false;
  }
  return false;
}

/** The claims the viewer may read: one organization's (claims:read there), or every organization's where they hold it. */
function claimScope(viewer: Viewer, organizationId: string | null | undefined): { organizationId?: string | { $in: string[] } } | null {
  if (organizationId !== undefined && organizationId !== null) {
    if (!isUuid(organizationId)) throw errors.invalidField('organizationId', 'must be an organization id');
    requireOrgPermission(viewer, organizationId, 'claims:read');
    return { organizationId };
  }
  const orgs = organizationsWith(viewer, 'claims:read');
  if (!orgs) return {};
  return orgs.length ? { organizationId: { $in: orgs } } : null;
}

function optionalId(value: string | null | undefined, field: string, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isUuid(value)) throw errors.invalidField(field, `must be a ${what} id`);
  return value;
}

/** A day's bounds for `from`/`to` filters on submission (UTC). */
function submittedBetween(from?: string, to?: string): { $gte?: Date; $lt?: Date } | undefined {
  if (from && to && from > to) throw errors.invalidField('to', 'must not be before from');
  if (!from && !to) return undefined;
  const range: { $gte?: Date; $lt?: Date } = {};
  if (from) range.$gte = new Date(`${from}T00:00:00Z`);
  if (to) range.$lt = new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000);
  return range;
}

export class ClaimService {
  /** A draft claim (claims:write): a patient of the organization, one of their policies, ICD-10 diagnoses, priced lines. */
  async create(ctx: SubgraphContext, organizationId: string, input: CreateClaimInput): Promise<Claim> {
    if (!isUuid(organizationId)) throw errors.invalidField('organizationId', 'must be an organization id');
    const viewer = requireOrgPermission(ctx.viewer, organizationId, 'claims:write');
    const prepared = await this.prepare(ctx, organizationId, input.patientId, input);
    return ctx.em.transactional(async (em) => {
      const claim = em.create(Claim, {
        organizationId,
        number: formatNumber('CLM', await nextCounterValue(em, 'claim', organizationId)),
        patientId: input.patientId,
        ...prepared,
        notes: input.notes?.trim() ?? null,
        paidAmount: fromMinor(0n, prepared.currency),
        createdBy: viewer.userId,
      });
      return claim;
    });
  }

  /** Files a claim for an organization in one step: created and submitted to the payer. */
  async file(ctx: SubgraphContext, organizationId: string, input: CreateClaimInput): Promise<Claim> {
    const claim = await this.create(ctx, organizationId, input);
    return this.submit(ctx, claim.id);
  }

  /** Checks the policy (the patient's), currency, practitioner, diagnoses and lines of a new or changed claim. */
  private async prepare(
    ctx: SubgraphContext,
    organizationId: string,
    patientId: string,
    input: Partial<Pick<CreateClaimInput, 'policyId' | 'type' | 'currency' | 'diagnoses' | 'items'>> & { practitionerId?: string | null },
    current?: Claim,
  ) {
    if (!current) await requirePatientOf(ctx, patientId, organizationId);
    const out: Partial<Claim> = {};
    let currency = current?.currency;
    if (input.policyId !== undefined && input.policyId !== null) {
      if (!isUuid(input.policyId)) throw errors.invalidField('policyId', 'must be a policy id');
      const policy = await ctx.em.findOne(InsurancePolicy, { id: input.policyId });
      if (!policy || policy.patientId !== patientId) throw errors.invalidField('policyId', "must be one of the patient's policies");
      const plan = await ctx.em.findOneOrFail(InsurancePlan, { id: policy.planId });
      if (input.currency && input.currency !== plan.currency)
        throw errors.invalidField('currency', `must be the plan's currency (${plan.currency})`);
      if (current && current.currency !== plan.currency && !input.items) {
        throw errors.invalidField('items', `must be given again in the new plan's currency (${plan.currency})`);
      }
      Object.assign(out, { policyId: policy.id, payerId: policy.payerId, planId: plan.id, currency: plan.currency });
      currency = plan.currency;
    }
    if (input.practitionerId !== undefined) {
      if (input.practitionerId !== null) {
        if (!isUuid(input.practitionerId)) throw errors.invalidField('practitionerId', 'must be a user id');
        if (!(await isMember(ctx, organizationId, input.practitionerId)))
          throw errors.invalidField('practitionerId', 'must be a member of the organization');
      }
      out.practitionerId = input.practitionerId;
    }
    if (input.type) out.type = input.type;
    if (input.diagnoses) out.diagnoses = diagnosesOf(input.diagnoses);
    if (input.items) {
      const { items, total } = itemsOf(input.items, currency!);
      Object.assign(out, { items, totalAmount: total });
    }
    return out as Required<Pick<Claim, 'policyId' | 'payerId' | 'planId' | 'currency' | 'diagnoses' | 'items' | 'totalAmount'>> &
      Partial<Claim>;
  }

  /** Drafts only (409 once submitted); a pre-authorization answer no longer holds for changed lines and is cleared. */
  async update(ctx: SubgraphContext, id: string, input: UpdateClaimInput): Promise<Claim> {
    const found = await this.writable(ctx, id);
    CLAIM.next(found.status, 'edit');
    if (input.policyId === null) throw errors.invalidField('policyId', 'cannot be null');
    if (input.diagnoses === null) throw errors.invalidField('diagnoses', 'cannot be null');
    if (input.items === null) throw errors.invalidField('items', 'cannot be null');
    const patch = await this.prepare(ctx, found.organizationId, found.patientId, input, found);
    return ctx.em.transactional(async (em) => {
      const claim = await em.findOneOrFail(Claim, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      CLAIM.next(claim.status, 'edit');
      em.assign(claim, patch);
      if (input.notes !== undefined) claim.notes = input.notes?.trim() ?? null;
      if (input.items || input.policyId) {
        Object.assign(claim, { preauthStatus: null, preauthNumber: null, preauthReason: null, preauthAmount: null, preauthAt: null });
      }
      return claim;
    });
  }

  /** draft → submitted, once; the payer adapter takes it from the bus. */
  async submit(ctx: SubgraphContext, id: string): Promise<Claim> {
    const found = await this.writable(ctx, id);
    const viewer = ctx.viewer!;
    return ctx.em.transactional(async (em) => {
      const claim = await em.findOneOrFail(Claim, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      claim.status = CLAIM.next(claim.status, 'submit');
      claim.submittedAt = clock.now();
      claim.submittedBy = viewer.userId;
      emitEvent(em, 'revenue', CLAIM_SUBMITTED, {
        claim_id: claim.id,
        organization_id: claim.organizationId,
        patient_id: claim.patientId,
        payer_id: claim.payerId,
        policy_id: claim.policyId,
        total_amount: claim.totalAmount,
        currency: claim.currency,
        submitted_at: claim.submittedAt.toISOString(),
      });
      return claim;
    });
  }

  /** A claim the caller may read (claims:read in its organization); members without it 403, others 404. */
  async get(ctx: SubgraphContext, id: string): Promise<Claim> {
    const viewer = requireViewer(ctx.viewer);
    const claim = isUuid(id) ? await ctx.em.findOne(Claim, { id }) : null;
    if (!claim || !canSeeOrganization(viewer, claim.organizationId)) throw errors.notFound('Claim');
    if (!can(viewer, 'claims:read', claim.organizationId)) throw errors.forbidden();
    return claim;
  }

  private async writable(ctx: SubgraphContext, id: string): Promise<Claim> {
    const claim = await this.get(ctx, id);
    if (!can(ctx.viewer, 'claims:write', claim.organizationId)) throw errors.forbidden();
    return claim;
  }

  async list(ctx: SubgraphContext, args: ClaimListArgs): Promise<PageResult<Claim>> {
    const viewer = requireViewer(ctx.viewer);
    const scope = claimScope(viewer, args.organizationId);
    if (!scope) return empty(args);
    const where: FilterQuery<Claim> = { ...scope };
    const patientId = optionalId(args.patientId, 'patientId', 'patient');
    const payerId = optionalId(args.payerId, 'payerId', 'payer');
    if (patientId) where.patientId = patientId;
    if (payerId) where.payerId = payerId;
    if (args.status) where.status = args.status;
    return paginate(ctx.em, Claim, where, args);
  }

  async listForOrganization(ctx: SubgraphContext, organizationId: string, args: OrganizationClaimListArgs): Promise<PageResult<Claim>> {
    if (!isUuid(organizationId)) throw errors.notFound('Organization');
    requireOrgPermission(ctx.viewer, organizationId, 'claims:read');
    return paginate(ctx.em, Claim, { organizationId, ...(args.status ? { status: args.status } : {}) }, args);
  }

  /** Asks the payer whether the claim's policy covers its first service date, and what is used and left. */
  async checkEligibility(ctx: SubgraphContext, id: string): Promise<EligibilityCheck> {
    const claim = await this.writable(ctx, id);
    const payer = await ctx.em.findOneOrFail(Payer, { id: claim.payerId });
    const date = claim.items.map((i) => i.servicedDate).sort()[0];
    const answer = await payerAdapter(payer.adapter).checkEligibility(ctx.em, claim, date);
    const policy = await ctx.em.findOneOrFail(InsurancePolicy, { id: claim.policyId });
    const check = ctx.em.create(EligibilityCheck, {
      claimId: claim.id,
      policyId: claim.policyId,
      payerId: claim.payerId,
      planId: claim.planId,
      servicedDate: date,
      inforce: answer.inforce,
      benefitPeriodStart: policy.startDate ?? null,
      benefitPeriodEnd: policy.endDate ?? null,
      currency: claim.currency,
      coverAllowed: answer.coverAllowed,
      coverUsed: answer.coverUsed,
      coverRemaining: answer.coverRemaining,
      benefits: answer.benefits,
      disposition: answer.disposition,
      checkedBy: ctx.viewer!.userId,
    });
    await ctx.em.flush();
    return check;
  }

  /** Drafts only: the payer answers approved (with an authorization number and amount) or denied (with the reason). */
  async requestPreauthorization(ctx: SubgraphContext, id: string): Promise<Claim> {
    const found = await this.writable(ctx, id);
    CLAIM.next(found.status, 'request_preauthorization');
    const payer = await ctx.em.findOneOrFail(Payer, { id: found.payerId });
    const answer = await payerAdapter(payer.adapter).requestPreauthorization(ctx.em, found);
    return ctx.em.transactional(async (em) => {
      const claim = await em.findOneOrFail(Claim, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      CLAIM.next(claim.status, 'request_preauthorization');
      Object.assign(claim, {
        preauthStatus: answer.status,
        preauthNumber: answer.number,
        preauthAmount: answer.amount,
        preauthReason: answer.reason,
        preauthAt: clock.now(),
      });
      return claim;
    });
  }

  async fraudFlags(ctx: SubgraphContext, args: FraudFlagListArgs): Promise<PageResult<FraudFlag>> {
    const viewer = requireViewer(ctx.viewer);
    const scope = claimScope(viewer, args.organizationId);
    if (!scope) return empty(args);
    const where: FilterQuery<FraudFlag> = { ...scope } as FilterQuery<FraudFlag>;
    const claimId = optionalId(args.claimId, 'claimId', 'claim');
    if (claimId) (where as Record<string, unknown>).claimId = claimId;
    if (args.rule) (where as Record<string, unknown>).rule = args.rule;
    return paginate(ctx.em, FraudFlag, where, args);
  }

  async analyticsByInsurer(ctx: SubgraphContext, args: ClaimAnalyticsArgs): Promise<InsurerClaimAnalytics[]> {
    const rows = await this.analytics(ctx, args, 'payer_id');
    return rows.map(({ key, ...row }) => ({ ...row, payerId: key }));
  }

  async analyticsByProvider(ctx: SubgraphContext, args: ClaimAnalyticsArgs): Promise<ProviderClaimAnalytics[]> {
    const rows = await this.analytics(ctx, args, 'organization_id');
    return rows.map(({ key, ...row }) => ({ ...row, organizationId: key }));
  }

  /**
   * Counts and exact sums (PostgreSQL numeric) of the claims submitted in the period, per `group` and currency:
   * billed, approved, paid; outcomes; denial rate over adjudicated claims; average days from submission to payment.
   */
  private async analytics(ctx: SubgraphContext, args: ClaimAnalyticsArgs, group: 'payer_id' | 'organization_id') {
    const viewer = requireViewer(ctx.viewer);
    const scope = claimScope(viewer, args.organizationId);
    if (!scope) return [];
    const where = ['submitted_at is not null'];
    const params: unknown[] = [];
    if (typeof scope.organizationId === 'string') {
      where.push('organization_id = ?');
      params.push(scope.organizationId);
    } else if (scope.organizationId) {
      where.push('organization_id in (?)');
      params.push(scope.organizationId.$in);
    }
    const payerId = optionalId(args.payerId, 'payerId', 'payer');
    if (payerId) {
      where.push('payer_id = ?');
      params.push(payerId);
    }
    if (args.currency) {
      where.push('currency = ?');
      params.push(args.currency);
    }
    const range = submittedBetween(args.from, args.to);
    if (range?.$gte) {
      where.push('submitted_at >= ?');
      params.push(range.$gte);
    }
    if (range?.$lt) {
      where.push('submitted_at < ?');
      params.push(range.$lt);
    }
    const rows = await ctx.em.getConnection().execute<Record<string, string | number | null>[]>(
      `select ${group} as key, currency, count(*)::int as claims,
              sum(total_amount)::text as billed, coalesce(sum(approved_amount), 0)::text as approved, sum(paid_amount)::text as paid,
              count(*) filter (where adjudication_outcome = 'approved')::int as approved_count,
              count(*) filter (where adjudication_outcome = 'partially_approved')::int as partially_approved_count,
              count(*) filter (where adjudication_outcome = 'denied')::int as denied_count,
              count(*) filter (where status = 'paid')::int as paid_count,
              count(*) filter (where status in ('submitted', 'in_review'))::int as pending_count,
              round((avg(extract(epoch from (paid_at - submitted_at))) filter (where paid_at is not null) / 86400)::numeric, 2)::float as average_days
         from "${SCHEMA}".claims where ${where.join(' and ')}
        group by ${group}, currency order by ${group}, currency`,
      params,
    );
    return rows.map((r) => {
      const currency = String(r.currency);
      const amount = (v: unknown) => money(toMinor(normalizeAmount(String(v), currency), currency), currency);
      const adjudicated = Number(r.approved_count) + Number(r.partially_approved_count) + Number(r.denied_count);
      return {
        key: String(r.key),
        currency,
        claims: Number(r.claims),
        billed: amount(r.billed),
        approved: amount(r.approved),
        paid: amount(r.paid),
        approvedCount: Number(r.approved_count),
        partiallyApprovedCount: Number(r.partially_approved_count),
        deniedCount: Number(r.denied_count),
        paidCount: Number(r.paid_count),
        pendingCount: Number(r.pending_count),
        denialRate: adjudicated ? Math.round((Number(r.denied_count) / adjudicated) * 10_000) / 10_000 : null,
        averageDaysToPayment: r.average_days === null ? null : Number(r.average_days),
      };
    });
  }

  /**
   * Payments against claims: every submitted claim that is not denied, with what is expected (approved, or billed
   * before adjudication) and what was paid: paid, short-paid (with the difference), unpaid within the payer's
   * payment terms (counted from submission), or overdue past them.
   */
  async reconciliation(ctx: SubgraphContext, args: ReconciliationArgs): Promise<ReconciliationReport> {
    const viewer = requireViewer(ctx.viewer);
    const asOf = clock.now();
    const scope = claimScope(viewer, args.organizationId);
    const report: ReconciliationReport = { asOf, summary: [], lines: [], total: 0, page: args.page, limit: args.limit };
    if (!scope) return report;
    const where: FilterQuery<Claim> = {
      ...scope,
      status: {
        $in: [ClaimStatus.submitted, ClaimStatus.in_review, ClaimStatus.approved, ClaimStatus.partially_approved, ClaimStatus.paid],
      },
    };
    const payerId = optionalId(args.payerId, 'payerId', 'payer');
    if (payerId) where.payerId = payerId;
    const range = submittedBetween(args.from, args.to);
    if (range) where.submittedAt = range;
    const claims = await ctx.em.find(Claim, where, { orderBy: { submittedAt: 'asc', id: 'asc' } });
    const payers = new Map((await ctx.em.find(Payer, { id: { $in: [...new Set(claims.map((c) => c.payerId))] } })).map((p) => [p.id, p]));
    const today = isoDate(asOf);
    const lines = claims.map((c): ReconciliationLine => {
      const billed = toMinor(c.totalAmount, c.currency);
      const expected = c.approvedAmount !== null && c.approvedAmount !== undefined ? toMinor(c.approvedAmount, c.currency) : billed;
      const paid = toMinor(c.paidAmount, c.currency);
      const terms = payers.get(c.payerId)?.paymentTermsDays ?? 30;
      const dueOn = c.submittedAt ? isoDate(new Date(c.submittedAt.getTime() + terms * 86_400_000)) : null;
      const daysLate = dueOn && today > dueOn ? Math.round((Date.parse(today) - Date.parse(dueOn)) / 86_400_000) : 0;
      const status =
        paid > 0n && paid >= expected
          ? ReconciliationStatus.paid
          : paid > 0n
            ? ReconciliationStatus.short_paid
            : daysLate > 0
              ? ReconciliationStatus.overdue
              : ReconciliationStatus.unpaid;
      return {
        claimId: c.id,
        number: c.number,
        organizationId: c.organizationId,
        payerId: c.payerId,
        claimStatus: c.status,
        status,
        billed: money(billed, c.currency),
        expected: money(expected, c.currency),
        paid: money(paid, c.currency),
        difference: money(expected - paid, c.currency),
        submittedAt: c.submittedAt ?? null,
        dueOn,
        daysOverdue: status === ReconciliationStatus.overdue ? daysLate : null,
      };
    });
    const matching = args.status ? lines.filter((l) => l.status === args.status) : lines;
    const totals = new Map<string, { t: ReconciliationTotals; expected: bigint; paid: bigint }>();
    for (const line of matching) {
      const currency = line.expected.currencyCode;
      let entry = totals.get(currency);
      if (!entry) {
        entry = {
          t: { currency, claims: 0, paidCount: 0, shortPaidCount: 0, unpaidCount: 0, overdueCount: 0 } as ReconciliationTotals,
          expected: 0n,
          paid: 0n,
        };
        totals.set(currency, entry);
      }
      entry.t.claims++;
      entry.expected += toMinor(line.expected.amount, currency);
      entry.paid += toMinor(line.paid.amount, currency);
      const counter = { paid: 'paidCount', short_paid: 'shortPaidCount', unpaid: 'unpaidCount', overdue: 'overdueCount' } as const;
      entry.t[counter[line.status]]++;
    }
    report.summary = [...totals.values()]
      .sort((a, b) => a.t.currency.localeCompare(b.t.currency))
      .map(({ t, expected, paid }) => ({
        ...t,
        expected: money(expected, t.currency),
        paid: money(paid, t.currency),
        outstanding: money(expected - paid, t.currency),
      }));
    report.total = matching.length;
    report.lines = matching.slice((args.page - 1) * args.limit, args.page * args.limit);
    return report;
  }
}

/**
 * Applies a payer's answer to its claim, under the claim's row lock, tolerating the order answers arrive in: an
 * acknowledgement after the decision changes nothing; a decision before the acknowledgement starts the review
 * first; a payment before the decision is retried (thrown) until the decision is recorded.
 */
export async function applyPayerResponse(em: EntityManager, response: PayloadOf<typeof PAYER_CLAIM_RESPONSE>): Promise<Claim | null> {
  const claim = await em.findOne(Claim, { id: response.claim_id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!claim) {
    logger.warn({ claimId: response.claim_id }, 'payer response for an unknown claim');
    return null;
  }
  const at = new Date(response.at);
  claim.payerClaimId ??= response.payer_claim_id;
  if (claim.status === ClaimStatus.submitted && response.kind !== 'paid') {
    claim.status = CLAIM.next(claim.status, 'start_review');
    claim.reviewStartedAt = at;
  }
  if (response.kind === 'adjudicated' && claim.status === ClaimStatus.in_review) {
    const outcome = response.outcome!;
    claim.status = CLAIM.next(
      claim.status,
      outcome === 'approved' ? 'approve' : outcome === 'partially_approved' ? 'partially_approve' : 'deny',
    );
    claim.adjudicationOutcome = outcome as ClaimOutcome;
    claim.approvedAmount = normalizeAmount(response.approved_amount ?? '0', claim.currency);
    claim.adjudicationReason = response.reason ?? null;
    claim.adjudicatedAt = at;
    const byLine = new Map((response.lines ?? []).map((l) => [l.sequence, l]));
    claim.items = claim.items.map((item) => {
      const line = byLine.get(item.sequence);
      return {
        ...item,
        approvedAmount: line ? normalizeAmount(line.approved_amount, claim.currency) : fromMinor(0n, claim.currency),
        adjudicationReason: line?.reason ?? null,
      };
    });
    emitEvent(em, 'revenue', CLAIM_ADJUDICATED, {
      claim_id: claim.id,
      organization_id: claim.organizationId,
      payer_id: claim.payerId,
      outcome,
      approved_amount: claim.approvedAmount,
      currency: claim.currency,
      reason: claim.adjudicationReason ?? null,
    });
  }
  if (response.kind === 'paid') {
    if (claim.status === ClaimStatus.submitted || claim.status === ClaimStatus.in_review) {
      throw new Error(`payment for claim ${claim.id} arrived before its adjudication; retrying`);
    }
    await applyClaimPayment(
      em,
      claim,
      toMinor(normalizeAmount(response.paid_amount ?? '0', claim.currency), claim.currency),
      at,
      response.payment_reference ?? null,
    );
  }
  return claim;
}

/** Why a claim cannot take a payment, or null: it must be approved (in full or in part) or already paid, in its currency. */
export function claimPaymentProblem(claim: Claim, currency: string): { field: 'currency' | null; message: string } | null {
  if (![ClaimStatus.approved, ClaimStatus.partially_approved, ClaimStatus.paid].includes(claim.status)) {
    return { field: null, message: `Claim ${claim.number} is ${claim.status.replace('_', ' ')}: only approved claims are paid` };
  }
  if (currency !== claim.currency) return { field: 'currency', message: `must be the claim's currency (${claim.currency})` };
  return null;
}

/**
 * Records a payment against a claim (locked by the caller): the paid amount grows; the first payment moves the claim
 * to `paid` (reconciliation tells a short payment from a full one). A payer remittance and a payment recorded by
 * the organization both come here.
 */
export async function applyClaimPayment(
  em: EntityManager,
  claim: Claim,
  amount: bigint,
  at: Date,
  reference: string | null,
): Promise<Claim> {
  const problem = claimPaymentProblem(claim, claim.currency);
  if (problem) throw errors.conflict(problem.message);
  claim.paidAmount = fromMinor(toMinor(claim.paidAmount, claim.currency) + amount, claim.currency);
  claim.paymentReference = reference ?? claim.paymentReference ?? null;
  if (claim.status !== ClaimStatus.paid) {
    claim.status = CLAIM.next(claim.status, 'mark_paid');
    claim.paidAt = at;
  }
  emitEvent(em, 'revenue', CLAIM_PAID, {
    claim_id: claim.id,
    organization_id: claim.organizationId,
    payer_id: claim.payerId,
    paid_amount: claim.paidAmount,
    approved_amount: claim.approvedAmount ?? claim.totalAmount,
    currency: claim.currency,
    paid_at: at.toISOString(),
  });
  return claim;
}
