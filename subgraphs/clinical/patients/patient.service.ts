import { raw, UniqueConstraintViolationException, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import { formatNumber, nextCounterValue } from '../../../shared/counters';
import { errors } from '../../../shared/errors';
import { paginateCapped, patchFrom, type PageArgs, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { PATIENT_CREATED, PATIENT_UPDATED } from './patient.events';
import { organizationStatus } from '../../../shared/refs';
import { requireOrgPermission, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { membershipRole, type Viewer } from '../../../shared/viewer';
import { accessBasis, loadPatient, readablePatient, writablePatient } from '../access/patient-access';
import { auditChange, auditListRead, auditRead } from '../../../shared/audit/audit-trail';
import { Patient } from './patient.entity';
import type { CreatePatientInput, PatientInput, PatientSearchArgs, UpdatePatientInput } from './patient.types';

const RESOURCE = 'patient';
/** Allocated numbers tried before giving up when callers have given the next ones by hand. */
const MRN_ATTEMPTS = 5;
const MAX_NAME_WORDS = 4;

type PatientPageResult = PageResult<Patient> & { totalIsEstimate: boolean };

/** A national id means nothing without the country that issued it. */
function checkNationalId(p: { nationalId?: string | null; nationalIdCountry?: string | null }): void {
  if (p.nationalId && !p.nationalIdCountry) throw errors.invalidField('nationalIdCountry', 'is required with nationalId');
  if (p.nationalIdCountry && !p.nationalId) throw errors.invalidField('nationalId', 'is required with nationalIdCountry');
}

export class PatientService {
  /**
   * A patient profile. A PATIENT user's first profile becomes their own (`/patients/me`); a clinician's is a
   * record they own, or, with `organizationId`, a patient registered with that organization. An API key
   * registers the patient with its own organization.
   */
  async create(ctx: SubgraphContext, input: CreatePatientInput): Promise<Patient> {
    const viewer = requireViewer(ctx.viewer);
    const { organizationId: requestedOrg, ...fields } = input;
    const organizationId = viewer.apiKey ? viewer.apiKey.organizationId : requestedOrg;
    if (organizationId) return this.register(ctx, organizationId, fields);
    const ownsProfile = viewer.registrationRole === 'PATIENT' && !(await ctx.em.count(Patient, { userId: viewer.userId }));
    if (fields.mrn) throw errors.invalidField('mrn', 'can only be set for a patient of an organization');
    const patient = this.build(ctx, viewer, fields, { userId: ownsProfile ? viewer.userId : null });
    await ctx.em.flush();
    return patient;
  }

  /**
   * Registers a patient with an organization and gives them the organization's next medical record number. The
   * number is taken from the organization's counter in a statement of its own (the counter row is locked for that
   * statement only, not until the registration commits), so registrations in one organization do not queue behind
   * each other; a registration that fails leaves a gap in the numbers. The unique index on (organization, mrn) is the
   * duplicate check: a number given by the caller that is taken is a CONFLICT; an allocated number that a caller had
   * already given by hand is skipped for the next one.
   */
  async register(ctx: SubgraphContext, organizationId: string, input: PatientInput): Promise<Patient> {
    const viewer = requireOrgPermission(ctx.viewer, organizationId, 'patients:write');
    // A membership (or an API key) proves the organization exists; a platform administrator's id is asked of org.
    if (!viewer.apiKey && !membershipRole(viewer, organizationId) && !(await organizationStatus(ctx, organizationId))) {
      throw errors.notFound('Organization');
    }
    const given = input.mrn?.trim();
    for (let attempt = 1; ; attempt++) {
      const mrn = given || formatNumber('MRN', await nextCounterValue(ctx.em.fork(), 'mrn', organizationId));
      try {
        return await ctx.em.transactional(async (em) => {
          const patient = this.build({ ...ctx, em }, viewer, { ...input, mrn }, { organizationId });
          await em.flush();
          return patient;
        });
      } catch (err) {
        if (!(err instanceof UniqueConstraintViolationException)) throw err;
        if (given || attempt >= MRN_ATTEMPTS) throw errors.duplicate(`Medical record number ${mrn} is already used in this organization`);
      }
    }
  }

  async mine(ctx: SubgraphContext): Promise<Patient> {
    const viewer = requireViewer(ctx.viewer);
    const patient = viewer.apiKey ? null : await ctx.em.findOne(Patient, { userId: viewer.userId });
    if (!patient) throw errors.notFound('Patient profile');
    this.audited(ctx, 'read', [patient]);
    return patient;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Patient> {
    const patient = await readablePatient(ctx, id, 'patients:read');
    this.audited(ctx, 'read', [patient]);
    return patient;
  }

  /** The profile: its organization's staff with patients:write, the patient, or the creator of an unaffiliated one. */
  async update(ctx: SubgraphContext, id: string, input: UpdatePatientInput): Promise<Patient> {
    const patient = await writablePatient(ctx, id, { permission: 'patients:write', allowSelf: true });
    const patch = patchFrom(input, ['firstName', 'lastName', 'dateOfBirth']);
    if (patch.nationalId === null) patch.nationalIdCountry = null;
    checkNationalId({
      nationalId: patch.nationalId ?? patient.nationalId,
      nationalIdCountry: 'nationalIdCountry' in patch ? patch.nationalIdCountry : patient.nationalIdCountry,
    });
    ctx.em.assign(patient, patch);
    auditChange(ctx, {
      action: 'update',
      resourceType: RESOURCE,
      resourceId: patient.id,
      patientId: patient.id,
      organizationId: patient.organizationId,
      details: { fields: Object.keys(patch) },
    });
    if (Object.keys(patch).length) {
      emitEvent(ctx.em, 'clinical', PATIENT_UPDATED, {
        patient_id: patient.id,
        organization_id: patient.organizationId ?? null,
        fields: Object.keys(patch),
      });
    }
    await ctx.em.flush();
    return patient;
  }

  async listForOrganization(ctx: SubgraphContext, organizationId: string, args: PageArgs): Promise<PatientPageResult> {
    requireOrgPermission(ctx.viewer, organizationId, 'patients:read');
    const page = await paginateCapped(ctx.em, Patient, { organizationId }, args, { createdAt: 'desc', id: 'asc' });
    this.auditedList(ctx, page.items);
    return { ...page, totalIsEstimate: !!page.totalIsEstimate };
  }

  async getInOrganization(ctx: SubgraphContext, organizationId: string, patientId: string): Promise<Patient> {
    requireOrgPermission(ctx.viewer, organizationId, 'patients:read');
    const patient = await loadPatient(ctx, patientId);
    if (!patient || patient.organizationId !== organizationId) throw errors.notFound('Patient');
    this.audited(ctx, 'read', [patient]);
    return patient;
  }

  /**
   * Patients of an organization by the start of their medical record number and/or of their names, case-insensitive.
   * Each condition is served by an index on the lower-cased column (`text_pattern_ops`, which serves LIKE 'x%'), so
   * a search reads the matches, not the organization; the total is counted up to a cap (paginateCapped).
   */
  async search(ctx: SubgraphContext, organizationId: string, args: PatientSearchArgs): Promise<PatientPageResult> {
    requireOrgPermission(ctx.viewer, organizationId, 'patients:read');
    const mrn = args.mrn?.trim().toLowerCase() ?? '';
    const words = (args.name ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (!mrn && !words.length) throw errors.invalidField(args.name?.length ? 'name' : 'mrn', 'give mrn or name (the start of either)');
    if (words.length > MAX_NAME_WORDS) throw errors.invalidField('name', `must be at most ${MAX_NAME_WORDS} words`);
    const startsWith = (text: string) => ({ $like: `${text.replace(/[\\%_]/g, '\\$&')}%` });
    // Each word starts the given or the family name. Written as one alternative per way of giving the words to the
    // two names (2^words, at most 16), each alternative is one range of a (first, last) or (last, first) name index
    // with the other name checked inside it. Built per query: a raw() key serves one query.
    const column = (first: boolean) => raw(first ? 'lower(first_name)' : 'lower(last_name)');
    const byName = (): FilterQuery<Patient>[] =>
      words.length
        ? [
            {
              $or: Array.from({ length: 2 ** words.length }, (_, mask) => ({
                $and: words.map((word, i) => ({ [column(((mask >> i) & 1) === 1)]: startsWith(word) })),
              })),
            },
          ]
        : [];
    const where = (): FilterQuery<Patient> => ({
      $and: [{ organizationId }, ...(mrn ? [{ [raw('lower(mrn)')]: startsWith(mrn) }] : []), ...byName()],
    });
    const order = mrn ? { mrn: 'asc', id: 'asc' } : { lastName: 'asc', firstName: 'asc', id: 'asc' };
    const page = await paginateCapped(ctx.em, Patient, where, args, order as QueryOrderMap<Patient>);
    this.auditedList(ctx, page.items);
    return { ...page, totalIsEstimate: !!page.totalIsEstimate };
  }

  /** A reference from another subgraph resolves only for callers who may see the patient. */
  async resolveReference(ctx: SubgraphContext, id: string): Promise<Patient | null> {
    const patient = await loadPatient(ctx, id);
    if (!patient || !(await accessBasis(ctx, patient, 'patients:read'))) return null;
    this.audited(ctx, 'read', [patient]);
    return patient;
  }

  /** A page of patients read: one audit entry for the request, naming them. */
  private auditedList(ctx: SubgraphContext, patients: Patient[]): void {
    auditListRead(
      ctx,
      RESOURCE,
      patients.map((p) => ({ id: p.id, patientId: p.id, organizationId: p.organizationId })),
    );
  }

  private audited(ctx: SubgraphContext, action: string, patients: Patient[]): void {
    auditRead(
      ctx,
      patients.map((p) => ({ action, resourceType: RESOURCE, resourceId: p.id, patientId: p.id, organizationId: p.organizationId })),
    );
  }

  private build(
    ctx: SubgraphContext,
    viewer: Viewer,
    input: PatientInput,
    owner: { organizationId?: string | null; userId?: string | null },
  ): Patient {
    checkNationalId(input);
    const patient = ctx.em.create(Patient, {
      ...input,
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      gender: input.gender ?? null,
      email: input.email?.trim().toLowerCase() ?? null,
      nationalId: input.nationalId?.trim() || null,
      organizationId: owner.organizationId ?? null,
      userId: owner.userId ?? null,
      createdBy: viewer.userId,
    });
    emitEvent(ctx.em, 'clinical', PATIENT_CREATED, {
      patient_id: patient.id,
      organization_id: patient.organizationId ?? null,
    });
    auditChange(ctx, {
      action: 'create',
      resourceType: RESOURCE,
      resourceId: patient.id,
      patientId: patient.id,
      organizationId: patient.organizationId,
    });
    return patient;
  }
}
