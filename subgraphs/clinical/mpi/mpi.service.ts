import { randomUUID } from 'node:crypto';
import type { FilterQuery } from '@mikro-orm/core';
import { auditChange, auditRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { requirePlatformPermission } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { toFhirPatient, type FhirResource } from '../interop/fhir';
import { Patient } from '../patients/patient.entity';
import {
  classify,
  compare,
  matchParameters,
  possibleTwins,
  toMatchRecord,
  type Comparison,
  type MatchParameters,
  type MatchRecord,
} from './matcher';
import { blockedCandidates, indexPatients, matchRecordOf, patientMatchRecord, type IndexEntry } from './mpi-index';
import {
  MpiRecord,
  PATIENT_LINK,
  PatientLink,
  PatientLinkAction,
  PatientLinkEvent,
  PatientLinkOrigin,
  PatientLinkStatus,
  type MatchContribution,
} from './mpi.entity';
import { PATIENTS_LINKED, PATIENTS_UNLINKED } from './mpi.events';
import {
  MatchClassification,
  ReviewDecision,
  type LinkPatientsInput,
  type MatchCandidate,
  type MatchPatientsInput,
  type MatchResult,
  type PatientMatchListArgs,
  type ReviewPatientLinkInput,
  type UnlinkPatientsInput,
} from './mpi.types';
import type { PageArgs } from '../../../shared/model';

const WHAT = 'Patient link';
/** The matcher proposes at most this many pairs for one registration or update, best first. */
const MAX_PROPOSALS_PER_EVENT = 20;

let cached: { key: string; params: MatchParameters } | undefined;

/** matching.json with the thresholds configuration may override. */
export function mpiParameters(): MatchParameters {
  const cfg = config();
  const key = `${cfg.MPI_AUTO_LINK_THRESHOLD}:${cfg.MPI_REVIEW_THRESHOLD}`;
  if (cached?.key !== key)
    cached = { key, params: matchParameters({ autoLink: cfg.MPI_AUTO_LINK_THRESHOLD, review: cfg.MPI_REVIEW_THRESHOLD }) };
  return cached.params;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function contributionsOf(c: Comparison): MatchContribution[] {
  return c.fields.map((f) => ({
    field: snake(f.field) as MatchContribution['field'],
    outcome: f.outcome,
    similarity: f.similarity,
    weight: f.weight,
    contribution: f.contribution,
  }));
}

/** The two ids of a pair in the order they are stored. */
export const pairOf = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

/**
 * Identifiers of index entries: phone, national id, organization and MRN, and (for the MRN) those of the records
 * already linked to each. Two records agree on an identifier when their sets meet.
 */
async function identifierSets(em: EntityManager, entries: IndexEntry[]): Promise<Map<string, Set<string>>> {
  const own = (e: IndexEntry) => {
    const s = new Set<string>();
    if (e.phone) s.add(`phone:${e.phone}`);
    if (e.nationalId) s.add(`nid:${e.nationalIdCountry ?? ''}:${e.nationalId}`);
    if (e.organizationId && e.mrn) s.add(`mrn:${e.organizationId}:${e.mrn}`);
    return s;
  };
  const sets = new Map(entries.map((e) => [e.id, own(e)]));
  const ids = entries.map((e) => e.id);
  if (!ids.length) return sets;
  const links = await em.find(
    PatientLink,
    { status: PatientLinkStatus.linked, $or: [{ patientId: { $in: ids } }, { linkedPatientId: { $in: ids } }] },
    { fields: ['patientId', 'linkedPatientId'] },
  );
  if (!links.length) return sets;
  const others = new Set(links.flatMap((l) => [l.patientId, l.linkedPatientId]));
  const linkedEntries = new Map((await em.find(MpiRecord, { id: { $in: [...others] } })).map((e) => [e.id, e]));
  for (const l of links) {
    for (const [self, other] of [
      [l.patientId, l.linkedPatientId],
      [l.linkedPatientId, l.patientId],
    ]) {
      const entry = linkedEntries.get(other);
      if (sets.has(self) && entry?.organizationId && entry.mrn) sets.get(self)!.add(`mrn:${entry.organizationId}:${entry.mrn}`);
    }
  }
  return sets;
}

const meets = (a: Set<string> | undefined, b: Set<string> | undefined) => !!a && !!b && [...a].some((x) => b.has(x));

interface Scored {
  entry: IndexEntry;
  comparison: Comparison;
  twinSuspected: boolean;
}

function scoreAll(record: MatchRecord, entries: IndexEntry[], params: MatchParameters, minScore: number): Scored[] {
  return entries
    .map((entry) => {
      const other = matchRecordOf(entry);
      return { entry, comparison: compare(record, other, params), twinSuspected: possibleTwins(record, other) };
    })
    .filter((s) => s.comparison.score >= minScore)
    .sort((a, b) => b.comparison.score - a.comparison.score || a.entry.id.localeCompare(b.entry.id));
}

function recordEvent(
  em: EntityManager,
  link: PatientLink,
  action: PatientLinkAction,
  from: PatientLinkStatus | null,
  actorId: string | null,
  reason?: string | null,
) {
  em.create(PatientLinkEvent, {
    id: randomUUID(),
    link,
    action,
    fromStatus: from,
    toStatus: link.status,
    actorId,
    reason: reason ?? null,
    score: link.score ?? null,
    createdAt: clock.now(),
  });
}

function auditLink(
  ctx: Pick<SubgraphContext, 'viewer' | 'requestId' | 'ip' | 'userAgent'> & { em: EntityManager },
  action: string,
  link: PatientLink,
  details: Record<string, unknown> = {},
) {
  for (const patientId of [link.patientId, link.linkedPatientId]) {
    auditChange(ctx as SubgraphContext, {
      action,
      resourceType: 'patient_link',
      resourceId: link.id,
      patientId,
      details: { status: link.status, ...details },
    });
  }
}

function emitLinkEvent(em: EntityManager, link: PatientLink) {
  const topic = link.status === PatientLinkStatus.linked ? PATIENTS_LINKED : PATIENTS_UNLINKED;
  emitEvent(em, 'clinical', topic, { link_id: link.id, patient_id: link.patientId, linked_patient_id: link.linkedPatientId });
}

/**
 * The matcher run for one registered or updated patient (the index worker): candidates from the blocking keys,
 * scored; at or above the auto-link threshold with an agreeing identifier and no sign of twins, linked; otherwise, at
 * or above the review threshold, a candidate for review. A pair a person decided on (linked, rejected, unlinked) is
 * left as they decided; a pending one gets its new score.
 */
export async function runMatcher(
  ctx: Pick<SubgraphContext, 'viewer' | 'requestId'> & { em: EntityManager },
  patient: Patient,
  record: MatchRecord,
): Promise<{ linked: number; proposed: number }> {
  const { em } = ctx;
  const params = mpiParameters();
  const entries = await blockedCandidates(em, record, params.maxBlockedCandidates, patient.id);
  const scored = scoreAll(record, entries, params, params.thresholds.review).slice(0, MAX_PROPOSALS_PER_EVENT);
  if (!scored.length) return { linked: 0, proposed: 0 };
  const self = await em.findOneOrFail(MpiRecord, { id: patient.id });
  const sets = await identifierSets(em, [self, ...scored.map((s) => s.entry)]);
  const pairs = scored.map((s) => pairOf(patient.id, s.entry.id));
  const existing = new Map(
    (await em.find(PatientLink, { $or: pairs.map(([a, b]) => ({ patientId: a, linkedPatientId: b })) })).map((l) => [
      `${l.patientId}:${l.linkedPatientId}`,
      l,
    ]),
  );
  let linked = 0;
  let proposed = 0;
  for (const s of scored) {
    const [a, b] = pairOf(patient.id, s.entry.id);
    const identifierAgrees = meets(sets.get(patient.id), sets.get(s.entry.id));
    const found = existing.get(`${a}:${b}`);
    if (found) {
      if (found.status === PatientLinkStatus.pending_review) {
        Object.assign(found, {
          score: s.comparison.score,
          contributions: contributionsOf(s.comparison),
          identifierAgrees,
          twinSuspected: s.twinSuspected,
        });
      }
      continue;
    }
    const auto = classify(s.comparison.score, params) === 'auto_link' && identifierAgrees && !s.twinSuspected;
    const link = em.create(PatientLink, {
      patientId: a,
      linkedPatientId: b,
      status: auto ? PatientLinkStatus.linked : PatientLinkStatus.pending_review,
      origin: PatientLinkOrigin.matcher,
      score: s.comparison.score,
      contributions: contributionsOf(s.comparison),
      identifierAgrees,
      twinSuspected: s.twinSuspected,
      decidedAt: auto ? clock.now() : null,
    });
    recordEvent(em, link, auto ? PatientLinkAction.auto_linked : PatientLinkAction.proposed, null, null);
    auditLink(ctx, auto ? 'auto_link' : 'propose', link, { score: link.score });
    if (auto) {
      emitLinkEvent(em, link);
      linked++;
    } else proposed++;
  }
  return { linked, proposed };
}

export class MpiService {
  private requireMpi(ctx: SubgraphContext) {
    return requirePlatformPermission(ctx.viewer, 'mpi:manage');
  }

  private async patient(ctx: SubgraphContext, id: string, field?: string): Promise<Patient> {
    const patient = isUuid(id) ? await ctx.em.findOne(Patient, { id }) : null;
    if (!patient) throw field ? errors.notFound(`Patient ${field}`) : errors.notFound('Patient');
    return patient;
  }

  async match(ctx: SubgraphContext, input: MatchPatientsInput): Promise<MatchResult> {
    this.requireMpi(ctx);
    const params = mpiParameters();
    let record: MatchRecord;
    let self: IndexEntry | null = null;
    if (input.patientId) {
      const patient = await this.patient(ctx, input.patientId);
      if (patient.erasedAt) throw errors.notFound('Patient');
      record = patientMatchRecord(patient);
      self =
        (await ctx.em.findOne(MpiRecord, { id: patient.id })) ??
        Object.assign(new MpiRecord(), { id: patient.id, ...record, organizationId: patient.organizationId, mrn: patient.mrn });
    } else {
      const missing: FieldIssue[] = (['firstName', 'lastName', 'dateOfBirth'] as const)
        .filter((f) => !input[f]?.trim())
        .map((field) => ({ field, message: 'is required (or give patientId)' }));
      if (input.nationalId && !input.nationalIdCountry)
        missing.push({ field: 'nationalIdCountry', message: 'is required with nationalId' });
      if (missing.length) throw errors.validation(missing);
      record = toMatchRecord({
        firstName: input.firstName!,
        lastName: input.lastName!,
        dateOfBirth: input.dateOfBirth!,
        gender: input.gender,
        phone: input.phone,
        nationalId: input.nationalId,
        nationalIdCountry: input.nationalIdCountry,
      });
      self = Object.assign(new MpiRecord(), { id: randomUUID(), ...record });
    }
    const entries = await blockedCandidates(ctx.em, record, params.maxBlockedCandidates, input.patientId);
    const top = scoreAll(record, entries, params, input.minScore ?? params.thresholds.review).slice(0, input.limit ?? 10);
    const ids = top.map((s) => s.entry.id);
    const patients = new Map(ids.length ? (await ctx.em.find(Patient, { id: { $in: ids } })).map((p) => [p.id, p]) : []);
    const sets = await identifierSets(ctx.em, [self, ...top.map((s) => s.entry)]);
    const links = new Map<string, PatientLink>();
    if (input.patientId && ids.length) {
      const pairs = ids.map((id) => pairOf(input.patientId!, id));
      for (const l of await ctx.em.find(PatientLink, { $or: pairs.map(([a, b]) => ({ patientId: a, linkedPatientId: b })) })) {
        links.set(l.patientId === input.patientId ? l.linkedPatientId : l.patientId, l);
      }
    }
    const candidates: MatchCandidate[] = top
      // An erased patient may stay in the index until the worker or the sweep drops it: never shown.
      .filter((s) => patients.has(s.entry.id) && !patients.get(s.entry.id)!.erasedAt)
      .map((s) => ({
        patientId: s.entry.id,
        patient: patients.get(s.entry.id)!,
        score: s.comparison.score,
        classification: classify(s.comparison.score, params) as MatchClassification,
        contributions: contributionsOf(s.comparison),
        identifierAgrees: meets(sets.get(self!.id), sets.get(s.entry.id)),
        twinSuspected: s.twinSuspected,
        link: links.get(s.entry.id) ?? null,
      }));
    auditRead(
      ctx,
      candidates.map((c) => ({
        action: 'match',
        resourceType: 'patient',
        resourceId: c.patientId,
        patientId: c.patientId,
        organizationId: c.patient.organizationId,
        details: { score: c.score },
      })),
    );
    return {
      candidates,
      autoLinkThreshold: params.thresholds.autoLink,
      reviewThreshold: params.thresholds.review,
      compared: entries.length,
    };
  }

  /** Two existing, different patients, and their pair's link if one was recorded. */
  private async pair(ctx: SubgraphContext, input: { patientId: string; linkedPatientId: string }) {
    if (input.patientId === input.linkedPatientId)
      throw errors.invalidField('linkedPatientId', 'must be another patient: a patient is never linked to itself');
    const [first, second] = await Promise.all([this.patient(ctx, input.patientId), this.patient(ctx, input.linkedPatientId)]);
    const [a, b] = pairOf(first.id, second.id);
    const existing = await ctx.em.findOne(PatientLink, { patientId: a, linkedPatientId: b });
    const ab = first.id === a ? [first, second] : [second, first];
    const comparison = compare(patientMatchRecord(ab[0]), patientMatchRecord(ab[1]), mpiParameters());
    const entries = await ctx.em.find(MpiRecord, { id: { $in: [a, b] } });
    const sets = await identifierSets(
      ctx.em,
      entries.length === 2
        ? entries
        : [a, b].map((id) => {
            const p = ab[id === a ? 0 : 1];
            return Object.assign(new MpiRecord(), { id, ...patientMatchRecord(p), organizationId: p.organizationId, mrn: p.mrn });
          }),
    );
    return {
      a,
      b,
      existing,
      scoring: {
        score: comparison.score,
        contributions: contributionsOf(comparison),
        identifierAgrees: meets(sets.get(a), sets.get(b)),
        twinSuspected: possibleTwins(patientMatchRecord(ab[0]), patientMatchRecord(ab[1])),
      },
    };
  }

  /** A person proposes a pair for review (a suspected duplicate); a pair already decided or waiting is a CONFLICT. */
  async propose(ctx: SubgraphContext, input: LinkPatientsInput): Promise<PatientLink> {
    const viewer = this.requireMpi(ctx);
    const { a, b, existing, scoring } = await this.pair(ctx, input);
    let link: PatientLink;
    if (existing) {
      if (existing.status === PatientLinkStatus.pending_review)
        throw errors.duplicate('These records are already a candidate waiting for review');
      if (existing.status === PatientLinkStatus.linked) throw errors.duplicate('These records are already linked');
      const from = existing.status;
      existing.status = PATIENT_LINK.next(existing.status, 'propose');
      Object.assign(existing, scoring, {
        proposedBy: viewer.userId,
        decidedBy: null,
        decidedAt: null,
        reason: input.reason?.trim() || null,
      });
      link = existing;
      recordEvent(ctx.em, link, PatientLinkAction.proposed, from, viewer.userId, input.reason);
    } else {
      link = ctx.em.create(PatientLink, {
        patientId: a,
        linkedPatientId: b,
        status: PatientLinkStatus.pending_review,
        origin: PatientLinkOrigin.person,
        ...scoring,
        proposedBy: viewer.userId,
        reason: input.reason?.trim() || null,
      });
      recordEvent(ctx.em, link, PatientLinkAction.proposed, null, viewer.userId, input.reason);
    }
    auditLink(ctx, 'propose', link);
    await ctx.em.flush();
    return link;
  }

  /** A person links two records directly; linking a linked pair again answers the link as it is. */
  async link(ctx: SubgraphContext, input: LinkPatientsInput): Promise<PatientLink> {
    const viewer = this.requireMpi(ctx);
    const { a, b, existing, scoring } = await this.pair(ctx, input);
    if (existing?.status === PatientLinkStatus.linked) return existing;
    const reason = input.reason?.trim() || null;
    let link: PatientLink;
    if (existing) {
      const from = existing.status;
      existing.status = PATIENT_LINK.next(existing.status, 'link');
      Object.assign(existing, { ...scoring, decidedBy: viewer.userId, decidedAt: clock.now(), reason });
      link = existing;
      recordEvent(ctx.em, link, PatientLinkAction.linked, from, viewer.userId, reason);
    } else {
      link = ctx.em.create(PatientLink, {
        patientId: a,
        linkedPatientId: b,
        status: PatientLinkStatus.linked,
        origin: PatientLinkOrigin.person,
        ...scoring,
        proposedBy: viewer.userId,
        decidedBy: viewer.userId,
        decidedAt: clock.now(),
        reason,
      });
      recordEvent(ctx.em, link, PatientLinkAction.linked, null, viewer.userId, reason);
    }
    auditLink(ctx, 'link', link);
    emitLinkEvent(ctx.em, link);
    await ctx.em.flush();
    return link;
  }

  private async load(ctx: SubgraphContext, id: string): Promise<PatientLink> {
    const link = isUuid(id) ? await ctx.em.findOne(PatientLink, { id }) : null;
    if (!link) throw errors.notFound(WHAT);
    return link;
  }

  async review(ctx: SubgraphContext, id: string, input: ReviewPatientLinkInput): Promise<PatientLink> {
    const viewer = this.requireMpi(ctx);
    const link = await this.load(ctx, id);
    const reason = input.reason?.trim() || null;
    if (input.decision === ReviewDecision.reject && !reason) throw errors.invalidField('reason', 'is required to reject');
    const from = link.status;
    link.status = PATIENT_LINK.next(link.status, input.decision);
    Object.assign(link, { decidedBy: viewer.userId, decidedAt: clock.now(), reason });
    recordEvent(
      ctx.em,
      link,
      input.decision === ReviewDecision.approve ? PatientLinkAction.approved : PatientLinkAction.rejected,
      from,
      viewer.userId,
      reason,
    );
    auditLink(ctx, input.decision, link);
    if (link.status === PatientLinkStatus.linked) emitLinkEvent(ctx.em, link);
    await ctx.em.flush();
    return link;
  }

  async unlink(ctx: SubgraphContext, id: string, input: UnlinkPatientsInput): Promise<PatientLink> {
    const viewer = this.requireMpi(ctx);
    const link = await this.load(ctx, id);
    const reason = input.reason.trim();
    link.status = PATIENT_LINK.next(link.status, 'unlink');
    Object.assign(link, { decidedBy: viewer.userId, decidedAt: clock.now(), reason });
    recordEvent(ctx.em, link, PatientLinkAction.unlinked, PatientLinkStatus.linked, viewer.userId, reason);
    auditLink(ctx, 'unlink', link);
    emitLinkEvent(ctx.em, link);
    await ctx.em.flush();
    return link;
  }

  /** The records linked to a patient (directly), newest first. */
  async linksOf(ctx: SubgraphContext, patientId: string, args: PageArgs): Promise<PageResult<PatientLink>> {
    this.requireMpi(ctx);
    const patient = await this.patient(ctx, patientId);
    return paginate(
      ctx.em,
      PatientLink,
      { status: PatientLinkStatus.linked, $or: [{ patientId: patient.id }, { linkedPatientId: patient.id }] },
      args,
      { decidedAt: 'desc', id: 'asc' },
    );
  }

  /** Candidates waiting for review, best score first. */
  async candidates(ctx: SubgraphContext, args: PageArgs): Promise<PageResult<PatientLink>> {
    this.requireMpi(ctx);
    return paginate(ctx.em, PatientLink, { status: PatientLinkStatus.pending_review }, args, {
      score: 'desc nulls last',
      createdAt: 'asc',
      id: 'asc',
    } as never);
  }

  async matches(ctx: SubgraphContext, args: PatientMatchListArgs): Promise<PageResult<PatientLink>> {
    this.requireMpi(ctx);
    const where: FilterQuery<PatientLink>[] = [];
    if (args.status) where.push({ status: args.status });
    if (args.patientId) {
      if (!isUuid(args.patientId)) return { items: [], total: 0, page: args.page, limit: args.limit };
      where.push({ $or: [{ patientId: args.patientId }, { linkedPatientId: args.patientId }] });
    }
    return paginate(ctx.em, PatientLink, where.length ? { $and: where } : {}, args, { updatedAt: 'desc', id: 'asc' });
  }

  async get(ctx: SubgraphContext, id: string): Promise<PatientLink> {
    this.requireMpi(ctx);
    return this.load(ctx, id);
  }

  history(ctx: SubgraphContext, link: PatientLink): Promise<PatientLinkEvent[]> {
    return ctx.em.find(PatientLinkEvent, { link: link.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /** The patient as a FHIR R4 Patient, with `link` to the records linked to it. */
  async fhirPatient(ctx: SubgraphContext, id: string): Promise<FhirResource> {
    this.requireMpi(ctx);
    const patient = await this.patient(ctx, id);
    const resource = toFhirPatient(patient, await linkedPatientIds(ctx.em, patient.id));
    auditRead(ctx, {
      action: 'read',
      resourceType: 'patient',
      resourceId: patient.id,
      patientId: patient.id,
      organizationId: patient.organizationId,
      details: { format: 'fhir' },
    });
    return resource;
  }
}

/** The ids of the records linked to a patient (directly). */
export async function linkedPatientIds(em: EntityManager, patientId: string): Promise<string[]> {
  const links = await em.find(
    PatientLink,
    { status: PatientLinkStatus.linked, $or: [{ patientId }, { linkedPatientId: patientId }] },
    { orderBy: { createdAt: 'asc' }, fields: ['patientId', 'linkedPatientId'] },
  );
  return links.map((l) => (l.patientId === patientId ? l.linkedPatientId : l.patientId));
}

export { indexPatients };
