import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import { auditChange, auditPatientRead, auditRead, auditRowChange } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import { AppError, errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { organizationsWith, requireUser, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { signToken } from '../../../shared/tokens';
import { readablePatient } from '../access/patient-access';
import { Allergy } from '../allergies/allergy.entity';
import { ClinicalRecord } from '../clinical-records/clinical-record.entity';
import { DoseState, Immunization } from '../immunizations/immunization.entity';
import { LabResult } from '../labs/lab.entity';
import { linkedPatientIds } from '../mpi/mpi.service';
import { Observation, ObservationCategory, ObservationStatus } from '../observations/observation.entity';
import { Prescription } from '../prescriptions/prescription.entity';
import { Vital, VitalStatus } from '../vitals/vital.entity';
import { fhirBaseUrl, toFhirPatient, type FhirResource } from './fhir';
import {
  allergyIntolerance,
  immunization,
  labObservation,
  medicationRequest,
  parseVitalObservationId,
  recordedObservation,
  vitalObservations,
} from './fhir-resources';
import { breakerFor, CircuitOpenError, exchangeFor, UpstreamError, type HieAdapter } from './hie';
import { SmartLaunch } from './interop.entity';
import { FhirResourceType, PurposeOfUse, type CreateSmartLaunchInput, type HieCountryCode, type SmartLaunchResult } from './interop.types';
import { checkNationalId } from './national-ids';

/** The claim that marks a signed launch handle (PASETO, typ `internal`). */
export const SMART_LAUNCH_PURPOSE = 'smart_launch';

const mask = (id: string) => (id.length <= 4 ? '****' : `${'*'.repeat(id.length - 4)}${id.slice(-4)}`);

export const MAX_FHIR_COUNT = 100;

export class InteropService {
  /**
   * Cross-border lookup of a patient by national id through the country's health information exchange, for
   * clinicians (clinical:read in an organization) and administrators. Every lookup that gets past authentication and
   * the id's format leaves an audit entry with its purpose of use and outcome, refused endpoints included.
   */
  async crossBorder(
    ctx: SubgraphContext,
    args: { nationalId: string; country: HieCountryCode; hieEndpoint?: string | null; purposeOfUse?: PurposeOfUse | null },
  ): Promise<FhirResource> {
    const viewer = requireViewer(ctx.viewer);
    const orgs = organizationsWith(viewer, 'clinical:read');
    if (orgs !== null && !orgs.length) throw errors.forbidden('Cross-border lookup is for clinicians and administrators');
    const checked = checkNationalId(args.country, args.nationalId);
    if (!checked.ok) throw errors.invalidField('nationalId', checked.reason);
    const purpose = args.purposeOfUse ?? PurposeOfUse.TREAT;
    const audit = (outcome: string, extra: Record<string, unknown> = {}) => {
      auditChange(ctx, {
        action: 'cross_border_lookup',
        resourceType: 'cross_border_patient',
        details: {
          country: args.country,
          national_id: mask(checked.id),
          purpose_of_use: purpose,
          outcome,
          ...(args.hieEndpoint ? { requested_endpoint: args.hieEndpoint } : {}),
          ...extra,
        },
      });
      return ctx.em.flush();
    };
    let adapter: HieAdapter;
    try {
      adapter = exchangeFor(args.country, args.hieEndpoint);
    } catch (err) {
      await audit('refused', { reason: (err as Error).message });
      throw err;
    }
    try {
      const found = await breakerFor(adapter.name).run(
        () => adapter.search(args.country, checked.id),
        (err) => err instanceof UpstreamError || !(err instanceof AppError),
      );
      await audit(found.patients.length ? 'found' : 'not_found', { exchange: adapter.name, results: found.patients.length });
      return searchset(
        found.patients.map((p) => ({ ...p, meta: { ...((p.meta as object) ?? {}), source: found.source } })),
        found.source.startsWith('http') ? (p) => `${found.source}/Patient/${p.id}` : undefined,
        { source: found.source },
      );
    } catch (err) {
      if (err instanceof AppError) {
        await audit('refused', { exchange: adapter.name, reason: err.message });
        throw err;
      }
      const open = err instanceof CircuitOpenError;
      await audit(open ? 'circuit_open' : 'failed', { exchange: adapter.name, reason: (err as Error).message });
      throw errors.serviceUnavailable(
        open
          ? `The health information exchange of ${args.country} is failing; lookups are paused for a while`
          : `The health information exchange of ${args.country} ${(err as Error).message}`,
      );
    }
  }

  /** An EHR launch: the launch context is recorded, and the app's launch URL answered with `iss` and `launch`. */
  async createLaunch(ctx: SubgraphContext, input: CreateSmartLaunchInput): Promise<SmartLaunchResult> {
    const viewer = requireUser(ctx.viewer);
    const client = config().SMART_CLIENTS.find((c) => c.client_id === input.clientId);
    if (!client) throw errors.invalidField('clientId', 'is not a registered SMART app');
    const patient = await readablePatient(ctx, input.patientId);
    if (input.encounterId) {
      const encounter = isUuid(input.encounterId)
        ? await ctx.em.findOne(ClinicalRecord, { id: input.encounterId, patientId: patient.id })
        : null;
      if (!encounter || encounter.deletedAt) throw errors.notFound('Encounter');
    }
    const ttl = config().SMART_LAUNCH_TTL_SECONDS;
    const launch = ctx.em.create(SmartLaunch, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      clientId: client.client_id,
      encounterId: input.encounterId ?? null,
      launchedBy: viewer.userId,
      expiresAt: new Date(clock.nowMs() + ttl * 1000),
    });
    auditRowChange(ctx, 'launch', 'smart_launch', launch, { client_id: client.client_id });
    await ctx.em.flush();
    const handle = await signToken(
      {
        sub: viewer.userId,
        typ: 'internal',
        purpose: SMART_LAUNCH_PURPOSE,
        sid: viewer.sessionId,
        jti: launch.id,
        client_id: client.client_id,
        patient: patient.id,
        encounter: input.encounterId ?? undefined,
      },
      ttl,
    );
    const iss = fhirBaseUrl();
    const url = new URL(client.launch_url);
    url.searchParams.set('iss', iss);
    url.searchParams.set('launch', handle);
    return { context: launch, launchUrl: url.toString(), iss, launch: handle };
  }

  /**
   * One resource by id, under the same access rules as REST (the patient must be readable by the caller) and
   * audited. `compartment` narrows it to one patient's (a SMART app's patient context): others are not found.
   */
  async read(ctx: SubgraphContext, type: FhirResourceType, id: string, compartment?: string | null): Promise<FhirResource> {
    requireViewer(ctx.viewer);
    const notFound = () => errors.notFound(type);
    const inCompartment = (patientId: string) => {
      if (compartment && compartment !== patientId) throw notFound();
    };
    const audited = (resourceType: string, row: { id: string; patientId: string; organizationId?: string | null }) =>
      auditRead(ctx, {
        action: 'read',
        resourceType,
        resourceId: row.id,
        patientId: row.patientId,
        organizationId: row.organizationId,
        details: { format: 'fhir' },
      });
    const row = async <T extends { id: string; patientId: string; organizationId?: string | null }>(
      entity: EntityClass<T>,
      rowId: string,
      where: FilterQuery<T> = {} as FilterQuery<T>,
    ) => {
      const found = isUuid(rowId) ? await ctx.em.findOne(entity, { $and: [{ id: rowId }, where] } as FilterQuery<T>) : null;
      if (!found) throw notFound();
      inCompartment(found.patientId);
      await readablePatient(ctx, found.patientId).catch(() => {
        throw notFound();
      });
      return found;
    };
    switch (type) {
      case FhirResourceType.Patient: {
        if (!isUuid(id)) throw notFound();
        inCompartment(id);
        const patient = await readablePatient(ctx, id, 'patients:read').catch(() => {
          throw notFound();
        });
        auditRead(ctx, {
          action: 'read',
          resourceType: 'patient',
          resourceId: patient.id,
          patientId: patient.id,
          organizationId: patient.organizationId,
          details: { format: 'fhir' },
        });
        return toFhirPatient(patient, await linkedPatientIds(ctx.em, patient.id));
      }
      case FhirResourceType.Observation: {
        const vitalRef = parseVitalObservationId(id);
        if (vitalRef) {
          const vital = await row(Vital, vitalRef.vitalId, { status: { $ne: VitalStatus.entered_in_error } });
          const obs = vitalObservations(vital).find((o) => o.id === id);
          if (!obs) throw notFound();
          audited('vital', vital);
          return obs;
        }
        if (!isUuid(id)) throw notFound();
        const lab = await ctx.em.findOne(LabResult, { id });
        if (lab) {
          const r = await row(LabResult, id);
          audited('lab_result', r);
          return labObservation(r);
        }
        const o = await row(Observation, id, { status: { $ne: ObservationStatus.entered_in_error } });
        audited('observation', o);
        return recordedObservation(o);
      }
      case FhirResourceType.AllergyIntolerance: {
        const a = await row(Allergy, id);
        audited('allergy', a);
        return allergyIntolerance(a);
      }
      case FhirResourceType.MedicationRequest: {
        const p = await row(Prescription, id);
        audited('prescription', p);
        return medicationRequest(p);
      }
      case FhirResourceType.Immunization: {
        const i = await row(Immunization, id, { state: DoseState.administered });
        audited('immunization', i);
        return immunization(i);
      }
    }
  }

  /** A patient's resources of one type, newest first, at most `count` (a searchset Bundle). */
  async search(
    ctx: SubgraphContext,
    type: FhirResourceType,
    patientId: string,
    opts: { category?: string | null; count?: number | null; compartment?: string | null },
  ): Promise<FhirResource> {
    requireViewer(ctx.viewer);
    if (opts.compartment && opts.compartment !== patientId) throw errors.notFound('Patient');
    const patient = await readablePatient(ctx, patientId, type === FhirResourceType.Patient ? 'patients:read' : 'clinical:read');
    const count = Math.min(Math.max(opts.count ?? 50, 1), MAX_FHIR_COUNT);
    const newest = <T extends object>(entity: EntityClass<T>, where: FilterQuery<T>, orderBy: Record<string, 'desc'>) =>
      ctx.em.find(entity, { $and: [{ patientId: patient.id }, where] } as FilterQuery<T>, { orderBy: orderBy as never, limit: count });
    let resources: FhirResource[] = [];
    switch (type) {
      case FhirResourceType.Patient:
        resources = [toFhirPatient(patient, await linkedPatientIds(ctx.em, patient.id))];
        break;
      case FhirResourceType.Observation: {
        const cat = opts.category ?? null;
        if (cat && !['vital-signs', 'laboratory', 'exam', 'survey', 'social-history'].includes(cat))
          throw errors.invalidField('category', 'must be vital-signs, laboratory, exam, survey or social-history');
        const timed: { at: number; r: FhirResource }[] = [];
        if (!cat || cat === 'vital-signs') {
          for (const v of await newest(Vital, { status: { $ne: VitalStatus.entered_in_error } }, { recordedAt: 'desc' })) {
            for (const r of vitalObservations(v)) timed.push({ at: v.recordedAt.getTime(), r });
          }
        }
        if (!cat || cat === 'laboratory') {
          for (const l of await newest(LabResult, {}, { createdAt: 'desc' }))
            timed.push({ at: (l.observedAt ?? l.createdAt).getTime(), r: labObservation(l) });
        }
        const recordedCategory = cat ? (cat.replace(/-/g, '_') as ObservationCategory) : null;
        for (const o of await newest(
          Observation,
          { status: { $ne: ObservationStatus.entered_in_error }, ...(recordedCategory ? { category: recordedCategory } : {}) },
          { effectiveAt: 'desc' },
        )) {
          timed.push({ at: o.effectiveAt.getTime(), r: recordedObservation(o) });
        }
        resources = timed
          .sort((a, b) => b.at - a.at)
          .slice(0, count)
          .map((t) => t.r);
        break;
      }
      case FhirResourceType.AllergyIntolerance:
        resources = (await newest(Allergy, {}, { createdAt: 'desc' })).map(allergyIntolerance);
        break;
      case FhirResourceType.MedicationRequest:
        resources = (await newest(Prescription, {}, { createdAt: 'desc' })).map(medicationRequest);
        break;
      case FhirResourceType.Immunization:
        resources = (await newest(Immunization, { state: DoseState.administered }, { administeredOn: 'desc' })).map(immunization);
        break;
    }
    auditPatientRead(ctx, 'search', type === FhirResourceType.Patient ? 'patient' : `fhir_${type}`, patient, {
      format: 'fhir',
      count: resources.length,
      ...(opts.category ? { category: opts.category } : {}),
    });
    return searchset(resources, (r) => `${fhirBaseUrl()}/${r.resourceType}/${r.id}`);
  }
}

/** A searchset Bundle of `resources` (all of them matches). */
export function searchset(
  resources: FhirResource[],
  fullUrl?: (r: FhirResource) => string,
  meta: Record<string, unknown> = {},
): FhirResource {
  return {
    resourceType: 'Bundle',
    meta: { lastUpdated: clock.now().toISOString(), ...meta },
    type: 'searchset',
    total: resources.length,
    // FHIR JSON has no empty arrays: an empty result has no `entry`.
    ...(resources.length
      ? {
          entry: resources.map((resource) => ({ ...(fullUrl ? { fullUrl: fullUrl(resource) } : {}), resource, search: { mode: 'match' } })),
        }
      : {}),
  };
}
