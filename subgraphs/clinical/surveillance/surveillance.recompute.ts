import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '../../../shared/db';
import { ClinicalRecord } from '../clinical-records/clinical-record.entity';
import { NotifiableCase } from '../public-health/case.entity';
import { addDays, daysBetween } from '../public-health/periods';
import { lockKey } from '../public-health/sql';
import { earsAt, HISTORY_DAYS } from './ears';
import { EarsAlgorithm, SurveillanceAlert, SyndromeDailyCount } from './surveillance.entity';
import { syndromeOfIcd10, syndromesOfComplaint } from './syndromes';

/**
 * Daily syndrome counts and their EARS alerts, recomputed from the sources for a range of days (and one
 * organization, or all): the result depends only on what the sources hold, so running it twice, or for an event
 * delivered twice, changes nothing. Rows whose values did not change keep their id; counts that fell to zero and
 * alerts that no longer hold are removed. Every recomputation takes one advisory lock, so the consumer and the
 * scheduled job never write the same rows at once.
 */
export interface Range {
  organizationId?: string;
  /** First and last day, `YYYY-MM-DD`, inclusive. */
  from: string;
  to: string;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const dateString = (v: string | Date) => (v instanceof Date ? dayOf(v) : v);

interface Tally {
  organizationId: string;
  syndromeCode: string;
  date: string;
  patients: Set<string>;
  encounters: Set<string>;
  cases: Set<string>;
}

async function recomputeCounts(em: EntityManager, range: Range): Promise<void> {
  const org = range.organizationId ? { organizationId: range.organizationId } : { organizationId: { $ne: null } };
  const tallies = new Map<string, Tally>();
  const tally = (organizationId: string, syndromeCode: string, date: string) => {
    const key = `${organizationId}|${syndromeCode}|${date}`;
    let t = tallies.get(key);
    if (!t) tallies.set(key, (t = { organizationId, syndromeCode, date, patients: new Set(), encounters: new Set(), cases: new Set() }));
    return t;
  };
  const records = await em.find(
    ClinicalRecord,
    {
      ...org,
      deletedAt: null,
      chiefComplaint: { $ne: null },
      createdAt: { $gte: new Date(`${range.from}T00:00:00Z`), $lt: new Date(`${addDays(range.to, 1)}T00:00:00Z`) },
    } as FilterQuery<ClinicalRecord>,
    { fields: ['patientId', 'organizationId', 'chiefComplaint', 'createdAt'] },
  );
  for (const r of records) {
    for (const code of syndromesOfComplaint(r.chiefComplaint!)) {
      const t = tally(r.organizationId!, code, dayOf(r.createdAt));
      t.patients.add(r.patientId);
      t.encounters.add(r.patientId);
    }
  }
  const cases = await em.find(
    NotifiableCase,
    // A repeat report of a case is not the case again: only first reports count, on their onset day.
    { ...org, primaryCaseId: null, onsetDate: { $gte: range.from, $lte: range.to } } as FilterQuery<NotifiableCase>,
    { fields: ['patientId', 'organizationId', 'icd10Code', 'onsetDate'] },
  );
  for (const c of cases) {
    const code = syndromeOfIcd10(c.icd10Code);
    if (!code) continue;
    const t = tally(c.organizationId!, code, dateString(c.onsetDate));
    t.patients.add(c.patientId);
    t.cases.add(c.patientId);
  }

  const existing = await em.find(SyndromeDailyCount, {
    ...org,
    date: { $gte: range.from, $lte: range.to },
  } as FilterQuery<SyndromeDailyCount>);
  const stored = new Map(existing.map((row) => [`${row.organizationId}|${row.syndromeCode}|${dateString(row.date)}`, row]));
  for (const [key, t] of tallies) {
    const values = { count: t.patients.size, encounters: t.encounters.size, cases: t.cases.size };
    const row = stored.get(key);
    stored.delete(key);
    if (!row) em.create(SyndromeDailyCount, { organizationId: t.organizationId, syndromeCode: t.syndromeCode, date: t.date, ...values });
    else if (row.count !== values.count || row.encounters !== values.encounters || row.cases !== values.cases) em.assign(row, values);
  }
  for (const gone of stored.values()) em.remove(gone);
  await em.flush();
}

async function recomputeAlerts(em: EntityManager, range: Range): Promise<void> {
  const org = range.organizationId ? { organizationId: range.organizationId } : {};
  const historyFrom = addDays(range.from, -HISTORY_DAYS.c3);
  const counts = await em.find(SyndromeDailyCount, {
    ...org,
    date: { $gte: historyFrom, $lte: range.to },
  } as FilterQuery<SyndromeDailyCount>);
  const length = daysBetween(historyFrom, range.to) + 1;
  const series = new Map<string, number[]>();
  for (const row of counts) {
    const key = `${row.organizationId}|${row.syndromeCode}`;
    let s = series.get(key);
    if (!s) series.set(key, (s = new Array<number>(length).fill(0)));
    s[daysBetween(historyFrom, dateString(row.date))] = row.count;
  }
  const wanted = new Map<string, Partial<SurveillanceAlert>>();
  for (const [key, s] of series) {
    const [organizationId, syndromeCode] = key.split('|');
    for (let date = range.from; date <= range.to; date = addDays(date, 1)) {
      const t = daysBetween(historyFrom, date);
      for (const r of earsAt(s, t)) {
        if (!r.alert) continue;
        wanted.set(`${key}|${date}|${r.method}`, {
          organizationId,
          syndromeCode,
          date,
          algorithm: r.method as EarsAlgorithm,
          observed: r.observed,
          baselineStart: addDays(date, r.baselineFrom),
          baselineEnd: addDays(date, r.baselineTo),
          baselineMean: r.mean,
          baselineSd: r.sd,
          sigma: r.sigma,
          statistic: r.statistic,
          threshold: r.threshold,
          upperBound: r.upperBound,
        });
      }
    }
  }
  const existing = await em.find(SurveillanceAlert, {
    ...org,
    date: { $gte: range.from, $lte: range.to },
  } as FilterQuery<SurveillanceAlert>);
  for (const alert of existing) {
    const key = `${alert.organizationId}|${alert.syndromeCode}|${dateString(alert.date)}|${alert.algorithm}`;
    const values = wanted.get(key);
    wanted.delete(key);
    if (!values) em.remove(alert);
    else if (ALERT_VALUES.some((f) => alert[f] !== values[f])) em.assign(alert, pick(values));
  }
  for (const values of wanted.values()) em.create(SurveillanceAlert, values as SurveillanceAlert);
  await em.flush();
}

const ALERT_VALUES = ['observed', 'baselineMean', 'baselineSd', 'sigma', 'statistic', 'threshold', 'upperBound'] as const;
const pick = (v: Partial<SurveillanceAlert>) => Object.fromEntries(ALERT_VALUES.map((f) => [f, v[f]]));

/**
 * Recomputes the counts of `range` and the alerts they can change: a day's count is in the baseline of the next 11
 * days (C3 reads C2 two days back, whose baseline starts 9 days before that), up to `today`.
 */
export async function recompute(em: EntityManager, range: Range, today: string): Promise<void> {
  await lockKey(em, 'surveillance-recompute');
  await recomputeCounts(em, range);
  const to = [addDays(range.to, HISTORY_DAYS.c3), today].sort()[0];
  if (range.from <= to) await recomputeAlerts(em, { organizationId: range.organizationId, from: range.from, to });
}

/** Days the scheduled recomputation covers, ending today: two weeks, more than any EARS baseline reaches. */
export const SCHEDULED_WINDOW_DAYS = 14;
