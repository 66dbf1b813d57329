import { LockMode } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageArgs, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { auditChange, auditPatientRead } from '../../../shared/audit/audit-trail';
import type { Patient } from '../patients/patient.entity';
import {
  DoseFlag,
  DoseState,
  INJECTION_SITES,
  Immunization,
  ImmunizationAdverseEvent,
  ImmunizationStatus,
  VACCINE_DOSE,
} from './immunization.entity';
import type {
  AdministerImmunizationInput,
  GenerateImmunizationScheduleInput,
  ImmunizationAdverseEventInput,
  ImmunizationSchedule,
} from './immunization.types';
import {
  MISSED_AFTER_DAYS,
  ROUTINE_VACCINE_CODES,
  SCHEDULE_SOURCE,
  VACCINES,
  VACCINE_CODES,
  addAge,
  addDays,
  describeAge,
  planVaccine,
  today,
  type VaccineRule,
} from './vaccine-schedule';

/** Outcomes that make an AEFI serious under the WHO definition, when the reporter does not say. */
const SERIOUS_OUTCOMES = ['died', 'recovered_with_sequelae'];

const RESOURCE = 'immunization';
const AEFI_RESOURCE = 'immunization_adverse_event';
const VACCINE_ORDER = new Map(VACCINE_CODES.map((code, i) => [code, i]));

/** A dose's status on `asOf`: given, past its latest age, or by how far past its due date it is. */
export function doseStatus(dose: Immunization, asOf = today()): ImmunizationStatus {
  if (dose.state === DoseState.administered) return ImmunizationStatus.administered;
  if (dose.latestDate && asOf >= dose.latestDate) return ImmunizationStatus.not_applicable;
  if (asOf <= dose.dueDate) return ImmunizationStatus.due;
  return asOf <= addDays(dose.dueDate, MISSED_AFTER_DAYS) ? ImmunizationStatus.overdue : ImmunizationStatus.missed;
}

function bySchedule(a: Immunization, b: Immunization): number {
  return a.dueDate.localeCompare(b.dueDate) || VACCINE_ORDER.get(a.vaccine)! - VACCINE_ORDER.get(b.vaccine)! || a.doseNumber - b.doseNumber;
}

/** The route a site belongs to, to match it with the vaccine's (an oral vaccine is not injected). */
function routeOf(site: string): string {
  return (INJECTION_SITES as readonly string[]).includes(site) ? 'injection' : site;
}

export class ImmunizationService {
  async schedule(ctx: SubgraphContext, patientId: string): Promise<ImmunizationSchedule> {
    return this.scheduleOf(ctx, await readablePatient(ctx, patientId));
  }

  /** The schedule of a patient the caller was allowed to read (`schedule`, `patient { immunizationSchedule }`). */
  async scheduleOf(ctx: SubgraphContext, patient: Patient): Promise<ImmunizationSchedule> {
    const schedule = await this.load(ctx, patient);
    auditPatientRead(ctx, 'read', RESOURCE, patient, { doses: schedule.doses.length, adverse_events: schedule.adverseEvents.length });
    return schedule;
  }

  /**
   * Plans every dose of the routine vaccines (and the optional ones asked for) from the date of birth. Run again,
   * it adds what is missing and moves the dates of doses not yet given (after a corrected date of birth, or a dose
   * given late); doses given are never touched.
   */
  async generate(ctx: SubgraphContext, patientId: string, input: GenerateImmunizationScheduleInput): Promise<ImmunizationSchedule> {
    const patient = await writablePatient(ctx, patientId);
    const existing = await ctx.em.find(Immunization, { patientId: patient.id });
    const wanted = new Set([...ROUTINE_VACCINE_CODES, ...(input.include ?? []), ...existing.map((d) => d.vaccine)]);
    const created: Immunization[] = [];
    for (const code of VACCINE_CODES.filter((c) => wanted.has(c))) {
      const rows = existing.filter((d) => d.vaccine === code);
      for (const plan of planVaccine(VACCINES.get(code)!, patient.dateOfBirth, this.givenOn(rows))) {
        const row = rows.find((d) => d.doseNumber === plan.doseNumber);
        if (row?.state === DoseState.administered) continue;
        if (row) ctx.em.assign(row, plan);
        else
          created.push(
            ctx.em.create(Immunization, { patientId: patient.id, organizationId: patient.organizationId ?? null, vaccine: code, ...plan }),
          );
      }
    }
    auditChange(ctx, {
      action: 'generate',
      resourceType: RESOURCE,
      patientId: patient.id,
      organizationId: patient.organizationId,
      details: { created: created.length, vaccines: [...new Set(created.map((d) => d.vaccine))] },
    });
    await ctx.em.flush();
    return { ...(await this.load(ctx, patient)), created: created.length };
  }

  /**
   * Records a dose. Doses of a vaccine are given in order (409 otherwise); one given before its minimum age or
   * interval, or past its latest age, is refused (409) unless an override reason is given: it is then kept,
   * flagged, with the reason.
   */
  async administer(ctx: SubgraphContext, patientId: string, input: AdministerImmunizationInput): Promise<Immunization> {
    const patient = await writablePatient(ctx, patientId);
    const vaccine = VACCINES.get(input.vaccine)!;
    const givenOn = input.administeredOn ?? today();
    if (givenOn > today()) throw errors.invalidField('administeredOn', 'must not be in the future');
    if (givenOn < patient.dateOfBirth)
      throw errors.invalidField('administeredOn', `must not be before the date of birth (${patient.dateOfBirth})`);
    if (routeOf(input.site) !== vaccine.route) {
      throw errors.invalidField(
        'site',
        `must be ${vaccine.route === 'injection' ? `an injection site (${INJECTION_SITES.join(', ')})` : vaccine.route} for ${vaccine.code}`,
      );
    }
    if (input.doseNumber !== undefined && input.doseNumber > vaccine.doses.length) {
      throw errors.invalidField(
        'doseNumber',
        `must be at most ${vaccine.doses.length}: ${vaccine.code} has ${vaccine.doses.length} dose${vaccine.doses.length === 1 ? '' : 's'}`,
      );
    }
    // The vaccine's rows are locked so that two people recording the same dose at once get one dose and a 409.
    return ctx.em.transactional(async (em) => {
      const rows = await em.find(
        Immunization,
        { patientId: patient.id, vaccine: vaccine.code },
        { orderBy: { doseNumber: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const doseNumber = input.doseNumber ?? this.nextDose(vaccine, rows);
      const given = this.givenOn(rows);
      const plan = planVaccine(vaccine, patient.dateOfBirth, given)[doseNumber - 1];
      let dose = rows.find((d) => d.doseNumber === doseNumber);
      const state = VACCINE_DOSE.next(dose?.state ?? DoseState.scheduled, 'administer');

      const previous = given.get(doseNumber - 1);
      if (doseNumber > 1 && !previous) {
        throw errors.conflict(`Dose ${doseNumber - 1} of ${vaccine.code} has not been given: record it before dose ${doseNumber}`);
      }
      if (previous && givenOn < previous) {
        throw errors.conflict(
          `Dose ${doseNumber - 1} of ${vaccine.code} was given on ${previous}, after ${givenOn}: doses are given in order`,
        );
      }
      const flags = this.breaches(vaccine, doseNumber, plan, patient.dateOfBirth, givenOn, previous);
      if (flags.length && !input.overrideReason) {
        throw errors.conflict(
          `Dose ${doseNumber} of ${vaccine.code} on ${givenOn} is ${flags.map((f) => f.message).join(' and ')}; give override_reason to record it anyway`,
        );
      }

      dose ??= em.create(Immunization, {
        patientId: patient.id,
        organizationId: patient.organizationId ?? null,
        vaccine: vaccine.code,
        ...plan,
      });
      em.assign(dose, {
        state,
        administeredOn: givenOn,
        lotNumber: input.lotNumber.trim(),
        site: input.site,
        notes: input.notes ?? null,
        administeredBy: ctx.viewer!.userId,
        flagged: flags.length > 0,
        flags: flags.map((f) => DoseFlag[f.flag]),
        overrideReason: flags.length ? input.overrideReason!.trim() : null,
      });
      // The next dose waits its minimum interval after this one: move its dates.
      const next = rows.find((d) => d.doseNumber === doseNumber + 1 && d.state === DoseState.scheduled);
      if (next) em.assign(next, planVaccine(vaccine, patient.dateOfBirth, new Map([...given, [doseNumber, givenOn]]))[doseNumber]);
      auditChange(
        { ...ctx, em },
        {
          action: 'administer',
          resourceType: RESOURCE,
          resourceId: dose.id,
          patientId: patient.id,
          organizationId: patient.organizationId,
          details: { vaccine: vaccine.code, dose_number: doseNumber, administered_on: givenOn, flags: dose.flags },
        },
      );
      return dose;
    });
  }

  /** Doses not given more than MISSED_AFTER_DAYS past their due date, and not yet past their latest age. */
  async missed(ctx: SubgraphContext, patientId: string, args: PageArgs): Promise<PageResult<Immunization>> {
    const patient = await readablePatient(ctx, patientId);
    const now = today();
    const page = await paginate(
      ctx.em,
      Immunization,
      {
        patientId: patient.id,
        state: DoseState.scheduled,
        dueDate: { $lt: addDays(now, -MISSED_AFTER_DAYS) },
        $or: [{ latestDate: null }, { latestDate: { $gt: now } }],
      },
      args,
      { dueDate: 'asc', vaccine: 'asc', doseNumber: 'asc' },
    );
    auditPatientRead(ctx, 'list', RESOURCE, patient, { missed: page.total });
    return page;
  }

  /** Reports an adverse event following immunization against a dose given here, or against a vaccine. */
  async reportAdverseEvent(
    ctx: SubgraphContext,
    patientId: string,
    input: ImmunizationAdverseEventInput,
  ): Promise<ImmunizationAdverseEvent> {
    const patient = await writablePatient(ctx, patientId);
    if (!input.immunizationId && !input.vaccine) throw errors.invalidField('immunizationId', 'or vaccine is required');
    let dose: Immunization | null = null;
    if (input.immunizationId) {
      dose = isUuid(input.immunizationId) ? await ctx.em.findOne(Immunization, { id: input.immunizationId, patientId: patient.id }) : null;
      if (dose?.state !== DoseState.administered)
        throw errors.invalidField('immunizationId', 'must be an administered dose of this patient');
      if (input.vaccine && input.vaccine !== dose.vaccine)
        throw errors.invalidField('vaccine', `must be the dose's vaccine (${dose.vaccine})`);
    }
    if (input.onsetDate > today()) throw errors.invalidField('onsetDate', 'must not be in the future');
    const after = dose?.administeredOn ?? patient.dateOfBirth;
    if (input.onsetDate < after)
      throw errors.invalidField('onsetDate', `must not be before ${dose ? 'the dose was given' : 'the date of birth'} (${after})`);
    // WHO: seriousness is about the outcome (death, disability, hospitalization), not how strong the reaction was.
    const serious = input.serious ?? SERIOUS_OUTCOMES.includes(input.outcome ?? '');
    if (input.outcome === 'died' && !serious) throw errors.invalidField('serious', 'must be true when the outcome is death');
    const event = ctx.em.create(ImmunizationAdverseEvent, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      immunizationId: dose?.id ?? null,
      vaccine: dose?.vaccine ?? input.vaccine!,
      onsetDate: input.onsetDate,
      description: input.description.trim(),
      severity: input.severity,
      serious,
      outcome: input.outcome ?? null,
      reportedBy: ctx.viewer!.userId,
    });
    auditChange(ctx, {
      action: 'create',
      resourceType: AEFI_RESOURCE,
      resourceId: event.id,
      patientId: patient.id,
      organizationId: patient.organizationId,
      details: { vaccine: event.vaccine, immunization_id: event.immunizationId, severity: event.severity, serious: event.serious },
    });
    await ctx.em.flush();
    return event;
  }

  private async load(ctx: SubgraphContext, patient: Patient): Promise<ImmunizationSchedule> {
    const [doses, adverseEvents] = await Promise.all([
      ctx.em.find(Immunization, { patientId: patient.id }),
      ctx.em.find(ImmunizationAdverseEvent, { patientId: patient.id }, { orderBy: { onsetDate: 'desc', createdAt: 'desc' } }),
    ]);
    return {
      patientId: patient.id,
      dateOfBirth: patient.dateOfBirth,
      asOf: today(),
      missedAfterDays: MISSED_AFTER_DAYS,
      source: SCHEDULE_SOURCE,
      created: null,
      doses: doses.sort(bySchedule),
      adverseEvents,
    };
  }

  private givenOn(rows: Immunization[]): Map<number, string> {
    return new Map(rows.filter((d) => d.state === DoseState.administered).map((d) => [d.doseNumber, d.administeredOn!]));
  }

  private nextDose(vaccine: VaccineRule, rows: Immunization[]): number {
    const given = new Set(rows.filter((d) => d.state === DoseState.administered).map((d) => d.doseNumber));
    const next = vaccine.doses.find((d) => !given.has(d.dose));
    if (!next) throw errors.conflict(`Every dose of ${vaccine.code} has already been given`);
    return next.dose;
  }

  /** The schedule rules a dose given on `givenOn` breaks. */
  private breaches(
    vaccine: VaccineRule,
    doseNumber: number,
    plan: { latestDate: string | null },
    dateOfBirth: string,
    givenOn: string,
    previous?: string,
  ) {
    const rule = vaccine.doses[doseNumber - 1];
    const out: { flag: `${DoseFlag}`; message: string }[] = [];
    const minimumAge = addAge(dateOfBirth, rule.minimum_age);
    if (givenOn < minimumAge)
      out.push({ flag: 'before_minimum_age', message: `before the minimum age of ${describeAge(rule.minimum_age)} (${minimumAge})` });
    if (previous && rule.minimum_interval) {
      const earliest = addAge(previous, rule.minimum_interval);
      if (givenOn < earliest) {
        out.push({
          flag: 'before_minimum_interval',
          message: `less than ${describeAge(rule.minimum_interval)} after dose ${doseNumber - 1} (not before ${earliest})`,
        });
      }
    }
    if (plan.latestDate && givenOn >= plan.latestDate) {
      out.push({ flag: 'after_latest_age', message: `past the latest age of ${describeAge(rule.latest_age!)} (${plan.latestDate})` });
    }
    return out;
  }
}
