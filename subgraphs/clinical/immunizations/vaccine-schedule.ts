import { z } from 'zod';
import { clock } from '../../../shared/clock';
import raw from '../data/who-immunization-schedule.json';

/**
 * The WHO routine infant and child schedule, shipped as data (subgraphs/clinical/data/who-immunization-schedule.json,
 * source named in the file). The file is checked against this shape when the module loads, so a bad edit stops the
 * start instead of producing wrong due dates.
 */
const age = z
  .object({
    days: z.number().int().min(0),
    weeks: z.number().int().min(0),
    months: z.number().int().min(0),
    years: z.number().int().min(0),
  })
  .partial()
  .refine((a) => Object.keys(a).length === 1, 'an age is exactly one of days, weeks, months or years');

const dose = z.object({
  dose: z.number().int().min(1),
  label: z.string().optional(),
  recommended_age: age,
  minimum_age: age,
  minimum_interval: age.optional(),
  latest_age: age.optional(),
});

const vaccine = z.object({
  code: z.string().regex(/^[a-z][a-z0-9_]*$/),
  name: z.string().min(1),
  protects_against: z.array(z.string()).min(1),
  routine: z.boolean(),
  route: z.enum(['oral', 'injection', 'intranasal']),
  note: z.string(),
  doses: z.array(dose).min(1),
});

const scheduleFile = z.object({
  source: z.object({ title: z.string().min(1), publisher: z.string(), url: z.url(), tables: z.array(z.string()), scope: z.string() }),
  vaccines: z.array(vaccine).min(1),
});

export type Age = z.infer<typeof age>;
export type DoseRule = z.infer<typeof dose>;
export type VaccineRule = z.infer<typeof vaccine>;

function load() {
  const parsed = scheduleFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`immunization schedule data: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  }
  for (const v of parsed.data.vaccines) {
    if (v.doses.some((d, i) => d.dose !== i + 1)) throw new Error(`immunization schedule data: ${v.code} doses must be numbered 1, 2, ...`);
  }
  return parsed.data;
}

export const WHO_SCHEDULE = load();
export const SCHEDULE_SOURCE = `${WHO_SCHEDULE.source.title} (${WHO_SCHEDULE.source.publisher}), ${WHO_SCHEDULE.source.url}`;

export const VACCINES: ReadonlyMap<string, VaccineRule> = new Map(WHO_SCHEDULE.vaccines.map((v) => [v.code, v]));
export const VACCINE_CODES = WHO_SCHEDULE.vaccines.map((v) => v.code);
/** Vaccines for certain regions or ages that a schedule includes only when asked (`include`). */
export const OPTIONAL_VACCINE_CODES = WHO_SCHEDULE.vaccines.filter((v) => !v.routine).map((v) => v.code);
export const ROUTINE_VACCINE_CODES = WHO_SCHEDULE.vaccines.filter((v) => v.routine).map((v) => v.code);

/** Days after the due date during which a dose not given is overdue; after them it is missed. */
export const MISSED_AFTER_DAYS = 28;

/** Today's date (UTC) by the platform clock, `YYYY-MM-DD`. */
export function today(): string {
  return clock.now().toISOString().slice(0, 10);
}

/** `date` plus an age or interval, in calendar terms: a month after 31 January is the last day of February. */
export function addAge(date: string, a: Age): string {
  const months = (a.months ?? 0) + 12 * (a.years ?? 0);
  if (!months) return addDays(date, (a.days ?? 0) + 7 * (a.weeks ?? 0));
  const d = new Date(`${date}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function describeAge(a: Age): string {
  const [unit, n] = Object.entries(a)[0] as [string, number];
  return `${n} ${n === 1 ? unit.slice(0, -1) : unit}`;
}

const later = (a: string, b: string) => (a > b ? a : b);

export interface DosePlan {
  doseNumber: number;
  dueDate: string;
  earliestDate: string;
  latestDate: string | null;
}

/**
 * The dates of every dose of a vaccine for a child born on `dateOfBirth`. A later dose waits at least its minimum
 * interval after the previous one: after the date it was given when it was, else after that dose's own dates. So
 * a series started late moves its later doses with it instead of marking them missed.
 */
export function planVaccine(v: VaccineRule, dateOfBirth: string, givenOn: ReadonlyMap<number, string>): DosePlan[] {
  const plans: DosePlan[] = [];
  for (const d of v.doses) {
    let due = addAge(dateOfBirth, d.recommended_age);
    let earliest = addAge(dateOfBirth, d.minimum_age);
    const prev = plans[plans.length - 1];
    if (prev && d.minimum_interval) {
      const given = givenOn.get(prev.doseNumber);
      due = later(due, addAge(given ?? prev.dueDate, d.minimum_interval));
      earliest = later(earliest, addAge(given ?? prev.earliestDate, d.minimum_interval));
    }
    plans.push({
      doseNumber: d.dose,
      dueDate: due,
      earliestDate: earliest,
      latestDate: d.latest_age ? addAge(dateOfBirth, d.latest_age) : null,
    });
  }
  return plans;
}
