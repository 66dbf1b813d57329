import { randomUUID } from 'node:crypto';
import { resetConfig } from '../shared/config';
import type { EntityManager } from '../shared/db';
import type { ConsumerContext } from '../shared/events';
import { SYSTEM_VIEWER } from '../shared/viewer';
import { addDays, weeklyPeriodOf } from '../subgraphs/clinical/public-health/periods';
import { surveillanceRecompute, surveillanceSchedule } from '../subgraphs/clinical/surveillance/surveillance.consumers';
import { SurveillanceAlert, SyndromeDailyCount } from '../subgraphs/clinical/surveillance/surveillance.entity';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type Api, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { eventually } from './support/wait';

let app: TestApp;
let c: Clinic;
let other: Clinic;
let admin: Api;
let stranger: Awaited<ReturnType<typeof outsider>>;

const today = new Date().toISOString().slice(0, 10);
const week = weeklyPeriodOf(today);

beforeAll(async () => {
  app = await startApp();
  [c, other] = [await clinic(app), await clinic(app)];
  stranger = await outsider(app);
  admin = await signInAdmin(app.api);
});
afterAll(async () => {
  delete process.env.REPORTSYS_MAPPING;
  resetConfig();
  await app.close();
});

async function newPatient(k: Clinic, n: number): Promise<string> {
  const res = await k.doctor.api.post(`/api/organizations/${k.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: `Patient ${n}` });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function reportMeasles(k: Clinic, onset: string, n: number): Promise<void> {
  const res = await k.doctor.api.post('/api/public-health/cases', {
    patient_id: await newPatient(k, n),
    icd10_code: 'B05.9',
    onset_date: onset,
    classification: 'suspected',
  });
  expect(res.status).toBe(201);
}

const alertsOf = async (api: Api, query: string) => {
  const res = await api.get(`/api/surveillance/alerts?limit=100&${query}`);
  expect(res.status).toBe(200);
  return res.body.data as Record<string, any>[];
};

/** The scheduled recomputation, as the scheduler runs it: in one transaction. */
const runJob = () => app.em('clinical').transactional((tx) => surveillanceSchedule.run({ em: tx as EntityManager, now: new Date() }));

const countOf = (organizationId: string, syndromeCode: string, date: string) =>
  app.em('clinical').findOne(SyndromeDailyCount, { organizationId, syndromeCode, date });

describe('monitored syndromes', () => {
  it('lists the syndromes with their ICD-10 codes and chief complaint terms', async () => {
    const res = await c.nurse.api.get('/api/surveillance/syndromes?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 100, total: res.body.data.length });
    const codes = res.body.data.map((s: { code: string }) => s.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        'ili',
        'sari',
        'acute_watery_diarrhoea',
        'acute_flaccid_paralysis',
        'fever_rash',
        'acute_haemorrhagic_fever',
      ]),
    );
    expect(res.body.data.find((s: { code: string }) => s.code === 'fever_rash')).toMatchObject({
      name: 'Fever with rash',
      icd10: expect.arrayContaining(['B05', 'B06']),
      complaint_terms: expect.arrayContaining([['fever', 'rash']]),
    });
    expect((await c.nurse.api.get('/api/surveillance/syndromes?limit=2')).body.data).toHaveLength(2);
    expect((await app.api.get('/api/surveillance/syndromes')).status).toBe(401);
  });
});

describe('EARS alerts', () => {
  it('raises C1, C2 and C3 alerts on a burst of fever-with-rash cases after a quiet week, naming baseline and threshold', async () => {
    for (let n = 0; n < 5; n++) await reportMeasles(c, today, n);
    const alerts = await eventually(
      async () => {
        const found = await alertsOf(c.doctor.api, `syndrome_code=fever_rash&organization_id=${c.orgId}`);
        return found.filter((a) => a.observed === 5).length === 3 ? found : null;
      },
      'the EARS alerts of the burst',
      30_000,
    );
    expect(alerts.map((a) => a.algorithm).sort()).toEqual(['c1', 'c2', 'c3']);
    expect(alerts.find((a) => a.algorithm === 'c1')).toMatchObject({
      syndrome_code: 'fever_rash',
      syndrome: { code: 'fever_rash', name: 'Fever with rash' },
      organization_id: c.orgId,
      date: today,
      observed: 5,
      baseline_start: addDays(today, -7),
      baseline_end: addDays(today, -1),
      baseline_mean: 0,
      baseline_sd: 0,
      sigma: 0.5,
      statistic: 10,
      threshold: 3,
      upper_bound: 1.5,
    });
    expect(alerts.find((a) => a.algorithm === 'c2')).toMatchObject({
      baseline_start: addDays(today, -9),
      baseline_end: addDays(today, -3),
      threshold: 3,
    });
    expect(alerts.find((a) => a.algorithm === 'c3')).toMatchObject({ threshold: 2, statistic: 9 });
    expect(await countOf(c.orgId, 'fever_rash', today)).toMatchObject({ count: 5, cases: 5, encounters: 0 });
  });

  it('counts encounters by their chief complaints, each patient once a day', async () => {
    const patientId = await newPatient(c, 99);
    for (const complaint of ['Fever and rash for three days', 'Rash, high fever']) {
      const res = await c.doctor.api.post('/api/clinical-records', {
        patient_id: patientId,
        encounter_type: 'consultation',
        chief_complaint: complaint,
        notes: 'Koplik spots',
      });
      expect(res.status).toBe(201);
    }
    await c.doctor.api.post('/api/clinical-records', {
      patient_id: c.patientId,
      encounter_type: 'consultation',
      chief_complaint: 'Watery diarrhoea since last night',
    });
    // Encounters are counted by the scheduled recomputation (and with the next case report of the day).
    await runJob();
    expect(await countOf(c.orgId, 'fever_rash', today)).toMatchObject({ count: 6, cases: 5, encounters: 1 });
    expect(await countOf(c.orgId, 'acute_watery_diarrhoea', today)).toMatchObject({ count: 1, encounters: 1, cases: 0 });
    const graph = await c.doctor.api.graphql(
      'query($o: ID) { syndromeDailyCounts(organizationId: $o, syndromeCode: "fever_rash") { items { date count syndrome { name } } } }',
      { o: c.orgId },
    );
    expect(graph.body.data.syndromeDailyCounts.items).toEqual([{ date: today, count: 6, syndrome: { name: 'Fever with rash' } }]);
  });

  it('raises nothing on a series once it has been flat for the whole baseline', async () => {
    for (let d = 11; d >= 0; d--) await reportMeasles(other, addDays(today, -d), d);
    await eventually(
      async () =>
        (await app.em('clinical').count(SyndromeDailyCount, { organizationId: other.orgId, syndromeCode: 'fever_rash', count: 1 })) === 12,
      'twelve days of one case',
      30_000,
    );
    await runJob();
    // One case a day for 12 days: the step up from nothing is an aberration for C3 (C2 near 2 on three days running);
    // once the baselines hold only ones, on the last three days, nothing alerts.
    expect(await alertsOf(admin, `organization_id=${other.orgId}&from=${addDays(today, -2)}&to=${today}`)).toEqual([]);
    expect((await alertsOf(admin, `organization_id=${other.orgId}`)).map((a) => a.algorithm)).toContain('c3');
  });

  it('recomputes idempotently: the scheduled job and a redelivered event change nothing', async () => {
    const before = await app.em('clinical').find(SurveillanceAlert, { organizationId: c.orgId }, { orderBy: { algorithm: 'asc' } });
    expect(before).toHaveLength(3);
    await runJob();
    await runJob();
    const event = {
      id: randomUUID(),
      topic: 'svc.public_health.case_reported',
      timestamp: new Date().toISOString(),
      source_service: 'clinical',
      payload: { organization_id: c.orgId, onset_date: today },
    };
    for (let i = 0; i < 2; i++) {
      const em = app.em('clinical');
      await em.transactional((tx) =>
        surveillanceRecompute.handle(event, { em: tx, attempt: i, viewer: SYSTEM_VIEWER, requestId: 'test' } as unknown as ConsumerContext),
      );
    }
    const after = await app.em('clinical').find(SurveillanceAlert, { organizationId: c.orgId }, { orderBy: { algorithm: 'asc' } });
    expect(after.map((a) => [a.id, a.algorithm, a.observed, a.statistic])).toEqual(
      before.map((a) => [a.id, a.algorithm, 6, a.algorithm === 'c3' ? 11 : 12]),
    );
    expect(await countOf(c.orgId, 'fever_rash', today)).toMatchObject({ count: 6 });
    // An event that can never apply goes to the dead letter queue at once.
    await expect(surveillanceRecompute.handle({ ...event, payload: {} }, {} as ConsumerContext)).rejects.toThrow(/organization_id/);
  });

  it("shows clinicians their organizations' alerts, administrators all, and refuses everyone else", async () => {
    expect((await alertsOf(c.nurse.api, 'syndrome_code=fever_rash')).every((a) => a.organization_id === c.orgId)).toBe(true);
    expect((await alertsOf(c.nurse.api, 'syndrome_code=fever_rash')).length).toBeGreaterThan(0);
    expect(await alertsOf(stranger.api, 'syndrome_code=fever_rash')).toEqual([]);
    expect((await alertsOf(admin, 'syndrome_code=fever_rash')).map((a) => a.organization_id)).toContain(c.orgId);
    expect((await alertsOf(c.doctor.api, `algorithm=c3&from=${today}&to=${today}`)).map((a) => a.algorithm)).toEqual(['c3']);
    expect((await stranger.api.get(`/api/surveillance/alerts?organization_id=${c.orgId}`)).status).toBe(404);
    expect((await c.billing.api.get('/api/surveillance/alerts')).status).toBe(403);
    const patient = await signUp(app.api, { registration_role: 'PATIENT' });
    expect((await patient.api.get('/api/surveillance/alerts')).status).toBe(403);
    expect((await app.api.get('/api/surveillance/alerts')).status).toBe(401);
    const field = async (query: string) => (await c.doctor.api.get(`/api/surveillance/alerts?${query}`)).body.error.details[0].field;
    expect(await field('syndrome_code=plague')).toBe('syndrome_code');
    expect(await field('algorithm=c4')).toBe('algorithm');
    expect(await field('from=yesterday')).toBe('from');
    expect(await field(`from=${today}&to=${addDays(today, -1)}`)).toBe('to');
    expect(await field('organization_id=nope')).toBe('organization_id');
  });
});

describe('surveillance export on a fresh install (no REPORTSYS_MAPPING)', () => {
  it("reports every organization with counts by the built-in default: its id as the org unit's code, syndromes coded", async () => {
    expect(process.env.REPORTSYS_MAPPING).toBeUndefined();
    const res = await admin.post('/api/surveillance/export/reportsys', { period: week, organization_id: c.orgId });
    expect(res.status).toBe(200);
    const [set] = res.body.data.data_value_sets;
    expect(set).toMatchObject({
      dataSet: 'SYNDROMIC_SURVEILLANCE',
      period: week,
      orgUnit: c.orgId,
      dataSetIdScheme: 'CODE',
      orgUnitIdScheme: 'CODE',
      dataElementIdScheme: 'CODE',
    });
    const feverRash = set.dataValues.find((v: { dataElement: string }) => v.dataElement === 'SYNDROME_FEVER_RASH');
    expect(feverRash).toMatchObject({ categoryOptionCombo: 'HllvX50cXC0' });
    expect(Number(feverRash.value)).toBeGreaterThanOrEqual(6);
    expect(res.body.data.submissions[0]).toMatchObject({ status: 'success', org_unit: c.orgId, organization_id: c.orgId });
    const all = await admin.get(`/api/surveillance/export/reportsys?period=${week}`);
    expect(all.body.data.data_value_sets.map((v: { orgUnit: string }) => v.orgUnit)).toEqual(
      expect.arrayContaining([c.orgId, other.orgId]),
    );
  });
});

describe('surveillance export to the aggregate reporting system', () => {
  const SYNDROMIC = 'SyndromicDs';
  const FEVER_RASH = 'DeFeverRash';
  const AWD = 'DeWateryDia';
  const TOTAL = 'CocTotal001';

  beforeAll(() => {
    process.env.REPORTSYS_MAPPING = JSON.stringify({
      dataSet: 'IDSRweekly1',
      surveillanceDataSet: SYNDROMIC,
      orgUnits: { [c.orgId]: 'OuClinicAAA' },
      syndromes: {
        fever_rash: { dataElement: FEVER_RASH, categoryOptionCombo: TOTAL },
        acute_watery_diarrhoea: { dataElement: AWD, categoryOptionCombo: TOTAL },
      },
    });
    resetConfig();
  });

  it("sends the period's syndrome counts as a DHIS2 dataValueSet; the same period again updates", async () => {
    const first = await admin.post('/api/surveillance/export/reportsys', { period: week });
    expect(first.status).toBe(200);
    const data = first.body.data;
    expect(data).toMatchObject({ kind: 'surveillance', period: week, provider: 'sandbox' });
    const set = data.data_value_sets.find((v: { orgUnit: string }) => v.orgUnit === 'OuClinicAAA');
    expect(set).toMatchObject({ dataSet: SYNDROMIC, period: week, orgUnit: 'OuClinicAAA' });
    const value = (de: string) => set.dataValues.find((v: { dataElement: string }) => v.dataElement === de).value;
    expect(Number(value(FEVER_RASH))).toBeGreaterThanOrEqual(6);
    expect(Number(value(AWD))).toBeGreaterThanOrEqual(1);
    // The organization the seed does not name reports by the built-in default.
    expect(data.data_value_sets.find((v: { orgUnit: string }) => v.orgUnit === other.orgId)).toMatchObject({
      dataSet: 'SYNDROMIC_SURVEILLANCE',
      orgUnitIdScheme: 'CODE',
    });
    expect(data.submissions.find((s: { organization_id: string }) => s.organization_id === c.orgId)).toMatchObject({
      kind: 'surveillance',
      data_set: SYNDROMIC,
      status: 'success',
      imported: 2,
      updated: 0,
      attempts: 1,
    });
    const again = await admin.post('/api/surveillance/export/reportsys', { period: week, organization_id: c.orgId });
    expect(again.body.data.submissions[0]).toMatchObject({
      id: data.submissions.find((s: { organization_id: string }) => s.organization_id === c.orgId).id,
      imported: 0,
      updated: 2,
      attempts: 2,
    });
    const preview = await admin.get(`/api/surveillance/export/reportsys?period=${week}`);
    expect(preview.body.data.data_value_sets).toEqual(data.data_value_sets);
  });

  it('is for public health administrators, and checks the period and the mapping', async () => {
    expect((await c.doctor.api.post('/api/surveillance/export/reportsys', { period: week })).status).toBe(403);
    expect((await app.api.post('/api/surveillance/export/reportsys', { period: week })).status).toBe(401);
    expect((await admin.post('/api/surveillance/export/reportsys', { period: 'last week' })).body.error.details[0].field).toBe('period');
    expect((await admin.post('/api/surveillance/export/reportsys', {})).body.error.details[0].field).toBe('period');
    expect(
      (await admin.post('/api/surveillance/export/reportsys', { period: week, organization_id: randomUUID() })).body.error.details[0].field,
    ).toBe('organization_id');
    process.env.REPORTSYS_MAPPING = JSON.stringify({
      dataSet: 'IDSRweekly1',
      orgUnits: {},
      syndromes: { gout: { dataElement: 'x', categoryOptionCombo: 'y' } },
    });
    resetConfig();
    const bad = await admin.post('/api/surveillance/export/reportsys', { period: week });
    expect(bad.status).toBe(503);
    expect(bad.body.error.message).toMatch(/gout/);
  });
});
