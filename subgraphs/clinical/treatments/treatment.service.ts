import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import { errors, type FieldIssue } from '../../../shared/errors';
import { lockedChange } from '../../../shared/locked-change';
import { readableById } from '../../../shared/refs';
import { byIds, isUuid, paginate, patchFrom, type PageResult } from '../../../shared/model';
import { can, canSeeOrganization, organizationsWith, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, writableRow } from '../access/patient-rows';
import type { Patient } from '../patients/patient.entity';
import { normalizeIcd10 } from '../public-health/icd10';
import { addDays } from '../public-health/periods';
import { lockKey } from '../public-health/sql';
import {
  PATIENT_TREATMENT,
  PatientTreatment,
  PatientTreatmentStatus,
  PROTOCOL,
  ProtocolStatus,
  TreatmentProtocol,
  TreatmentProtocolVersion,
  type TreatmentStep,
} from './treatment.entity';
import {
  ProtocolDeletionOutcome,
  type AssignTreatmentInput,
  type CreateTreatmentProtocolInput,
  type PatientTreatmentListArgs,
  type ProtocolListArgs,
  type TreatmentProtocolDeletion,
  type TreatmentStepInput,
  type UpdatePatientTreatmentInput,
  type UpdateTreatmentProtocolInput,
} from './treatment.types';

const PROTOCOL_WHAT = 'Treatment protocol';
const TREATMENT_WHAT = 'Patient treatment';
const RESOURCE = 'patient_treatment';
const MAX_DAYS_AHEAD = 365;

const today = () => clock.now().toISOString().slice(0, 10);

const stepsOf = (input: TreatmentStepInput[]): TreatmentStep[] =>
  input.map((s, i) => ({
    order: i + 1,
    medication: s.medication.trim(),
    dose: s.dose.trim(),
    route: s.route?.trim() || null,
    frequency: s.frequency.trim(),
    durationDays: s.durationDays,
    instructions: s.instructions?.trim() || null,
  }));

/**
 * Who may read a protocol: anyone signed in for a protocol of the whole platform; for an organization's, its members
 * who read clinical data (an API key with the clinical scope) and platform administrators.
 */
function readsProtocol(viewer: Viewer, protocol: TreatmentProtocol): boolean {
  return !protocol.organizationId || can(viewer, 'clinical:read', protocol.organizationId);
}

/** Who may write it: `protocols:write` in its organization; platform administrators for the platform's own. */
function writesProtocol(viewer: Viewer, protocol: { organizationId?: string | null }): boolean {
  return protocol.organizationId ? can(viewer, 'protocols:write', protocol.organizationId) : isPlatformAdmin(viewer);
}

/** Treatment protocols: versioned; retired rather than deleted once a treatment uses them. */
export class TreatmentProtocolService {
  async create(ctx: SubgraphContext, input: CreateTreatmentProtocolInput): Promise<TreatmentProtocol> {
    const viewer = requireViewer(ctx.viewer);
    const issues: FieldIssue[] = [];
    const icd10 = normalizeIcd10(input.icd10Code);
    if (!icd10) issues.push({ field: 'icd10Code', message: 'must be an ICD-10 code such as B50.9' });
    const organizationId = input.organizationId ?? null;
    if (organizationId !== null && !isUuid(organizationId)) issues.push({ field: 'organizationId', message: 'must be an organization id' });
    if (organizationId === null && !isPlatformAdmin(viewer)) issues.push({ field: 'organizationId', message: 'is required' });
    if (issues.length) throw errors.validation(issues);
    if (organizationId) {
      if (!canSeeOrganization(viewer, organizationId)) throw errors.notFound('Organization');
      if (!can(viewer, 'protocols:write', organizationId))
        throw errors.forbidden("Only the organization's doctors and administrators write treatment protocols");
    }
    const name = input.name.trim();
    return ctx.em.transactional(async (em) => {
      await lockKey(em, `treatment-protocol-name:${organizationId ?? 'platform'}`);
      await this.checkNameFree(em, organizationId, name, null);
      const protocol = em.create(TreatmentProtocol, {
        organizationId,
        name,
        condition: input.condition.trim(),
        icd10Code: icd10!,
        description: input.description?.trim() || null,
        version: 1,
        steps: stepsOf(input.steps),
        createdBy: viewer.userId,
      });
      em.create(TreatmentProtocolVersion, snapshot(protocol, viewer.userId));
      return protocol;
    });
  }

  async list(ctx: SubgraphContext, args: ProtocolListArgs): Promise<PageResult<TreatmentProtocol>> {
    const viewer = requireViewer(ctx.viewer);
    const issues: FieldIssue[] = [];
    if (args.organizationId != null && !isUuid(args.organizationId))
      issues.push({ field: 'organizationId', message: 'must be an organization id' });
    const code = args.icd10Code != null ? normalizeIcd10(args.icd10Code) : null;
    if (args.icd10Code != null && !code) issues.push({ field: 'icd10Code', message: 'must be an ICD-10 code such as B50' });
    if (issues.length) throw errors.validation(issues);
    const orgs = organizationsWith(viewer, 'clinical:read');
    const where: FilterQuery<TreatmentProtocol>[] = [];
    if (args.organizationId) {
      if (orgs && !orgs.includes(args.organizationId)) {
        throw canSeeOrganization(viewer, args.organizationId) ? errors.forbidden() : errors.notFound('Organization');
      }
      where.push({ organizationId: args.organizationId });
    } else if (orgs) {
      where.push({ $or: [{ organizationId: null }, ...(orgs.length ? [{ organizationId: { $in: orgs } }] : [])] });
    }
    if (args.status) where.push({ status: args.status });
    if (code) where.push({ $or: [{ icd10Code: code }, { icd10Code: { $like: `${code}${code.includes('.') ? '' : '.'}%` } }] });
    return paginate(ctx.em, TreatmentProtocol, { $and: where }, args, { name: 'asc', id: 'asc' });
  }

  /** A protocol the caller may read; 404 otherwise (403 for a member of its organization without clinical reads). */
  async get(ctx: SubgraphContext, id: string): Promise<TreatmentProtocol> {
    const viewer = requireViewer(ctx.viewer);
    const protocol = isUuid(id) ? await ctx.em.findOne(TreatmentProtocol, { id }) : null;
    if (!protocol) throw errors.notFound(PROTOCOL_WHAT);
    if (!readsProtocol(viewer, protocol)) {
      throw protocol.organizationId && canSeeOrganization(viewer, protocol.organizationId)
        ? errors.forbidden()
        : errors.notFound(PROTOCOL_WHAT);
    }
    return protocol;
  }

  /** A protocol under the rule of `treatmentProtocol(id)`, batched; null when there is none or the caller may not read it. */
  visible(ctx: SubgraphContext, id: string): Promise<TreatmentProtocol | null> {
    return readableById(ctx, TreatmentProtocol, id, readsProtocol);
  }

  /** Changes make a new version (the old one is kept for the treatments that follow it); a retired protocol is fixed. */
  async update(ctx: SubgraphContext, id: string, input: UpdateTreatmentProtocolInput): Promise<TreatmentProtocol> {
    const found = await this.writable(ctx, id);
    const patch = patchFrom(input, ['name', 'condition', 'icd10Code', 'steps']);
    const changes: Partial<TreatmentProtocol> = {};
    if (patch.name !== undefined) changes.name = patch.name.trim();
    if (patch.condition !== undefined) changes.condition = patch.condition.trim();
    if (patch.icd10Code !== undefined) {
      const icd10 = normalizeIcd10(patch.icd10Code);
      if (!icd10) throw errors.invalidField('icd10Code', 'must be an ICD-10 code such as B50.9');
      changes.icd10Code = icd10;
    }
    if (patch.description !== undefined) changes.description = patch.description?.trim() || null;
    if (patch.steps !== undefined) changes.steps = stepsOf(patch.steps);
    const userId = ctx.viewer!.userId;
    return ctx.em.transactional(async (em) => {
      if (changes.name) await lockKey(em, `treatment-protocol-name:${found.organizationId ?? 'platform'}`);
      const protocol = await em.findOneOrFail(TreatmentProtocol, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter(
        (k) => JSON.stringify(protocol[k] ?? null) !== JSON.stringify(changes[k] ?? null),
      );
      PROTOCOL.next(protocol.status, 'revise');
      if (!changed.length) return protocol;
      if (changes.name && changed.includes('name'))
        await this.checkNameFree(em, protocol.organizationId ?? null, changes.name, protocol.id);
      em.assign(protocol, Object.fromEntries(changed.map((k) => [k, changes[k]])));
      protocol.version += 1;
      protocol.updatedBy = userId;
      em.create(TreatmentProtocolVersion, snapshot(protocol, userId));
      return protocol;
    });
  }

  /**
   * Deletes a protocol no treatment ever used (with its versions). One that a treatment uses, active or finished, is
   * retired instead: kept for those treatments, assigned no more. Retiring twice is a 409.
   */
  async delete(ctx: SubgraphContext, id: string): Promise<TreatmentProtocolDeletion> {
    const found = await this.writable(ctx, id);
    const userId = ctx.viewer!.userId;
    return ctx.em.transactional(async (em) => {
      const protocol = await em.findOneOrFail(TreatmentProtocol, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      // Assignments lock the protocol too, so none slips in between this count and the delete.
      const used = await em.count(PatientTreatment, { protocolId: protocol.id });
      if (used) {
        protocol.status = PROTOCOL.next(protocol.status, 'retire');
        protocol.retiredAt = clock.now();
        protocol.retiredBy = userId;
        return { id: protocol.id, outcome: ProtocolDeletionOutcome.retired, protocol };
      }
      await em.nativeDelete(TreatmentProtocolVersion, { protocolId: protocol.id });
      em.remove(protocol);
      return { id: protocol.id, outcome: ProtocolDeletionOutcome.deleted, protocol: null };
    });
  }

  versions(ctx: SubgraphContext, protocol: TreatmentProtocol): Promise<TreatmentProtocolVersion[]> {
    return ctx.em.find(TreatmentProtocolVersion, { protocolId: protocol.id }, { orderBy: { version: 'asc' } });
  }

  private async writable(ctx: SubgraphContext, id: string): Promise<TreatmentProtocol> {
    const protocol = await this.get(ctx, id);
    if (!writesProtocol(ctx.viewer!, protocol))
      throw errors.forbidden("Only the organization's doctors and administrators change its treatment protocols");
    return protocol;
  }

  private async checkNameFree(
    em: SubgraphContext['em'],
    organizationId: string | null,
    name: string,
    except: string | null,
  ): Promise<void> {
    const same = await em.findOne(TreatmentProtocol, {
      organizationId,
      status: ProtocolStatus.active,
      name: { $ilike: name.replace(/[\\%_]/g, (c) => `\\${c}`) },
      ...(except ? { id: { $ne: except } } : {}),
    });
    if (same) throw errors.duplicate(`An active protocol named "${same.name}" already exists (${same.id})`);
  }
}

function snapshot(p: TreatmentProtocol, changedBy: string) {
  return {
    protocolId: p.id,
    version: p.version,
    name: p.name,
    condition: p.condition,
    icd10Code: p.icd10Code,
    description: p.description ?? null,
    steps: p.steps,
    changedBy,
  };
}

const ORG_DOCTORS = `query OrganizationDoctors($organizationId: ID!, $page: Int!) {
  organizationMembers(organizationId: $organizationId, role: "ORG:DOCTOR", page: $page, limit: 100) { items { userId } total }
}`;

/** Patients' treatments: assigned by (or for) a doctor, followed by clinicians; under the clinical access rules. */
export class PatientTreatmentService {
  private readonly protocols = new TreatmentProtocolService();

  async assign(ctx: SubgraphContext, input: AssignTreatmentInput): Promise<PatientTreatment> {
    const viewer = requireViewer(ctx.viewer);
    const issues: FieldIssue[] = [];
    if (!isUuid(input.patientId)) issues.push({ field: 'patientId', message: 'must be a patient id' });
    if (!isUuid(input.protocolId)) issues.push({ field: 'protocolId', message: 'must be a protocol id' });
    if (input.prescriberId != null && !isUuid(input.prescriberId)) issues.push({ field: 'prescriberId', message: 'must be a user id' });
    if (input.startDate > addDays(today(), MAX_DAYS_AHEAD))
      issues.push({ field: 'startDate', message: `must be at most ${MAX_DAYS_AHEAD} days ahead` });
    if (issues.length) throw errors.validation(issues);
    const patient = await writablePatient(ctx, input.patientId);
    if (input.startDate < patient.dateOfBirth) throw errors.invalidField('startDate', "must not be before the patient's date of birth");
    const found = await this.protocols.get(ctx, input.protocolId).catch((err) => {
      throw (err as { extensions?: { code?: string } }).extensions?.code === 'FORBIDDEN' ? errors.notFound(PROTOCOL_WHAT) : err;
    });
    if (found.organizationId && found.organizationId !== patient.organizationId) {
      throw errors.invalidField('protocolId', "must be a protocol of the patient's organization or of the whole platform");
    }
    const prescriberId = await this.prescriber(ctx, viewer, patient, input.prescriberId ?? null);
    return ctx.em.transactional(async (em) => {
      // The protocol is locked as a deletion locks it: it cannot be deleted while a treatment is being assigned.
      const protocol = await em.findOneOrFail(TreatmentProtocol, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (protocol.status === ProtocolStatus.retired) throw errors.conflict('This protocol is retired: it is no longer assigned');
      await lockKey(em, `patient-treatment:${patient.id}:${protocol.id}`);
      const open = await em.findOne(PatientTreatment, {
        patientId: patient.id,
        protocolId: protocol.id,
        status: PatientTreatmentStatus.active,
      });
      if (open) throw errors.duplicate(`The patient is already on this protocol (treatment ${open.id})`);
      const treatment = em.create(PatientTreatment, {
        patientId: patient.id,
        organizationId: patient.organizationId ?? null,
        protocolId: protocol.id,
        protocolVersion: protocol.version,
        protocolName: protocol.name,
        startDate: input.startDate,
        prescriberId,
        currentStep: 1,
        notes: input.notes?.trim() || null,
        assignedBy: viewer.userId,
      });
      auditRowChange({ ...ctx, em }, 'create', RESOURCE, treatment, {
        protocol_id: protocol.id,
        protocol_version: protocol.version,
        prescriber_id: prescriberId,
      });
      return treatment;
    });
  }

  /**
   * The prescriber: the caller when they prescribe (a doctor of the patient's organization; outside any organization,
   * a user registered as a doctor), or the doctor of the organization they name.
   */
  private async prescriber(ctx: SubgraphContext, viewer: Viewer, patient: Patient, named: string | null): Promise<string> {
    const organizationId = patient.organizationId;
    if (!named || named === viewer.userId) {
      const prescribes = organizationId
        ? can(viewer, 'prescriptions:sign', organizationId)
        : viewer.registrationRole === 'DOCTOR' || isPlatformAdmin(viewer);
      if (!prescribes) throw errors.forbidden('Only a doctor prescribes a treatment: name the prescribing doctor (prescriberId)');
      return viewer.userId;
    }
    if (!organizationId) throw errors.invalidField('prescriberId', 'must be you for a patient outside any organization');
    for (let page = 1; page <= 20; page++) {
      const result = await ctx.peers.query(
        'org',
        ORG_DOCTORS,
        { organizationId, page },
        { viewer, requestId: ctx.requestId, ip: ctx.ip, userAgent: ctx.userAgent },
      );
      if (result.errors?.length) throw new Error(`organization members lookup failed: ${result.errors.map((e) => e.message).join('; ')}`);
      const members = result.data?.organizationMembers as { items: { userId: string }[]; total: number } | undefined;
      if (members?.items.some((m) => m.userId === named)) return named;
      if (!members || page * 100 >= members.total) break;
    }
    throw errors.invalidField('prescriberId', "must be a doctor of the patient's organization");
  }

  async listForPatient(ctx: SubgraphContext, patientId: string, args: PatientTreatmentListArgs): Promise<PageResult<PatientTreatment>> {
    const patient = await readablePatient(ctx, patientId);
    const page = await paginate(
      ctx.em,
      PatientTreatment,
      { patientId: patient.id, ...(args.status ? { status: args.status } : {}) },
      args,
      {
        startDate: 'desc',
        createdAt: 'desc',
        id: 'asc',
      },
    );
    auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<PatientTreatment> {
    const treatment = await readableRow(ctx, PatientTreatment, id, TREATMENT_WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [treatment]);
    return treatment;
  }

  /**
   * Progress (the step reached, a note) while active, then the status wanted: `completed`, or `discontinued` with a
   * reason. The machine (PATIENT_TREATMENT) refuses anything else with a 409.
   */
  async update(ctx: SubgraphContext, id: string, input: UpdatePatientTreatmentInput): Promise<PatientTreatment> {
    const found = await writableRow(ctx, PatientTreatment, id, TREATMENT_WHAT);
    const steps = await this.stepsOf(ctx, found);
    const issues: FieldIssue[] = [];
    if (input.currentStep != null && (!Number.isInteger(input.currentStep) || input.currentStep < 1 || input.currentStep > steps.length)) {
      issues.push({ field: 'currentStep', message: `must be between 1 and ${steps.length}, the steps of the protocol version followed` });
    }
    if (input.status === PatientTreatmentStatus.discontinued && !input.discontinuationReason) {
      issues.push({ field: 'discontinuationReason', message: 'is required to discontinue a treatment' });
    }
    if (input.discontinuationReason && input.status !== PatientTreatmentStatus.discontinued) {
      issues.push({ field: 'discontinuationReason', message: 'is given only with status discontinued' });
    }
    if (input.endDate && (!input.status || input.status === PatientTreatmentStatus.active)) {
      issues.push({ field: 'endDate', message: 'is given only with status completed or discontinued' });
    }
    if (input.endDate && input.endDate < found.startDate) issues.push({ field: 'endDate', message: 'must not be before the start date' });
    if (input.endDate && input.endDate > today()) issues.push({ field: 'endDate', message: 'must not be in the future' });
    if (input.status === PatientTreatmentStatus.active)
      issues.push({ field: 'status', message: 'must be completed or discontinued: a treatment does not become active again' });
    if (issues.length) throw errors.validation(issues);
    return lockedChange(ctx, PatientTreatment, found.id, (tx, treatment) => {
      const userId = tx.viewer!.userId;
      const progress = input.currentStep != null || input.progressNote != null;
      if (progress) {
        treatment.status = PATIENT_TREATMENT.next(treatment.status, 'record_progress');
        const previous = { currentStep: treatment.currentStep ?? null };
        if (input.currentStep != null) treatment.currentStep = input.currentStep;
        if (input.progressNote != null) treatment.progressNote = input.progressNote.trim();
        auditRowChange(tx, 'record_progress', RESOURCE, treatment, { current_step: treatment.currentStep, previous });
      }
      if (input.status) {
        const action = PATIENT_TREATMENT.actionTo(treatment.status, input.status)!;
        treatment.status = PATIENT_TREATMENT.next(treatment.status, action);
        treatment.endDate = input.endDate ?? today();
        if (treatment.endDate < treatment.startDate) treatment.endDate = treatment.startDate;
        treatment.closedAt = clock.now();
        if (action === 'discontinue') treatment.discontinuationReason = input.discontinuationReason!.trim();
        auditRowChange(tx, action, RESOURCE, treatment, { status: treatment.status, reason: treatment.discontinuationReason ?? null });
      }
      if (progress || input.status) treatment.updatedBy = userId;
    });
  }

  /** The steps of the version a treatment follows. */
  async stepsOf(ctx: SubgraphContext, treatment: PatientTreatment): Promise<TreatmentStep[]> {
    const loader = ctx.loader<string, TreatmentProtocolVersion>('treatment-protocol-version', async (keys) => {
      const pairs = keys.map((k) => k.split('@'));
      const rows = await ctx.em.find(TreatmentProtocolVersion, {
        $or: pairs.map(([protocolId, version]) => ({ protocolId, version: Number(version) })),
      });
      return keys.map((k) => rows.find((r) => `${r.protocolId}@${r.version}` === k) ?? null);
    });
    return (await loader.load(`${treatment.protocolId}@${treatment.protocolVersion}`))?.steps ?? [];
  }

  protocolOf(ctx: SubgraphContext, treatment: PatientTreatment): Promise<TreatmentProtocol | null> {
    return ctx.loader<string, TreatmentProtocol>('treatment-protocol', byIds(ctx.em, TreatmentProtocol)).load(treatment.protocolId);
  }
}

/** The last day of a course that runs its steps one after another from `startDate`. */
export function plannedEndDate(startDate: string, steps: TreatmentStep[]): string {
  return addDays(
    startDate,
    Math.max(
      1,
      steps.reduce((sum, s) => sum + s.durationDays, 0),
    ) - 1,
  );
}
