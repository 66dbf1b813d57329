import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetConfig } from '../shared/config';
import { OutboxEvent } from '../shared/outbox';
import { addDays, weeklyPeriodOf } from '../subgraphs/clinical/public-health/periods';
import { sandboxDataValues } from '../subgraphs/clinical/public-health/reportsys.adapter';
import { ReportsysKind, ReportsysSubmission } from '../subgraphs/clinical/public-health/reportsys.entity';
import { SAMPLE_PATIENT, signInAdmin, startApp, type Api, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

let app: TestApp;
let c: Clinic;
let other: Clinic;
let admin: Api;
let stranger: Awaited<ReturnType<typeof outsider>>;

const today = new Date().toISOString().slice(0, 10);
const week = weeklyPeriodOf(today);

/** DHIS2-style ids (11 characters, a letter then letters and digits). */
const UID = {
  dataSet: 'IDSRweekly1',
  survDataSet: 'SyndromicDs',
  orgUnit: 'OuClinicAAA',
  otherOrgUnit: 'OuClinicBBB',
  choleraCases: 'DeCholeraCa',
  choleraDeaths: 'DeCholeraDe',
  measlesCases: 'DeMeaslesCa',
  under5: 'CocUnder5yr',
  over5: 'Coc5yrsPlus',
  total: 'CocTotal001',
};

function mapping(extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    dataSet: UID.dataSet,
    surveillanceDataSet: UID.survDataSet,
    orgUnits: { [c.orgId]: UID.orgUnit, [other.orgId]: UID.otherOrgUnit },
    ageBands: [{ code: 'under_5', maxYears: 4 }, { code: '5_and_over' }],
    diseases: {
      cholera: {
        cases: UID.choleraCases,
        deaths: UID.choleraDeaths,
        categoryOptionCombos: { under_5: UID.under5, '5_and_over': UID.over5 },
      },
      measles: { cases: UID.measlesCases, categoryOptionCombo: UID.total },
    },
    ...extra,
  });
}

function configure(env: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
}

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  other = await clinic(app);
  stranger = await outsider(app);
  admin = await signInAdmin(app.api);
});
afterAll(async () => {
  configure({
    REPORTSYS_MAPPING: undefined,
    REPORTSYS_PROVIDER: undefined,
    REPORTSYS_URL: undefined,
    REPORTSYS_USERNAME: undefined,
    REPORTSYS_PASSWORD: undefined,
    REPORTSYS_TOKEN: undefined,
  });
  await app.close();
});

const report = (api: Api, body: Record<string, unknown>) => api.post('/api/public-health/cases', body);
const cholera = (patientId: string, extra: Record<string, unknown> = {}) => ({
  patient_id: patientId,
  icd10_code: 'A00.1',
  onset_date: today,
  classification: 'suspected',
  ...extra,
});

async function newPatient(k: Clinic, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await k.doctor.api.post(`/api/organizations/${k.orgId}/patients`, { ...SAMPLE_PATIENT, ...fields });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const events = (topic: string, caseId: string) => app.em('clinical').find(OutboxEvent, { topic, payload: { case_id: caseId } });

describe('notifiable cases', () => {
  it('reports a cholera case and emits an immediate notification at once, in the same transaction', async () => {
    const res = await report(
      c.doctor.api,
      cholera(c.patientId, { outcome: 'under_treatment', notes: 'Rice-water stools since this morning' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      patient_id: c.patientId,
      organization_id: c.orgId,
      disease_code: 'cholera',
      icd10_code: 'A00.1',
      onset_date: today,
      classification: 'suspected',
      outcome: 'under_treatment',
      immediately_notifiable: true,
      primary_case_id: null,
      reported_by: c.doctor.user.id,
      disease: { code: 'cholera', name: 'Cholera' },
    });
    const id = res.body.data.id;
    const [immediate] = await events('svc.public_health.immediate_notification', id);
    expect(immediate.payload).toMatchObject({
      case_id: id,
      disease_code: 'cholera',
      disease_name: 'Cholera',
      organization_id: c.orgId,
      classification: 'suspected',
    });
    expect(await events('svc.public_health.case_reported', id)).toHaveLength(1);
    expect((await c.nurse.api.get(`/api/public-health/cases/${id}`)).body.data.id).toBe(id);
  });

  it('links a repeat report within the incubation window to the case, raising its classification, and emits no second notification', async () => {
    const patientId = await newPatient(c, { first_name: 'Repeat' });
    const first = (await report(c.doctor.api, cholera(patientId, { onset_date: addDays(today, -3) }))).body.data;
    const again = await report(
      c.nurse.api,
      cholera(patientId, { icd10_code: 'a00.9', onset_date: addDays(today, -1), classification: 'confirmed', outcome: 'recovered' }),
    );
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ primary_case_id: first.id, icd10_code: 'A00.9', classification: 'confirmed' });
    expect(await events('svc.public_health.immediate_notification', again.body.data.id)).toEqual([]);
    expect((await events('svc.public_health.case_reported', again.body.data.id))[0].payload).toMatchObject({ primary_case_id: first.id });
    expect((await c.doctor.api.get(`/api/public-health/cases/${first.id}`)).body.data).toMatchObject({
      classification: 'confirmed',
      outcome: 'recovered',
    });
    // A suspected repeat does not lower it.
    await report(c.doctor.api, cholera(patientId, { onset_date: addDays(today, -2), classification: 'suspected' }));
    expect((await c.doctor.api.get(`/api/public-health/cases/${first.id}`)).body.data.classification).toBe('confirmed');
    // Within cholera's 5 days of the first onset it is the same case; beyond, a new one.
    const within = await report(c.doctor.api, cholera(patientId, { onset_date: today }));
    expect(within.body.data.primary_case_id).toBe(first.id);
    const older = await report(c.doctor.api, cholera(patientId, { onset_date: addDays(today, -30) }));
    expect(older.body.data.primary_case_id).toBeNull();
    const graph = await c.doctor.api.graphql(
      'query($id: ID!) { notifiableCase(id: $id) { primaryCase { id classification } disease { incubationMaxDays } patient { id } } }',
      { id: again.body.data.id },
    );
    expect(graph.body.data.notifiableCase).toEqual({
      primaryCase: { id: first.id, classification: 'confirmed' },
      disease: { incubationMaxDays: 5 },
      patient: { id: patientId },
    });
  });

  it('emits no immediate notification for a weekly-reported disease', async () => {
    const res = await report(c.doctor.api, cholera(c.patientId, { icd10_code: 'B50.9', classification: 'confirmed' }));
    expect(res.body.data).toMatchObject({ disease_code: 'malaria', immediately_notifiable: false });
    expect(await events('svc.public_health.immediate_notification', res.body.data.id)).toEqual([]);
    expect(await events('svc.public_health.case_reported', res.body.data.id)).toHaveLength(1);
  });

  it('refuses a code of no notifiable disease and bad fields with a 400 naming them', async () => {
    const field = async (body: Record<string, unknown>) => {
      const res = await report(c.doctor.api, { ...cholera(c.patientId), ...body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      return res.body.error.details.map((d: { field: string }) => d.field);
    };
    const asthma = await report(c.doctor.api, cholera(c.patientId, { icd10_code: 'J45.9' }));
    expect(asthma.status).toBe(400);
    expect(asthma.body.error.details).toEqual([{ field: 'icd10_code', message: 'J45.9 is not the code of a notifiable disease' }]);
    expect(await field({ icd10_code: 'cholera' })).toEqual(['icd10_code']);
    expect(await field({ icd10_code: 'A98.5' })).toEqual(['icd10_code']); // haemorrhagic fever with renal syndrome: not on the list
    expect(await field({ onset_date: addDays(today, 2) })).toEqual(['onset_date']);
    expect(await field({ onset_date: '2026-02-30' })).toEqual(['onset_date']);
    expect(await field({ onset_date: '1970-01-01' })).toEqual(['onset_date']); // before the patient was born
    expect(await field({ classification: 'likely' })).toEqual(['classification']);
    expect(await field({ outcome: 'fine' })).toEqual(['outcome']);
    expect(await field({ patient_id: 'nope' })).toEqual(['patient_id']);
    expect(await field({ notes: 'x'.repeat(2001) })).toEqual(['notes']);
    expect(await field({ icd10_code: undefined })).toEqual(['icd10_code']);
  });

  it("refuses other organizations' patients (404), members without clinical writes (403) and anonymous callers (401)", async () => {
    expect((await report(stranger.api, cholera(c.patientId))).status).toBe(404);
    expect((await report(c.doctor.api, cholera(other.patientId))).status).toBe(404);
    expect((await report(c.doctor.api, cholera('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await report(c.billing.api, cholera(c.patientId))).status).toBe(403);
    expect((await report(app.api, cholera(c.patientId))).status).toBe(401);
    const id = (await report(c.doctor.api, cholera(c.patientId, { icd10_code: 'B05.9' }))).body.data.id;
    expect((await stranger.api.get(`/api/public-health/cases/${id}`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/public-health/cases/${id}`)).status).toBe(403);
    expect((await c.doctor.api.get('/api/public-health/cases/not-a-uuid')).status).toBe(404);
  });

  it('lists the reports one may read, with filters', async () => {
    const measles = (await report(c.doctor.api, cholera(c.patientId, { icd10_code: 'B05', classification: 'probable' }))).body.data.id;
    const list = await c.nurse.api.get(`/api/public-health/cases?disease_code=measles&classification=probable&limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(measles);
    expect(list.body.data.every((r: { disease_code: string }) => r.disease_code === 'measles')).toBe(true);
    expect(list.body.meta).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
    expect((await stranger.api.get('/api/public-health/cases?limit=100')).body.data).toEqual([]);
    expect((await c.nurse.api.get(`/api/public-health/cases?patient_id=${c.patientId}`)).body.data.length).toBeGreaterThan(0);
    expect((await stranger.api.get(`/api/public-health/cases?patient_id=${c.patientId}`)).status).toBe(404);
    expect((await c.nurse.api.get(`/api/public-health/cases?organization_id=${other.orgId}`)).status).toBe(404);
    expect((await c.nurse.api.get('/api/public-health/cases?disease_code=flu')).status).toBe(400);
    expect((await c.nurse.api.get('/api/public-health/cases?from=2026-13-01')).body.error.details[0].field).toBe('from');
    expect((await app.api.get('/api/public-health/cases')).status).toBe(401);
  });

  it('lists the notifiable diseases', async () => {
    const res = await c.nurse.api.get('/api/public-health/diseases?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'cholera', icd10: ['A00'], immediately_notifiable: true, incubation_max_days: 5 }),
        expect.objectContaining({ code: 'malaria', immediately_notifiable: false }),
      ]),
    );
  });
});

describe('public health dashboard', () => {
  it('counts cases by disease, week, organization and classification; repeat reports are not counted again', async () => {
    const patientId = await newPatient(other, { first_name: 'Dash' });
    const first = (await report(other.doctor.api, cholera(patientId, { classification: 'confirmed' }))).body.data;
    await report(other.doctor.api, cholera(patientId, { classification: 'confirmed', outcome: 'died' }));
    const res = await admin.get(`/api/public-health/dashboard?organization_id=${other.orgId}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ to: today, total_cases: 1, linked_reports: 1, immediately_notifiable_cases: 1, deaths: 1 });
    expect(d.by_disease).toEqual([{ disease_code: 'cholera', disease_name: 'Cholera', count: 1 }]);
    expect(d.by_week.find((w: { week: string }) => w.week === week)).toMatchObject({ count: 1 });
    expect(d.by_week).toHaveLength(12);
    expect(d.by_organization).toEqual([{ organization_id: other.orgId, count: 1 }]);
    expect(d.by_classification).toEqual([
      { classification: 'suspected', count: 0 },
      { classification: 'probable', count: 0 },
      { classification: 'confirmed', count: 1 },
    ]);
    expect(d.cells).toEqual([{ disease_code: 'cholera', week, organization_id: other.orgId, classification: 'confirmed', count: 1 }]);
    expect(first.id).toBeDefined();
    // Across organizations and through GraphQL.
    const all = await admin.graphql('{ publicHealthDashboard { totalCases byOrganization { organizationId count } } }');
    expect(all.body.data.publicHealthDashboard.totalCases).toBeGreaterThanOrEqual(3);
    expect(all.body.data.publicHealthDashboard.byOrganization.map((o: { organizationId: string }) => o.organizationId)).toEqual(
      expect.arrayContaining([c.orgId, other.orgId]),
    );
  });

  it('is for public health administrators, and checks its range', async () => {
    expect((await c.doctor.api.get('/api/public-health/dashboard')).status).toBe(403);
    expect((await app.api.get('/api/public-health/dashboard')).status).toBe(401);
    expect((await admin.get('/api/public-health/dashboard?from=2026-11-30&to=2026-11-01')).body.error.details[0].field).toBe('from');
    expect((await admin.get('/api/public-health/dashboard?from=2024-01-01&to=2026-01-01')).body.error.details[0].field).toBe('from');
    expect((await admin.get('/api/public-health/dashboard?to=tomorrow')).body.error.details[0].field).toBe('to');
    expect((await admin.get('/api/public-health/dashboard?disease_code=gout')).status).toBe(400);
    expect((await admin.get('/api/public-health/dashboard?organization_id=x')).status).toBe(400);
  });
});

describe('aggregate reporting (DHIS2 dataValueSets)', () => {
  it('works on a fresh install: an organization created after start reports by the built-in default, and pushes to the sandbox', async () => {
    configure({ REPORTSYS_MAPPING: undefined });
    const late = await clinic(app);
    await report(late.doctor.api, cholera(await newPatient(late), { outcome: 'died' }));
    const res = await admin.get(`/api/public-health/reportsys-export?period=${week}&organization_id=${late.orgId}`);
    expect(res.status).toBe(200);
    const [set] = res.body.data.data_value_sets;
    // The organization's id as the org unit's code; data elements coded from the notifiable disease list.
    expect(set).toMatchObject({
      dataSet: 'NOTIFIABLE_DISEASES',
      period: week,
      orgUnit: late.orgId,
      dataSetIdScheme: 'CODE',
      orgUnitIdScheme: 'CODE',
      dataElementIdScheme: 'CODE',
    });
    const value = (de: string) => set.dataValues.find((v: { dataElement: string }) => v.dataElement === de);
    expect(value('CHOLERA_CASES')).toEqual({ dataElement: 'CHOLERA_CASES', categoryOptionCombo: 'HllvX50cXC0', value: '1' });
    expect(value('CHOLERA_DEATHS')?.value).toBe('1');
    expect(value('MEASLES_CASES')?.value).toBe('0');
    expect(set.dataValues).toHaveLength(60); // 30 notifiable diseases, cases and deaths
    expect(res.body.data.skipped).toEqual([]);
    const pushed = await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: late.orgId });
    expect(pushed.status).toBe(200);
    expect(pushed.body.data.submissions[0]).toMatchObject({
      data_set: 'NOTIFIABLE_DISEASES',
      org_unit: late.orgId,
      organization_id: late.orgId,
      status: 'success',
      imported: 60,
    });
    // Unnamed, the report covers every organization with cases in the period.
    const all = (await admin.get(`/api/public-health/reportsys-export?period=${week}`)).body.data;
    expect(all.data_value_sets.map((v: { orgUnit: string }) => v.orgUnit)).toEqual(expect.arrayContaining([c.orgId, late.orgId]));
  });

  it('says when a period is complete: completeDate once the period has ended', async () => {
    configure({ REPORTSYS_MAPPING: mapping() });
    const lastWeek = weeklyPeriodOf(addDays(today, -7));
    const ended = (await admin.get(`/api/public-health/reportsys-export?period=${lastWeek}&organization_id=${c.orgId}`)).body.data;
    expect(ended.data_value_sets[0]).toMatchObject({ dataSet: UID.dataSet, completeDate: today, period: lastWeek });
    const running = (await admin.get(`/api/public-health/reportsys-export?period=${week}&organization_id=${c.orgId}`)).body.data;
    expect(running.data_value_sets[0].completeDate).toBeUndefined();
    const pushed = await admin.post('/api/public-health/reportsys-push', { period: lastWeek, organization_id: c.orgId });
    expect(pushed.body.data.submissions[0].import_summary.dataSetComplete).toBe(today);
  });

  it('exports the period as DHIS2 dataValueSets: a cholera case is counted in its age band, zero reporting for the rest', async () => {
    configure({ REPORTSYS_MAPPING: mapping() });
    const child = await newPatient(c, { first_name: 'Child', date_of_birth: addDays(today, -3 * 365) });
    await report(c.doctor.api, cholera(child, { outcome: 'died' }));
    await report(c.doctor.api, cholera(await newPatient(c, { first_name: 'Adult' })));
    const res = await admin.get(`/api/public-health/reportsys-export?period=${week}&organization_id=${c.orgId}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ kind: 'cases', period: week, period_type: 'weekly' });
    expect(data.skipped.map((s: { code: string }) => s.code)).not.toContain('cholera');
    expect(data.data_value_sets).toHaveLength(1);
    const set = data.data_value_sets[0];
    // DHIS2's own field names, exactly.
    expect(Object.keys(set).sort()).toEqual(['dataSet', 'dataValues', 'orgUnit', 'period']);
    expect(set).toMatchObject({ dataSet: UID.dataSet, period: week, orgUnit: UID.orgUnit });
    const value = (de: string, coc: string) =>
      set.dataValues.find(
        (v: { dataElement: string; categoryOptionCombo: string }) => v.dataElement === de && v.categoryOptionCombo === coc,
      )?.value;
    // This week in clinic c: the child's cholera case, and adults' (repeat reports not counted again).
    expect(Number(value(UID.choleraCases, UID.under5))).toBe(1);
    expect(Number(value(UID.choleraCases, UID.over5))).toBeGreaterThanOrEqual(1);
    expect(value(UID.choleraDeaths, UID.under5)).toBe('1');
    expect(value(UID.measlesCases, UID.total)).toBeDefined();
    expect(Object.keys(set.dataValues[0]).sort()).toEqual(['categoryOptionCombo', 'dataElement', 'value']);
    expect(set.dataValues).toHaveLength(5); // cholera cases and deaths in two bands, measles in one combo
    // Every mapped organization when none is named, and the one the seed does not name that has cases (by the
    // built-in default); the malaria cases have no mapping in the seed and are said to be left out.
    const all = (await admin.post('/api/public-health/reportsys-export', { period: week })).body.data;
    expect(all.data_value_sets.map((s: { orgUnit: string }) => s.orgUnit)).toEqual(expect.arrayContaining([UID.orgUnit, UID.otherOrgUnit]));
    expect(all.skipped).toEqual(
      expect.arrayContaining([{ reason: 'disease_not_mapped', organization_id: c.orgId, code: 'malaria', count: expect.any(Number) }]),
    );
  });

  it('pushes a period through the sandbox: the second push of the same period updates, never duplicates', async () => {
    configure({ REPORTSYS_MAPPING: mapping() });
    const first = await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: c.orgId });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ provider: 'sandbox', period: week });
    const [s1] = first.body.data.submissions;
    expect(s1).toMatchObject({
      kind: 'cases',
      data_set: UID.dataSet,
      org_unit: UID.orgUnit,
      organization_id: c.orgId,
      status: 'success',
      imported: 5,
      updated: 0,
      ignored: 0,
      attempts: 1,
      conflicts: [],
    });
    expect(s1.import_summary).toMatchObject({
      responseType: 'ImportSummary',
      status: 'SUCCESS',
      importCount: { imported: 5, updated: 0, ignored: 0, deleted: 0 },
    });
    const before = await sandboxDataValues();
    const second = await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: c.orgId });
    const [s2] = second.body.data.submissions;
    expect(s2).toMatchObject({ id: s1.id, imported: 0, updated: 5, attempts: 2 });
    expect((await sandboxDataValues()).size).toBe(before.size);
    expect(await app.em('clinical').count(ReportsysSubmission, { kind: ReportsysKind.cases, period: week, orgUnit: UID.orgUnit })).toBe(1);
    expect(before.get(`${UID.choleraCases}|${week}|${UID.orgUnit}|${UID.under5}|default`)).toBe('1');
    const kept = await admin.graphql('query($p: String) { reportsysSubmissions(period: $p) { items { orgUnit attempts } } }', { p: week });
    expect(kept.body.data.reportsysSubmissions.items).toEqual(expect.arrayContaining([{ orgUnit: UID.orgUnit, attempts: 2 }]));
  });

  it('keeps the conflicts of values the system refuses', async () => {
    configure({ REPORTSYS_MAPPING: mapping({ diseases: { cholera: { cases: 'not a uid', categoryOptionCombo: UID.total } } }) });
    const res = await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: c.orgId });
    expect(res.status).toBe(200);
    expect(res.body.data.submissions[0]).toMatchObject({
      status: 'warning',
      ignored: 1,
      conflicts: [{ object: 'not a uid', value: 'Data element not found or not accessible: `not a uid`', error_code: 'E7610' }],
    });
  });

  it('checks who asks, the period, the organization and the mapping', async () => {
    configure({ REPORTSYS_MAPPING: mapping() });
    for (const path of [`/api/public-health/reportsys-export?period=${week}`]) {
      expect((await c.doctor.api.get(path)).status).toBe(403);
      expect((await app.api.get(path)).status).toBe(401);
    }
    expect((await c.doctor.api.post('/api/public-health/reportsys-push', { period: week })).status).toBe(403);
    const field = async (query: string) => {
      const res = await admin.get(`/api/public-health/reportsys-export?${query}`);
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field('period=2026-11')).toBe('period');
    expect(await field('period=2026W60')).toBe('period');
    expect(await field(`period=${weeklyPeriodOf(addDays(today, 14))}`)).toBe('period');
    expect(await field(`period=${week}&organization_id=${randomUUID()}`)).toBe('organization_id');
    expect(await field(`period=${week}&organization_id=nope`)).toBe('organization_id');
    expect((await admin.get('/api/public-health/reportsys-export')).body.error.details[0].field).toBe('period');
    configure({ REPORTSYS_MAPPING: '{"dataSet": "x", "orgUnits": {"not-a-uuid": "y"}}' });
    const bad = await admin.get(`/api/public-health/reportsys-export?period=${week}`);
    expect(bad.status).toBe(503);
    expect(bad.body.error.message).toMatch(/REPORTSYS_MAPPING is invalid: orgUnits/);
  });
});

describe("an organization's reporting mapping, set by an administrator", () => {
  const path = (orgId: string) => `/api/public-health/reportsys-mappings/${orgId}`;
  const body = (extra: Record<string, unknown> = {}) => ({
    org_unit: 'OuLateClin1',
    data_set: 'IDSRweekly2',
    age_bands: [{ code: 'under_5', max_years: 4 }, { code: 'older' }],
    diseases: [
      {
        code: 'cholera',
        cases: 'DeCholeraCa',
        deaths: 'DeCholeraDe',
        category_option_combos: [
          { band: 'under_5', category_option_combo: 'CocUnder5yr' },
          { band: 'older', category_option_combo: 'Coc5yrsPlus' },
        ],
      },
    ],
    syndromes: [{ code: 'ili', data_element: 'DeIliCount1', category_option_combo: 'CocTotal001' }],
    ...extra,
  });

  it('reads the built-in default, sets a mapping by REST that the next export uses, and resets it', async () => {
    configure({ REPORTSYS_MAPPING: mapping() });
    const late = await clinic(app);
    await report(late.doctor.api, cholera(await newPatient(late, { date_of_birth: addDays(today, -2 * 365) })));
    const before = await admin.get(path(late.orgId));
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ organization_id: late.orgId, source: 'built_in', id_scheme: 'code', org_unit: late.orgId });
    expect(before.body.data.diseases).toHaveLength(30);
    // The seed names c: its mapping comes from there.
    expect((await admin.get(path(c.orgId))).body.data).toMatchObject({ source: 'seed', id_scheme: 'uid', org_unit: UID.orgUnit });

    const set = await admin.put(path(late.orgId), body());
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({
      organization_id: late.orgId,
      source: 'set',
      id_scheme: 'uid',
      org_unit: 'OuLateClin1',
      data_set: 'IDSRweekly2',
      age_bands: [
        { code: 'under_5', max_years: 4 },
        { code: 'older', max_years: null },
      ],
      diseases: [{ code: 'cholera', cases: 'DeCholeraCa', deaths: 'DeCholeraDe', category_option_combo: null }],
      syndromes: [{ code: 'ili', data_element: 'DeIliCount1', category_option_combo: 'CocTotal001' }],
      updated_by: expect.any(String),
    });
    expect((await admin.get(path(late.orgId))).body.data.source).toBe('set');
    const exported = (await admin.get(`/api/public-health/reportsys-export?period=${week}&organization_id=${late.orgId}`)).body.data;
    expect(exported.data_value_sets[0]).toEqual({
      dataSet: 'IDSRweekly2',
      period: week,
      orgUnit: 'OuLateClin1',
      dataValues: expect.arrayContaining([{ dataElement: 'DeCholeraCa', categoryOptionCombo: 'CocUnder5yr', value: '1' }]),
    });
    // Unnamed, the report covers it too, as set.
    const all = (await admin.get(`/api/public-health/reportsys-export?period=${week}`)).body.data;
    expect(all.data_value_sets.map((v: { orgUnit: string }) => v.orgUnit)).toEqual(expect.arrayContaining(['OuLateClin1', UID.orgUnit]));

    const reset = await admin.delete(path(late.orgId));
    expect(reset.status).toBe(200);
    expect(reset.body.data).toMatchObject({ source: 'built_in', org_unit: late.orgId });
  });

  it('refuses bad mappings with a 400 naming the field, and one org unit for two organizations', async () => {
    configure({ REPORTSYS_MAPPING: mapping() });
    const field = async (extra: Record<string, unknown>) => {
      const res = await admin.put(path(other.orgId), body(extra));
      expect(res.status).toBe(400);
      return res.body.error.details.map((d: { field: string }) => d.field);
    };
    expect(await field({ org_unit: 'not a uid' })).toEqual(['org_unit']);
    expect(await field({ id_scheme: 'name' })).toEqual(['id_scheme']);
    expect(await field({ diseases: [{ code: 'gout', cases: 'DeGoutCases', category_option_combo: 'CocTotal001' }] })).toEqual([
      'diseases.0.code',
    ]);
    expect(await field({ diseases: [{ code: 'cholera', cases: 'DeCholeraCa' }] })).toEqual(['diseases.0']);
    expect(
      await field({
        diseases: [
          { code: 'cholera', cases: 'DeCholeraCa', category_option_combos: [{ band: 'under_5', category_option_combo: 'CocUnder5yr' }] },
        ],
      }),
    ).toEqual(['diseases.0.category_option_combos']);
    expect(await field({ age_bands: [{ code: 'under_5' }, { code: 'older', max_years: 90 }] })).toEqual(
      expect.arrayContaining(['age_bands.0.max_years', 'age_bands.1.max_years']),
    );
    expect(await field({ syndromes: [{ code: 'gout', data_element: 'DeIliCount1', category_option_combo: 'CocTotal001' }] })).toEqual([
      'syndromes.0.code',
    ]);
    // c's org unit in the seed: their reports would overwrite each other.
    expect(await field({ org_unit: UID.orgUnit })).toEqual(['org_unit']);
    // By code, names are codes (at most 50 characters) and the combos stay UIDs.
    const byCode = await admin.put(path(other.orgId), body({ id_scheme: 'code', org_unit: 'FACILITY-042', data_set: 'IDSR_WEEKLY' }));
    expect(byCode.status).toBe(200);
    expect(byCode.body.data).toMatchObject({ id_scheme: 'code', org_unit: 'FACILITY-042' });
    expect(await field({ id_scheme: 'code', org_unit: 'x'.repeat(51) })).toEqual(['org_unit']);
    expect((await admin.delete(path(other.orgId))).body.data.source).toBe('seed');
  });

  it('is for public health administrators; an unknown organization is not found', async () => {
    expect((await c.doctor.api.get(path(c.orgId))).status).toBe(403);
    expect((await c.doctor.api.put(path(c.orgId), body())).status).toBe(403);
    expect((await c.doctor.api.delete(path(c.orgId))).status).toBe(403);
    expect((await app.api.get(path(c.orgId))).status).toBe(401);
    expect((await admin.get(path(randomUUID()))).status).toBe(404);
    expect((await admin.put(path(randomUUID()), body())).status).toBe(404);
    expect((await admin.get(path('nope'))).status).toBe(404);
  });

  it('reads and sets through GraphQL, answering userErrors for bad fields', async () => {
    configure({ REPORTSYS_MAPPING: undefined });
    const late = await clinic(app);
    const SET = `mutation($org: ID!, $input: ReportsysMappingInput!) {
      setReportsysMapping(organizationId: $org, input: $input) {
        reportsysMapping { source orgUnit idScheme organization { id } diseases { code cases categoryOptionCombo } }
        userErrors { field message code }
      }
    }`;
    const bad = await admin.graphql(SET, { org: late.orgId, input: { orgUnit: 'short', dataSet: 'IDSRweekly2' } });
    expect(bad.body.data.setReportsysMapping).toEqual({
      reportsysMapping: null,
      userErrors: [{ field: ['input', 'orgUnit'], message: expect.stringMatching(/DHIS2 UID/), code: 'INVALID' }],
    });
    const good = await admin.graphql(SET, {
      org: late.orgId,
      input: {
        orgUnit: 'OuLateClin2',
        dataSet: 'IDSRweekly2',
        diseases: [{ code: 'measles', cases: 'DeMeaslesCa', categoryOptionCombo: 'CocTotal001' }],
      },
    });
    expect(good.body.data.setReportsysMapping).toEqual({
      reportsysMapping: {
        source: 'set',
        orgUnit: 'OuLateClin2',
        idScheme: 'uid',
        organization: { id: late.orgId },
        diseases: [{ code: 'measles', cases: 'DeMeaslesCa', categoryOptionCombo: 'CocTotal001' }],
      },
      userErrors: [],
    });
    const read = await admin.graphql('query($org: ID!) { reportsysMapping(organizationId: $org) { source orgUnit } }', { org: late.orgId });
    expect(read.body.data.reportsysMapping).toEqual({ source: 'set', orgUnit: 'OuLateClin2' });
    const denied = await c.doctor.api.graphql('query($org: ID!) { reportsysMapping(organizationId: $org) { source } }', {
      org: late.orgId,
    });
    expect(denied.body.data.reportsysMapping).toBeNull();
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const reset = await admin.graphql(
      'mutation($org: ID!) { resetReportsysMapping(organizationId: $org) { reportsysMapping { source orgUnit } userErrors { code } } }',
      { org: late.orgId },
    );
    expect(reset.body.data.resetReportsysMapping).toEqual({
      reportsysMapping: { source: 'built_in', orgUnit: late.orgId },
      userErrors: [],
    });
  });
});

describe('the DHIS2 adapter against a DHIS2-like server on loopback', () => {
  let server: Server;
  let url: string;
  const received: { path: string; auth: string | undefined; body: any }[] = [];
  let answer: (body: any) => { status: number; body: unknown } = () => ({ status: 200, body: {} });

  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => resolve(text));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = JSON.parse(await read(req));
      received.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      const out = answer(body);
      res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dhis`;
  });
  afterAll(async () => {
    configure({
      REPORTSYS_PROVIDER: undefined,
      REPORTSYS_URL: undefined,
      REPORTSYS_USERNAME: undefined,
      REPORTSYS_PASSWORD: undefined,
      REPORTSYS_TOKEN: undefined,
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('posts the dataValueSet with basic authentication and keeps the wrapped import summary of DHIS2 2.38+', async () => {
    configure({
      REPORTSYS_MAPPING: mapping(),
      REPORTSYS_PROVIDER: 'dhis2',
      REPORTSYS_URL: url,
      REPORTSYS_USERNAME: 'admin',
      REPORTSYS_PASSWORD: 'district',
      REPORTSYS_TOKEN: undefined,
    });
    answer = (body) => ({
      status: 409,
      body: {
        httpStatus: 'Conflict',
        httpStatusCode: 409,
        status: 'WARNING',
        message: 'One more conflicts encountered, please check import summary.',
        response: {
          responseType: 'ImportSummary',
          status: 'WARNING',
          importCount: { imported: body.dataValues.length - 1, updated: 0, ignored: 1, deleted: 0 },
          conflicts: [
            {
              object: UID.measlesCases,
              objects: { dataElement: UID.measlesCases },
              value: `Data element not found or not accessible: \`${UID.measlesCases}\``,
              errorCode: 'E7610',
              property: 'dataElement',
              indexes: [4],
            },
          ],
          rejectedIndexes: [4],
        },
      },
    });
    const res = await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: other.orgId });
    expect(res.status).toBe(200);
    const sent = received.at(-1)!;
    expect(sent.path).toBe('/dhis/api/dataValueSets?importStrategy=CREATE_AND_UPDATE');
    expect(sent.auth).toBe(`Basic ${Buffer.from('admin:district').toString('base64')}`);
    expect(sent.body).toEqual(res.body.data.data_value_sets[0]);
    expect(sent.body).toMatchObject({ dataSet: UID.dataSet, period: week, orgUnit: UID.otherOrgUnit });
    expect(res.body.data.submissions[0]).toMatchObject({
      provider: 'dhis2',
      status: 'warning',
      imported: 4,
      ignored: 1,
      conflicts: [{ object: UID.measlesCases, error_code: 'E7610' }],
    });
  });

  it('uses a personal access token, and reads the bare import summary of earlier DHIS2 versions', async () => {
    configure({ REPORTSYS_TOKEN: 'd2pat_test_token' });
    answer = (body) => ({
      status: 200,
      body: {
        responseType: 'ImportSummary',
        status: 'SUCCESS',
        importCount: { imported: 0, updated: body.dataValues.length, ignored: 0, deleted: 0 },
        conflicts: [],
      },
    });
    const res = await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: other.orgId });
    expect(received.at(-1)!.auth).toBe('ApiToken d2pat_test_token');
    expect(res.body.data.submissions[0]).toMatchObject({ status: 'success', updated: 5, attempts: 2 });
  });

  it('answers 503 when DHIS2 refuses the credentials or answers no import summary', async () => {
    answer = () => ({ status: 401, body: { httpStatus: 'Unauthorized' } });
    const refused = await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: other.orgId });
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toMatch(/refused the credentials/);
    answer = () => ({ status: 500, body: { httpStatus: 'Internal Server Error' } });
    expect((await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: other.orgId })).status).toBe(503);
    configure({ REPORTSYS_URL: undefined });
    expect(
      (await admin.post('/api/public-health/reportsys-push', { period: week, organization_id: other.orgId })).body.error.message,
    ).toMatch(/REPORTSYS_URL/);
  });
});
