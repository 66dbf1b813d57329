import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors, type FieldIssue } from '../../../shared/errors';
import { byIds, changedKeys, isUuid, type PageResult, paginate, patchFrom } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { PRESCRIPTION_CREATED } from './prescription.events';
import { requireActiveOrganization } from '../../../shared/refs';
import { can, canSeeOrganization, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { readablePatient, writablePatient } from '../access/patient-access';
import { hiddenAs, readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { EPRESCRIPTION, EPrescription, EPrescriptionStatus, PRESCRIPTION, Prescription, PrescriptionStatus } from './prescription.entity';
import type {
  CancelPrescriptionArgs,
  CreateEPrescriptionInput,
  CreatePrescriptionInput,
  EPrescriptionListArgs,
  PrescriptionListArgs,
  UpdatePrescriptionInput,
} from './prescription.types';
import { lockedChange } from '../../../shared/locked-change';

const RESOURCE = 'prescription';
const E_RESOURCE = 'eprescription';
const TEXT_FIELDS = ['medication', 'dosage', 'frequency', 'duration', 'instructions'] as const;

const codeOf = (err: unknown) => (err as { extensions?: { code?: string } }).extensions?.code;

/** The caller can already see the record, so a refusal to change it is a 403, not a 404. */
const refused =
  (message?: string) =>
  (err: unknown): never => {
    throw codeOf(err) === 'NOT_FOUND' || codeOf(err) === 'FORBIDDEN' ? errors.forbidden(message) : err;
  };

function auditPrescription(ctx: SubgraphContext, action: string, p: Prescription, details: Record<string, unknown> = {}): void {
  auditRowChange(ctx, action, RESOURCE, p, { status: p.status, ...details });
}

function auditEPrescription(ctx: SubgraphContext, action: string, ep: EPrescription): void {
  auditRowChange(ctx, action, E_RESOURCE, ep, {
    status: ep.status,
    prescription_id: ep.prescriptionId,
    pharmacy_id: ep.pharmacyId,
    refills_remaining: ep.refillsRemaining,
  });
}

export class PrescriptionService {
  async create(ctx: SubgraphContext, input: CreatePrescriptionInput): Promise<Prescription> {
    const patient = await writablePatient(ctx, input.patientId);
    const prescriberId = ctx.viewer!.userId;
    const prescription = ctx.em.create(Prescription, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      prescriberId,
      medication: input.medication.trim(),
      dosage: input.dosage.trim(),
      frequency: input.frequency.trim(),
      duration: input.duration?.trim() ?? null,
      instructions: input.instructions?.trim() ?? null,
      refills: input.refills ?? 0,
    });
    auditPrescription(ctx, 'create', prescription);
    emitEvent(ctx.em, 'clinical', PRESCRIPTION_CREATED, {
      prescription_id: prescription.id,
      patient_id: prescription.patientId,
      organization_id: prescription.organizationId ?? null,
      prescriber_id: prescriberId,
      medication: prescription.medication,
    });
    await ctx.em.flush();
    return prescription;
  }

  /**
   * With `patientId`: that patient's prescriptions (anyone who may read the patient). Without: those of the
   * organizations where the caller reads clinical data, and the caller's own as a patient.
   */
  async list(ctx: SubgraphContext, args: PrescriptionListArgs): Promise<PageResult<Prescription>> {
    const where: FilterQuery<Prescription>[] = [];
    if (args.patientId !== undefined && args.patientId !== null) {
      if (!isUuid(args.patientId)) throw errors.invalidField('patientId', 'must be a patient id');
      where.push({ patientId: (await readablePatient(ctx, args.patientId)).id });
    } else {
      const scope = await readableScope<Prescription>(ctx);
      if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
      where.push(scope);
    }
    if (args.status) where.push({ status: args.status });
    const page = await paginate(ctx.em, Prescription, { $and: where }, args);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Prescription> {
    const prescription = await this.readable(ctx, id);
    auditRowsRead(ctx, 'read', RESOURCE, [prescription]);
    return prescription;
  }

  /** Drafts only: once signed (or cancelled) a prescription is fixed. */
  async update(ctx: SubgraphContext, id: string, input: UpdatePrescriptionInput): Promise<Prescription> {
    const found = await this.writable(ctx, id);
    const patch = patchFrom(input, ['medication', 'dosage', 'frequency', 'refills']);
    for (const field of TEXT_FIELDS) {
      const value = patch[field];
      if (typeof value === 'string') patch[field] = value.trim();
    }
    return lockedChange(ctx, Prescription, found.id, (tx, prescription) => {
      if (!PRESCRIPTION.can(prescription.status, 'edit')) throw errors.conflict(`A ${prescription.status} prescription cannot be edited`);
      const changed = changedKeys(prescription, patch);
      if (!changed.length) return;
      tx.em.assign(prescription, patch);
      auditPrescription(tx, 'update', prescription, { fields: changed });
    });
  }

  /** Only a doctor of the patient's organization (outside any organization: a user registered as a doctor). */
  async sign(ctx: SubgraphContext, id: string): Promise<Prescription> {
    const found = await this.readable(ctx, id);
    const viewer = ctx.viewer!;
    const onlyDoctors = 'Only a doctor can sign a prescription';
    const patient = await writablePatient(ctx, found.patientId, { permission: 'prescriptions:sign' }).catch(refused(onlyDoctors));
    if (!patient.organizationId && viewer.registrationRole !== 'DOCTOR' && !isPlatformAdmin(viewer)) throw errors.forbidden(onlyDoctors);
    return lockedChange(ctx, Prescription, found.id, (tx, prescription) => {
      prescription.status = PRESCRIPTION.next(prescription.status, 'sign');
      prescription.signedBy = viewer.userId;
      prescription.signedAt = clock.now();
      auditPrescription(tx, 'sign', prescription);
    });
  }

  /** Cancels the prescription and, with it, its e-prescriptions that were not dispensed. */
  async cancel(ctx: SubgraphContext, args: CancelPrescriptionArgs): Promise<Prescription> {
    const found = await this.writable(ctx, args.id);
    const viewer = ctx.viewer!;
    return lockedChange(ctx, Prescription, found.id, async (tx, prescription) => {
      prescription.status = PRESCRIPTION.next(prescription.status, 'cancel');
      prescription.cancelledBy = viewer.userId;
      prescription.cancelledAt = clock.now();
      prescription.cancellationReason = args.reason?.trim() ?? null;
      auditPrescription(tx, 'cancel', prescription, { reason: prescription.cancellationReason });
      const open = await tx.em.find(
        EPrescription,
        { prescriptionId: prescription.id, status: { $in: [...EPRESCRIPTION.transitions.cancel.from] } },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      for (const ep of open) {
        ep.status = EPRESCRIPTION.next(ep.status, 'cancel');
        ep.cancelledBy = viewer.userId;
        ep.cancelledAt = prescription.cancelledAt;
        auditEPrescription(tx, 'cancel', ep);
      }
    });
  }

  /** The prescription, when the caller may read its patient's clinical data; 404 otherwise. */
  readable(ctx: SubgraphContext, id: string): Promise<Prescription> {
    return readableRow(ctx, Prescription, id, 'Prescription');
  }

  private writable(ctx: SubgraphContext, id: string): Promise<Prescription> {
    return writableRow(ctx, Prescription, id, 'Prescription');
  }
}

/** Members of the pharmacy an e-prescription was sent to read it (a key of the pharmacy needs the clinical scope). */
function atPharmacy(viewer: Viewer, pharmacyId: string): boolean {
  return viewer.apiKey ? can(viewer, 'clinical:read', pharmacyId) : canSeeOrganization(viewer, pharmacyId);
}

export class EPrescriptionService {
  private readonly prescriptions = new PrescriptionService();

  /** From a signed prescription, for one pharmacy; a prescription is with one pharmacy at a time. */
  async create(ctx: SubgraphContext, input: CreateEPrescriptionInput): Promise<EPrescription> {
    const issues: FieldIssue[] = [];
    if (!isUuid(input.prescriptionId)) issues.push({ field: 'prescriptionId', message: 'must be a prescription id' });
    if (!isUuid(input.pharmacyId)) issues.push({ field: 'pharmacyId', message: 'must be an organization id' });
    if (issues.length) throw errors.validation(issues);
    const found = await this.prescriptions.readable(ctx, input.prescriptionId);
    await writablePatient(ctx, found.patientId).catch(refused());
    await requireActiveOrganization(ctx, input.pharmacyId, 'pharmacyId');
    const createdBy = ctx.viewer!.userId;
    return ctx.em.transactional(async (em) => {
      const prescription = await em.findOneOrFail(Prescription, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (prescription.status !== PrescriptionStatus.signed) {
        throw errors.conflict(`Only a signed prescription can be sent to a pharmacy; this one is ${prescription.status}`);
      }
      const open = await em.findOne(EPrescription, { prescriptionId: prescription.id, status: { $ne: EPrescriptionStatus.cancelled } });
      if (open) throw errors.duplicate(`The prescription was already sent to a pharmacy (e-prescription ${open.id})`);
      const ep = em.create(EPrescription, {
        prescriptionId: prescription.id,
        patientId: prescription.patientId,
        organizationId: prescription.organizationId ?? null,
        pharmacyId: input.pharmacyId,
        refillsRemaining: prescription.refills,
        createdBy,
      });
      auditEPrescription({ ...ctx, em }, 'create', ep);
      return ep;
    });
  }

  async listForPatient(ctx: SubgraphContext, patientId: string, args: EPrescriptionListArgs): Promise<PageResult<EPrescription>> {
    const patient = await readablePatient(ctx, patientId);
    const page = await paginate(ctx.em, EPrescription, { patientId: patient.id, ...(args.status ? { status: args.status } : {}) }, args);
    auditRowsRead(ctx, 'list', E_RESOURCE, page.items);
    return page;
  }

  /** What was sent to a pharmacy: for its members. */
  async listForPharmacy(ctx: SubgraphContext, pharmacyId: string, args: EPrescriptionListArgs): Promise<PageResult<EPrescription>> {
    const viewer = requireViewer(ctx.viewer);
    if (!isUuid(pharmacyId) || !atPharmacy(viewer, pharmacyId)) {
      throw isUuid(pharmacyId) && canSeeOrganization(viewer, pharmacyId) ? errors.forbidden() : errors.notFound('Organization');
    }
    const page = await paginate(ctx.em, EPrescription, { pharmacyId, ...(args.status ? { status: args.status } : {}) }, args);
    auditRowsRead(ctx, 'list', E_RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<EPrescription> {
    const ep = await this.readable(ctx, id);
    auditRowsRead(ctx, 'read', E_RESOURCE, [ep]);
    return ep;
  }

  /** The clinic sends it: clinical writers of the patient's organization. */
  async transmit(ctx: SubgraphContext, id: string): Promise<EPrescription> {
    const found = await this.readable(ctx, id);
    await writablePatient(ctx, found.patientId).catch(refused());
    return this.transition(ctx, found.id, 'transmit', (ep, tx) => {
      ep.transmittedBy = tx.viewer!.userId;
      ep.transmittedAt = clock.now();
    });
  }

  /** The pharmacy it was sent to hands the medication out. */
  async dispense(ctx: SubgraphContext, id: string): Promise<EPrescription> {
    const found = await this.readable(ctx, id);
    if (!can(ctx.viewer, 'prescriptions:dispense', found.pharmacyId)) {
      throw errors.forbidden('Only a pharmacist of the pharmacy it was sent to can dispense it');
    }
    return this.transition(ctx, found.id, 'dispense', (ep, tx) => {
      ep.dispensedBy = tx.viewer!.userId;
      ep.dispensedAt = clock.now();
    });
  }

  /** The patient, or a clinician of their organization, asks for the next fill; it goes back to the pharmacy. */
  async refill(ctx: SubgraphContext, id: string): Promise<EPrescription> {
    const found = await this.readable(ctx, id);
    await writablePatient(ctx, found.patientId, { allowSelf: true }).catch(refused());
    return this.transition(ctx, found.id, 'refill', async (ep, tx) => {
      // Read under a share lock: a cancellation at the same moment waits for this refill, or this sees it.
      const prescription = await tx.em.findOneOrFail(
        Prescription,
        { id: ep.prescriptionId },
        { lockMode: LockMode.PESSIMISTIC_READ, refresh: true },
      );
      if (prescription.status === PrescriptionStatus.cancelled)
        throw errors.conflict('The prescription was cancelled; it cannot be refilled');
      if (ep.refillsRemaining <= 0) throw errors.conflict('No refills remaining');
      ep.refillsRemaining -= 1;
      ep.refillRequestedBy = tx.viewer!.userId;
      ep.refillRequestedAt = clock.now();
    });
  }

  /** The prescription an e-prescription carries, batched per request; the e-prescription was authorized already. */
  prescriptionOf(ctx: SubgraphContext, ep: EPrescription): Promise<Prescription | null> {
    return ctx.loader<string, Prescription>('prescription', byIds(ctx.em, Prescription)).load(ep.prescriptionId);
  }

  private transition(
    ctx: SubgraphContext,
    id: string,
    action: 'transmit' | 'dispense' | 'refill',
    record: (ep: EPrescription, tx: SubgraphContext) => void | Promise<void>,
  ): Promise<EPrescription> {
    return lockedChange(ctx, EPrescription, id, async (tx, ep) => {
      ep.status = EPRESCRIPTION.next(ep.status, action);
      await record(ep, tx);
      auditEPrescription(tx, action, ep);
    });
  }

  /** The pharmacy it was sent to, or anyone who may read the patient's clinical data; 404 otherwise. */
  private async readable(ctx: SubgraphContext, id: string): Promise<EPrescription> {
    const viewer = requireViewer(ctx.viewer);
    const ep = isUuid(id) ? await ctx.em.findOne(EPrescription, { id }) : null;
    if (!ep) throw errors.notFound('E-prescription');
    if (!atPharmacy(viewer, ep.pharmacyId)) await readablePatient(ctx, ep.patientId).catch(hiddenAs('E-prescription'));
    return ep;
  }
}
