import { AuditEvent } from '../shared/audit/audit-event.entity';
import { SAMPLE_PATIENT, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

let app: TestApp;
let c: Clinic;
let stranger: SignedUp & { orgId: string };

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
});
afterAll(() => app.close());

/** The SPEC's vital create body. */
const vitals = {
  heart_rate: 72,
  blood_pressure_systolic: 120,
  blood_pressure_diastolic: 80,
  temperature: 36.8,
  respiratory_rate: 16,
  oxygen_saturation: 98,
};

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

describe('vitals', () => {
  it('records the SPEC fields, reads them back and lists them per patient and per organization', async () => {
    const res = await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals, weight_kg: 64.5, height_cm: 168 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...vitals,
      weight_kg: 64.5,
      height_cm: 168,
      patient_id: c.patientId,
      organization_id: c.orgId,
      status: 'final',
      recorded_by: c.nurse.user.id,
      recorded_at: expect.any(String),
    });
    const id = res.body.data.id;
    expect((await c.doctor.api.get(`/api/vitals/${id}`)).body.data).toMatchObject({ id, ...vitals });
    const forPatient = await c.doctor.api.get(`/api/vitals?patient_id=${c.patientId}`);
    expect(forPatient.status).toBe(200);
    expect(ids(forPatient)).toContain(id);
    expect(forPatient.body.meta.total).toBeGreaterThanOrEqual(1);
    expect(ids(await c.doctor.api.get('/api/vitals'))).toContain(id);
    // Another organization's clinician does not see them in an unfiltered list.
    expect(ids(await stranger.api.get('/api/vitals'))).not.toContain(id);
  });

  it('accepts any subset of measurements, including the bounds of each range, and lists newest first', async () => {
    const early = await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, heart_rate: 20, recorded_at: '2024-03-01T08:00:00Z' });
    expect(early.status).toBe(201);
    expect(early.body.data).toMatchObject({ heart_rate: 20, temperature: null, recorded_at: '2024-03-01T08:00:00.000Z' });
    const late = await c.nurse.api.post('/api/vitals', {
      patient_id: c.patientId,
      heart_rate: 300,
      oxygen_saturation: 100,
      temperature: 45,
      recorded_at: '2024-03-01T09:00:00Z',
    });
    expect(late.status).toBe(201);
    const list = ids(await c.nurse.api.get(`/api/vitals?patient_id=${c.patientId}&limit=100`));
    expect(list.indexOf(late.body.data.id)).toBeLessThan(list.indexOf(early.body.data.id));
  });

  it.each([
    ['heart_rate', 900],
    ['heart_rate', 19],
    ['temperature', 80],
    ['temperature', 20],
    ['blood_pressure_systolic', 400],
    ['blood_pressure_diastolic', 10],
    ['respiratory_rate', 100],
    ['oxygen_saturation', 101],
    ['oxygen_saturation', 30],
    ['weight_kg', 0],
    ['height_cm', 400],
  ])('refuses an implausible %s of %d with a 400 naming it', async (field, value) => {
    const res = await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals, [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([{ field, message: expect.stringMatching(/^must be between \d/) }]);
  });

  it('checks the record as a whole: one measurement at least, a whole blood pressure, a past time', async () => {
    const post = (body: Record<string, unknown>) => c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...body });
    const field = async (body: Record<string, unknown>) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({})).toBe('heart_rate');
    expect(await field({ blood_pressure_systolic: 120 })).toBe('blood_pressure_diastolic');
    expect(await field({ blood_pressure_diastolic: 80 })).toBe('blood_pressure_systolic');
    expect(await field({ blood_pressure_systolic: 80, blood_pressure_diastolic: 90 })).toBe('blood_pressure_diastolic');
    expect(await field({ heart_rate: 70, recorded_at: new Date(Date.now() + 3_600_000).toISOString() })).toBe('recorded_at');
    expect(await field({ heart_rate: '70' })).toBe('heart_rate');
    expect((await c.nurse.api.post('/api/vitals', { heart_rate: 70 })).body.error.details[0].field).toBe('patient_id');
  });

  it('amends on update, keeping the previous values in the audit trail', async () => {
    const id = (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).body.data.id;
    const res = await c.doctor.api.patch(`/api/vitals/${id}`, { heart_rate: 88, temperature: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ heart_rate: 88, temperature: null, status: 'amended', updated_by: c.doctor.user.id });
    expect((await c.doctor.api.patch(`/api/vitals/${id}`, { heart_rate: 900 })).body.error.details[0].field).toBe('heart_rate');
    expect((await c.doctor.api.patch(`/api/vitals/${id}`, { blood_pressure_diastolic: 130 })).body.error.details[0].field).toBe(
      'blood_pressure_diastolic',
    );
    const change = await app.em('clinical').findOneOrFail(AuditEvent, { resourceType: 'vital', resourceId: id, action: 'update' });
    expect(change.details).toEqual({ fields: ['heartRate', 'temperature'], previous: { heartRate: 72, temperature: 36.8 } });
    // Removing every measurement would leave an empty record.
    const only = (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, heart_rate: 70 })).body.data.id;
    expect((await c.nurse.api.patch(`/api/vitals/${only}`, { heart_rate: null })).status).toBe(400);
  });

  it('deletes by marking entered in error: hidden from reads, lists and the patient graph, kept in storage', async () => {
    const id = (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).body.data.id;
    const res = await c.doctor.api.delete(`/api/vitals/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'entered_in_error' });
    expect((await c.doctor.api.get(`/api/vitals/${id}`)).status).toBe(404);
    expect((await c.doctor.api.patch(`/api/vitals/${id}`, { heart_rate: 70 })).status).toBe(404);
    expect((await c.doctor.api.delete(`/api/vitals/${id}`)).status).toBe(404);
    expect(ids(await c.doctor.api.get(`/api/vitals?patient_id=${c.patientId}&limit=100`))).not.toContain(id);
    expect(ids(await c.doctor.api.get('/api/vitals?limit=100'))).not.toContain(id);
    const graph = await c.doctor.api.graphql('query($id: ID!) { patient(id: $id) { vitals(first: 100) { nodes { id } } } }', {
      id: c.patientId,
    });
    expect(graph.body.data.patient.vitals.nodes.map((v: { id: string }) => v.id)).not.toContain(id);
    const audit = await app.em('clinical').find(AuditEvent, { resourceType: 'vital', resourceId: id }, { orderBy: { createdAt: 'asc' } });
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['create', 'delete']));
  });

  it('marks a record entered in error through GraphQL (markVitalEnteredInError); a second time it is NOT_FOUND', async () => {
    const id = (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).body.data.id;
    const mark = 'mutation($id: ID!) { markVitalEnteredInError(id: $id) { id status } }';
    const res = await c.doctor.api.graphql(mark, { id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.markVitalEnteredInError).toEqual({ id, status: 'entered_in_error' });
    expect((await c.doctor.api.graphql(mark, { id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('records the level of consciousness and supplemental oxygen, and answers the NEWS2 of each record', async () => {
    // The patient: RR 26 (3), SpO2 90 (3), systolic 95 (2), pulse 125 (2), 39.5 °C (2).
    const unwell = {
      respiratory_rate: 26,
      oxygen_saturation: 90,
      blood_pressure_systolic: 95,
      blood_pressure_diastolic: 60,
      heart_rate: 125,
      temperature: 39.5,
    };
    const bare = await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...unwell });
    expect(bare.status).toBe(201);
    expect(bare.body.data).toMatchObject({
      consciousness: null,
      supplemental_oxygen: null,
      news2: { score: 12, risk: 'high', red_score: true, assumed: ['consciousness', 'supplementalOxygen'] },
    });
    const full = await c.nurse.api.post('/api/vitals', {
      patient_id: c.patientId,
      ...unwell,
      consciousness: 'voice',
      supplemental_oxygen: true,
    });
    expect(full.status).toBe(201);
    // + voice (3) + oxygen (2)
    expect(full.body.data).toMatchObject({
      consciousness: 'voice',
      supplemental_oxygen: true,
      news2: { score: 17, risk: 'high', red_score: true, assumed: [] },
    });
    const normal = await c.nurse.api.post('/api/vitals', {
      patient_id: c.patientId,
      ...vitals,
      consciousness: 'alert',
      supplemental_oxygen: false,
    });
    expect(normal.body.data.news2).toEqual({ score: 0, risk: 'low', red_score: false, assumed: [] });
    // A single parameter scoring 3 is low-medium; a record without all five measurements has no NEWS2.
    const confused = await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals, consciousness: 'new_confusion' });
    expect(confused.body.data.news2).toEqual({ score: 3, risk: 'low_medium', red_score: true, assumed: ['supplementalOxygen'] });
    const partial = await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, heart_rate: 125, temperature: 39.5 });
    expect(partial.body.data.news2).toBeNull();
    // Read, listed and corrected, the score follows the record.
    expect((await c.doctor.api.get(`/api/vitals/${full.body.data.id}`)).body.data.news2.score).toBe(17);
    const listed = (await c.doctor.api.get(`/api/vitals?patient_id=${c.patientId}&limit=100`)).body.data;
    expect(listed.find((v: { id: string }) => v.id === bare.body.data.id).news2.score).toBe(12);
    const amended = await c.doctor.api.patch(`/api/vitals/${full.body.data.id}`, { consciousness: 'alert', supplemental_oxygen: null });
    expect(amended.status).toBe(200);
    expect(amended.body.data).toMatchObject({
      status: 'amended',
      consciousness: 'alert',
      supplemental_oxygen: null,
      news2: { score: 12, assumed: ['supplementalOxygen'] },
    });
    const change = await app
      .em('clinical')
      .findOneOrFail(AuditEvent, { resourceType: 'vital', resourceId: full.body.data.id, action: 'update' });
    expect(change.details).toEqual({
      fields: ['consciousness', 'supplementalOxygen'],
      previous: { consciousness: 'voice', supplementalOxygen: true },
    });
  });

  it('refuses a consciousness level outside ACVPU and a supplemental oxygen that is not a boolean, naming the field', async () => {
    const field = async (body: Record<string, unknown>, id?: string) => {
      const res = id
        ? await c.nurse.api.patch(`/api/vitals/${id}`, body)
        : await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals, ...body });
      expect(res.status).toBe(400);
      return res.body.error.details.map((d: { field: string }) => d.field);
    };
    expect(await field({ consciousness: 'drowsy' })).toEqual(['consciousness']);
    expect(await field({ consciousness: 'A' })).toEqual(['consciousness']);
    expect(await field({ supplemental_oxygen: 'yes' })).toEqual(['supplemental_oxygen']);
    const id = (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).body.data.id;
    expect(await field({ consciousness: 'asleep' }, id)).toEqual(['consciousness']);
    expect(await field({ supplemental_oxygen: 2 }, id)).toEqual(['supplemental_oxygen']);
    expect((await c.nurse.api.get(`/api/vitals/${id}`)).body.data).toMatchObject({ status: 'final', consciousness: null });
    // Consciousness or oxygen alone is not a record of vital signs.
    expect(
      (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, consciousness: 'alert', supplemental_oxygen: false })).body.error
        .details[0].field,
    ).toBe('heart_rate');
  });

  it('gives a ward list its NEWS2 in one GraphQL query, and a member without clinical:read a FORBIDDEN', async () => {
    const ward = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Wanjiru' })).body.data
      .id;
    await c.nurse.api.post('/api/vitals', {
      patient_id: ward,
      ...vitals,
      respiratory_rate: 22,
      consciousness: 'alert',
      supplemental_oxygen: true,
      recorded_at: '2026-01-01T08:00:00Z',
    });
    const record = await c.nurse.api.graphql(
      `mutation($input: RecordVitalInput!) { recordVital(input: $input) { id consciousness supplementalOxygen news2 { score risk redScore assumed } } }`,
      {
        input: {
          patientId: ward,
          heartRate: 135,
          respiratoryRate: 16,
          oxygenSaturation: 95,
          bloodPressureSystolic: 120,
          bloodPressureDiastolic: 80,
          temperature: 37,
          consciousness: 'pain',
        },
      },
    );
    expect(record.body.errors).toBeUndefined();
    expect(record.body.data.recordVital).toMatchObject({
      consciousness: 'pain',
      supplementalOxygen: null,
      news2: { score: 7, risk: 'high', redScore: true, assumed: ['supplementalOxygen'] }, // pulse 3 + SpO2 1 + pain 3
    });
    const bad = await c.nurse.api.graphql('mutation($input: RecordVitalInput!) { recordVital(input: $input) { id } }', {
      input: { patientId: ward, heartRate: 70, consciousness: 'drowsy' },
    });
    expect(bad.body.errors[0].message).toMatch(/consciousness/);
    const wardList = `query($org: ID!) { organizationPatients(organizationId: $org, limit: 100) { items { id vitals(first: 1) { nodes { recordedAt news2 { score risk assumed } } } } } }`;
    const res = await c.doctor.api.graphql(wardList, { org: c.orgId });
    expect(res.body.errors).toBeUndefined();
    const row = res.body.data.organizationPatients.items.find((p: { id: string }) => p.id === ward);
    expect(row.vitals.nodes).toEqual([
      { recordedAt: expect.any(String), news2: { score: 7, risk: 'high', assumed: ['supplementalOxygen'] } },
    ]);
    // The billing clerk reads patients but not their clinical data: vitals stay FORBIDDEN, news2 with them.
    const clerk = await c.billing.api.graphql(wardList, { org: c.orgId });
    const clerkRow = clerk.body.data.organizationPatients.items.find((p: { id: string }) => p.id === ward);
    expect(clerkRow.vitals).toBeNull();
    expect(clerk.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toContain('FORBIDDEN');
    const one = await c.billing.api.graphql('query($id: ID!) { vital(id: $id) { news2 { score } } }', {
      id: record.body.data.recordVital.id,
    });
    expect(one.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await c.billing.api.get(`/api/vitals/${record.body.data.recordVital.id}`)).status).toBe(403);
  });

  it("refuses other organizations' clinicians (404), unclinical members (403) and anonymous callers (401)", async () => {
    const id = (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).body.data.id;
    expect((await stranger.api.get(`/api/vitals/${id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/vitals?patient_id=${c.patientId}`)).status).toBe(404);
    expect((await stranger.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).status).toBe(404);
    expect((await stranger.api.patch(`/api/vitals/${id}`, { heart_rate: 70 })).status).toBe(404);
    expect((await stranger.api.delete(`/api/vitals/${id}`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/vitals/${id}`)).status).toBe(403);
    expect((await c.billing.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).status).toBe(403);
    expect((await c.billing.api.get('/api/vitals')).body.data).toEqual([]);
    expect((await app.api.get(`/api/vitals/${id}`)).status).toBe(401);
    expect((await app.api.get('/api/vitals')).status).toBe(401);
  });
  it("a clinician outside the organization reads a patient's vitals under the patient's consent, and never writes", async () => {
    const id = (await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).body.data.id;
    const specialist = await outsider(app);
    const asked = await specialist.api.post('/api/consent/request', { patient_id: c.patientId, purpose: 'Cardiology review' });
    await c.doctor.api.post(`/api/consent/${asked.body.data.id}/approve`);
    expect(ids(await specialist.api.get(`/api/vitals?patient_id=${c.patientId}&limit=100`))).toContain(id);
    expect((await specialist.api.get(`/api/vitals/${id}`)).status).toBe(200);
    expect((await specialist.api.post('/api/vitals', { patient_id: c.patientId, ...vitals })).status).toBe(403);
    expect((await specialist.api.patch(`/api/vitals/${id}`, { heart_rate: 70 })).status).toBe(403);
  });
});

describe('observations', () => {
  const heartRate = { code: '8867-4', value_quantity: 76, unit: '/min' };

  it('records a LOINC-coded observation, naming and classifying a known code, and lists with filters', async () => {
    const res = await c.nurse.api.post('/api/observations', { patient_id: c.patientId, ...heartRate, interpretation: 'normal' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...heartRate,
      display: 'Heart rate',
      category: 'vital_signs',
      status: 'final',
      value_string: null,
      interpretation: 'normal',
      patient_id: c.patientId,
      organization_id: c.orgId,
      effective_at: expect.any(String),
    });
    const id = res.body.data.id;
    const glucose = await c.doctor.api.post('/api/observations', {
      patient_id: c.patientId,
      code: '15074-8',
      value_quantity: 5.4,
      unit: 'mmol/L',
      status: 'preliminary',
    });
    expect(glucose.body.data).toMatchObject({ display: 'Glucose [Moles/volume] in Blood', category: 'laboratory', status: 'preliminary' });
    const smoking = await c.doctor.api.post('/api/observations', {
      patient_id: c.patientId,
      code: '72166-2',
      category: 'social_history',
      value_string: 'Never smoker',
    });
    expect(smoking.body.data).toMatchObject({ display: null, category: 'social_history', value_string: 'Never smoker', unit: null });
    expect((await c.doctor.api.get(`/api/observations/${id}`)).body.data.id).toBe(id);
    const byCode = await c.doctor.api.get(`/api/observations?patient_id=${c.patientId}&code=8867-4`);
    expect(ids(byCode)).toContain(id);
    expect(byCode.body.data.every((o: { code: string }) => o.code === '8867-4')).toBe(true);
    const labs = ids(await c.doctor.api.get('/api/observations?category=laboratory&limit=100'));
    expect(labs).toContain(glucose.body.data.id);
    expect(labs).not.toContain(id);
    expect(ids(await c.doctor.api.get('/api/observations?status=preliminary&limit=100'))).toEqual([glucose.body.data.id]);
  });

  it('takes the plain `value` a REST client sends: a number as the quantity, text as the string result', async () => {
    const number = await c.nurse.api.post('/api/observations', { patient_id: c.patientId, code: '8867-4', value: 81, unit: '/min' });
    expect(number.status).toBe(201);
    expect(number.body.data).toMatchObject({ value_quantity: 81, unit: '/min', value_string: null });
    const text = await c.doctor.api.post('/api/observations', {
      patient_id: c.patientId,
      code: '72166-2',
      category: 'social_history',
      value: 'Former smoker',
    });
    expect(text.body.data).toMatchObject({ value_string: 'Former smoker', value_quantity: null });
    // The field's own name wins over the synonym.
    const both = await c.nurse.api.post('/api/observations', {
      patient_id: c.patientId,
      code: '8867-4',
      value: 1,
      value_quantity: 82,
      unit: '/min',
    });
    expect(both.body.data.value_quantity).toBe(82);
    const updated = await c.nurse.api.patch(`/api/observations/${number.body.data.id}`, { value: 84 });
    expect(updated.body.data.value_quantity).toBe(84);
    expect(
      (await c.nurse.api.post('/api/observations', { patient_id: c.patientId, code: '8867-4', value: 900, unit: '/min' })).body.error
        .details[0].field,
    ).toBe('value_quantity');
  });

  it('refuses a known code with a unit other than its own, naming unit', async () => {
    const res = await c.nurse.api.post('/api/observations', {
      patient_id: c.patientId,
      code: '8867-4',
      value_quantity: 76,
      unit: 'mm[Hg]',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'unit', message: 'must be /min for LOINC 8867-4 (Heart rate)' }]);
    const temp = await c.nurse.api.post('/api/observations', { patient_id: c.patientId, code: '8310-5', value_quantity: 37, unit: 'C' });
    expect(temp.body.error.details[0]).toEqual({ field: 'unit', message: 'must be Cel or [degF] for LOINC 8310-5 (Body temperature)' });
    expect(
      (await c.nurse.api.post('/api/observations', { patient_id: c.patientId, code: '8310-5', value_quantity: 98.6, unit: '[degF]' }))
        .status,
    ).toBe(201);
  });

  it('validates code, value, unit, category, status and time', async () => {
    const field = async (body: Record<string, unknown>) => {
      const res = await c.nurse.api.post('/api/observations', { patient_id: c.patientId, ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ ...heartRate, code: '8867' })).toBe('code');
    expect(await field({ ...heartRate, code: 'abc-1' })).toBe('code');
    expect(await field({ code: '8867-4', value_quantity: 76 })).toBe('unit');
    expect(await field({ code: '8867-4', value_string: 'fast', unit: '/min' })).toBe('unit');
    expect(await field({ ...heartRate, value_string: 'fast' })).toBe('value_string');
    expect(await field({ code: '8867-4' })).toBe('value_quantity');
    expect(await field({ ...heartRate, value_quantity: 900 })).toBe('value_quantity');
    expect(await field({ code: '99999-9', value_quantity: 1, unit: 'mg' })).toBe('category');
    expect(await field({ ...heartRate, category: 'gossip' })).toBe('category');
    expect(await field({ ...heartRate, unit: 'per min' })).toBe('unit');
    expect(await field({ ...heartRate, status: 'amended' })).toBe('status');
    expect(await field({ ...heartRate, status: 'done' })).toBe('status');
    expect(await field({ ...heartRate, interpretation: 'fine' })).toBe('interpretation');
    expect(await field({ ...heartRate, effective_at: new Date(Date.now() + 3_600_000).toISOString() })).toBe('effective_at');
    // A registered observation (ordered, no result yet) has no value.
    expect((await c.nurse.api.post('/api/observations', { patient_id: c.patientId, code: '2339-0', status: 'registered' })).status).toBe(
      201,
    );
  });

  it('moves through its statuses: registered → preliminary → final → amended; a cancelled one is frozen', async () => {
    const id = (await c.nurse.api.post('/api/observations', { patient_id: c.patientId, code: '2339-0', status: 'registered' })).body.data
      .id;
    const patch = (body: Record<string, unknown>) => c.doctor.api.patch(`/api/observations/${id}`, body);
    expect((await patch({ status: 'final' })).status).toBe(400); // a final result needs a value
    expect((await patch({ value_quantity: 95, unit: 'mg/dL', status: 'preliminary' })).body.data).toMatchObject({
      status: 'preliminary',
      value_quantity: 95,
    });
    expect((await patch({ value_quantity: 97 })).body.data).toMatchObject({ status: 'preliminary', value_quantity: 97 });
    expect((await patch({ status: 'final' })).body.data.status).toBe('final');
    expect((await patch({ value_quantity: 99, interpretation: 'normal' })).body.data).toMatchObject({
      status: 'amended',
      value_quantity: 99,
    });
    expect((await patch({ unit: 'mmol/L' })).body.error.details[0].field).toBe('unit');
    const back = await patch({ status: 'preliminary' });
    expect(back.status).toBe(409);
    expect(back.body.error.message).toBe('Cannot report preliminary an observation that is amended');
    expect((await patch({ status: 'cancelled' })).status).toBe(409);
    expect((await patch({ status: 'entered_in_error' })).body.error.details[0].field).toBe('status');

    const other = (await c.nurse.api.post('/api/observations', { patient_id: c.patientId, code: '2339-0', status: 'registered' })).body.data
      .id;
    expect((await c.doctor.api.patch(`/api/observations/${other}`, { status: 'cancelled' })).body.data.status).toBe('cancelled');
    expect((await c.doctor.api.patch(`/api/observations/${other}`, { value_quantity: 90, unit: 'mg/dL' })).status).toBe(409);
    expect((await c.doctor.api.patch(`/api/observations/${other}`, { status: 'final' })).status).toBe(409);
  });

  it('deletes by marking entered in error, hidden from reads and lists', async () => {
    const id = (await c.nurse.api.post('/api/observations', { patient_id: c.patientId, ...heartRate })).body.data.id;
    const res = await c.nurse.api.delete(`/api/observations/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('entered_in_error');
    expect((await c.nurse.api.get(`/api/observations/${id}`)).status).toBe(404);
    expect((await c.nurse.api.patch(`/api/observations/${id}`, { value_quantity: 70 })).status).toBe(404);
    expect(ids(await c.nurse.api.get(`/api/observations?patient_id=${c.patientId}&limit=100`))).not.toContain(id);
    expect(ids(await c.nurse.api.get('/api/observations?status=entered_in_error'))).toEqual([]);
  });

  it("hides another organization's patients", async () => {
    const id = (await c.nurse.api.post('/api/observations', { patient_id: c.patientId, ...heartRate })).body.data.id;
    expect((await stranger.api.get(`/api/observations/${id}`)).status).toBe(404);
    expect((await stranger.api.post('/api/observations', { patient_id: c.patientId, ...heartRate })).status).toBe(404);
    expect((await stranger.api.delete(`/api/observations/${id}`)).status).toBe(404);
    expect(ids(await stranger.api.get('/api/observations'))).not.toContain(id);
    expect((await c.billing.api.get(`/api/observations/${id}`)).status).toBe(403);
  });
});

describe('imaging orders', () => {
  const order = {
    modality: 'CR',
    body_part: 'chest',
    laterality: 'none',
    clinical_indication: 'Productive cough for three weeks; rule out TB',
  };

  it('creates an order (routine unless said otherwise), reads and lists it', async () => {
    const res = await c.doctor.api.post('/api/imaging', { patient_id: c.patientId, ...order });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...order,
      priority: 'routine',
      status: 'ordered',
      ordered_by: c.doctor.user.id,
      patient_id: c.patientId,
      organization_id: c.orgId,
      cancelled_at: null,
    });
    const id = res.body.data.id;
    expect((await c.nurse.api.get(`/api/imaging/${id}`)).body.data.id).toBe(id);
    const ct = await c.doctor.api.post('/api/imaging', {
      patient_id: c.patientId,
      modality: 'CT',
      priority: 'stat',
      clinical_indication: 'Head injury, GCS 13',
    });
    expect(ct.body.data).toMatchObject({ modality: 'CT', priority: 'stat', body_part: null, laterality: null });
    expect(ids(await c.nurse.api.get(`/api/imaging?patient_id=${c.patientId}`))).toEqual(expect.arrayContaining([id, ct.body.data.id]));
    expect(ids(await c.nurse.api.get('/api/imaging?modality=CT&limit=100'))).not.toContain(id);
    expect(ids(await c.nurse.api.get('/api/imaging?status=ordered&limit=100'))).toContain(id);
  });

  it('validates modality, laterality, priority and the clinical indication', async () => {
    const field = async (body: Record<string, unknown>) => {
      const res = await c.doctor.api.post('/api/imaging', { patient_id: c.patientId, ...order, ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ modality: 'XR' })).toBe('modality');
    expect(await field({ modality: 'ct' })).toBe('modality');
    expect(await field({ laterality: 'both' })).toBe('laterality');
    expect(await field({ priority: 'whenever' })).toBe('priority');
    expect(await field({ clinical_indication: '  ' })).toBe('clinical_indication');
    const { clinical_indication: _, ...missing } = order;
    expect((await c.doctor.api.post('/api/imaging', { patient_id: c.patientId, ...missing })).body.error.details[0].field).toBe(
      'clinical_indication',
    );
  });

  it('cancels an ordered or scheduled order, and only those (409 otherwise)', async () => {
    const create = async () => (await c.doctor.api.post('/api/imaging', { patient_id: c.patientId, ...order })).body.data.id as string;
    const gql = (mutation: string, id: string, extra = '') =>
      c.doctor.api.graphql(`mutation($id: ID!) { ${mutation}(id: $id${extra}) { status } }`, { id });

    const ordered = await create();
    const cancelled = await c.doctor.api.post(`/api/imaging/${ordered}/cancel`, {
      reason: 'Sputum GeneXpert positive; imaging not needed',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      cancelled_by: c.doctor.user.id,
      cancel_reason: 'Sputum GeneXpert positive; imaging not needed',
      cancelled_at: expect.any(String),
    });
    const again = await c.doctor.api.post(`/api/imaging/${ordered}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot cancel an imaging order that is cancelled');
    expect((await gql('scheduleImagingOrder', ordered, ', scheduledAt: "2099-01-01T09:00:00Z"')).body.errors[0].extensions.code).toBe(
      'CONFLICT',
    );

    const scheduled = await create();
    expect((await gql('startImagingOrder', scheduled)).body.errors[0].extensions.code).toBe('CONFLICT'); // not scheduled yet
    expect((await gql('scheduleImagingOrder', scheduled, ', scheduledAt: "2001-01-01T09:00:00Z"')).body.errors[0].extensions.code).toBe(
      'VALIDATION_ERROR',
    );
    expect(
      (await gql('scheduleImagingOrder', scheduled, ', scheduledAt: "2099-01-01T09:00:00Z"')).body.data.scheduleImagingOrder.status,
    ).toBe('scheduled');
    expect((await c.nurse.api.post(`/api/imaging/${scheduled}/cancel`)).body.data.status).toBe('cancelled');

    const started = await create();
    await gql('scheduleImagingOrder', started, ', scheduledAt: "2099-01-01T09:00:00Z"');
    expect((await gql('startImagingOrder', started)).body.data.startImagingOrder.status).toBe('in_progress');
    const late = await c.doctor.api.post(`/api/imaging/${started}/cancel`);
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('Cannot cancel an imaging order that is in progress');
    expect((await gql('completeImagingOrder', started)).body.data.completeImagingOrder.status).toBe('completed');
    expect((await c.doctor.api.post(`/api/imaging/${started}/cancel`)).status).toBe(409);
    expect((await c.doctor.api.get(`/api/imaging/${started}`)).body.data).toMatchObject({
      status: 'completed',
      started_at: expect.any(String),
      completed_at: expect.any(String),
    });
  });

  it("hides another organization's orders and refuses unclinical members", async () => {
    const id = (await c.doctor.api.post('/api/imaging', { patient_id: c.patientId, ...order })).body.data.id;
    expect((await stranger.api.get(`/api/imaging/${id}`)).status).toBe(404);
    expect((await stranger.api.post(`/api/imaging/${id}/cancel`)).status).toBe(404);
    expect((await stranger.api.post('/api/imaging', { patient_id: c.patientId, ...order })).status).toBe(404);
    expect(ids(await stranger.api.get('/api/imaging'))).not.toContain(id);
    expect((await c.billing.api.post(`/api/imaging/${id}/cancel`)).status).toBe(403);
    expect((await c.doctor.api.get(`/api/imaging/${id}`)).body.data.status).toBe('ordered');
  });
});

describe('allergies', () => {
  it('records and lists a patient’s allergies', async () => {
    const res = await c.doctor.api.post(`/api/patients/${c.patientId}/allergies`, {
      substance: 'Penicillin',
      reaction: 'Hives',
      severity: 'moderate',
      category: 'medication',
      criticality: 'high',
      onset_date: '2015-04-02',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      substance: 'Penicillin',
      reaction: 'Hives',
      severity: 'moderate',
      type: 'allergy',
      category: 'medication',
      criticality: 'high',
      onset_date: '2015-04-02',
      status: 'active',
      patient_id: c.patientId,
      organization_id: c.orgId,
      recorded_by: c.doctor.user.id,
    });
    expect(res.body.data).not.toHaveProperty('active_substance_key');
    const list = await c.nurse.api.get(`/api/patients/${c.patientId}/allergies`);
    expect(list.status).toBe(200);
    expect(ids(list)).toContain(res.body.data.id);
    expect(ids(await c.nurse.api.get(`/api/patients/${c.patientId}/allergies?status=resolved`))).not.toContain(res.body.data.id);
  });

  it('refuses a second active allergy to the same substance in any letter case (409), until the first is resolved', async () => {
    const first = await c.doctor.api.post(`/api/patients/${c.patientId}/allergies`, { substance: 'Sulfonamides', severity: 'severe' });
    expect(first.status).toBe(201);
    const dup = await c.nurse.api.post(`/api/patients/${c.patientId}/allergies`, { substance: '  sulfonamides ' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    // A resolved one does not count.
    const resolve = `mutation($id: ID!, $status: AllergyStatus) {
      updateAllergy(id: $id, input: { status: $status }) { allergy { status } userErrors { code } }
    }`;
    const resolved = await c.doctor.api.graphql(resolve, { id: first.body.data.id, status: 'resolved' });
    expect(resolved.body.data.updateAllergy.allergy.status).toBe('resolved');
    const again = await c.nurse.api.post(`/api/patients/${c.patientId}/allergies`, { substance: 'SULFONAMIDES', reaction: 'Rash' });
    expect(again.status).toBe(201);
    // Reactivating the old one would make two.
    expect((await c.doctor.api.graphql(resolve, { id: first.body.data.id, status: 'active' })).body.data.updateAllergy).toEqual({
      allergy: null,
      userErrors: [{ code: 'DUPLICATE' }],
    });
    expect(
      (await c.doctor.api.post(`/api/patients/${c.patientId}/allergies`, { substance: 'Sulfonamides', status: 'inactive' })).status,
    ).toBe(201);
  });

  it('answers GraphQL clients an allergy already recorded and a bad field as userErrors, the allergy null', async () => {
    const record = `mutation($p: ID!, $input: RecordAllergyInput!) {
      recordAllergy(patientId: $p, input: $input) { allergy { substance } userErrors { field message code } }
    }`;
    const first = await c.doctor.api.graphql(record, { p: c.patientId, input: { substance: 'Ibuprofen' } });
    expect(first.body.data.recordAllergy).toEqual({ allergy: { substance: 'Ibuprofen' }, userErrors: [] });
    const again = await c.nurse.api.graphql(record, { p: c.patientId, input: { substance: 'IBUPROFEN' } });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.recordAllergy).toEqual({
      allergy: null,
      userErrors: [{ field: null, message: 'An active allergy to IBUPROFEN is already recorded for this patient', code: 'DUPLICATE' }],
    });
    const blank = await c.doctor.api.graphql(record, { p: c.patientId, input: { substance: '   ' } });
    expect(blank.body.data.recordAllergy).toEqual({
      allergy: null,
      userErrors: [{ field: ['input', 'substance'], message: expect.any(String), code: 'INVALID' }],
    });
    const correct = `mutation($id: ID!, $input: UpdateAllergyInput!) {
      updateAllergy(id: $id, input: $input) { allergy { reaction } userErrors { field message code } }
    }`;
    const id = (await c.doctor.api.get(`/api/patients/${c.patientId}/allergies`)).body.data.find(
      (a: { substance: string }) => a.substance === 'Ibuprofen',
    ).id;
    const emptied = await c.doctor.api.graphql(correct, { id, input: { substance: ' ' } });
    expect(emptied.body.data.updateAllergy).toEqual({
      allergy: null,
      userErrors: [{ field: ['input', 'substance'], message: expect.any(String), code: 'INVALID' }],
    });
    const corrected = await c.doctor.api.graphql(correct, { id, input: { reaction: 'Hives' } });
    expect(corrected.body.data.updateAllergy).toEqual({ allergy: { reaction: 'Hives' }, userErrors: [] });
  });

  it('lets a patient record their own allergies, but not their vital signs', async () => {
    const patient = await signUp(app.api, { registration_role: 'PATIENT' });
    const ownId = (await patient.api.post('/api/patients', { ...SAMPLE_PATIENT, first_name: 'Own' })).body.data.id;
    const res = await patient.api.post(`/api/patients/${ownId}/allergies`, { substance: 'Peanuts', category: 'food', severity: 'severe' });
    expect(res.status).toBe(201);
    expect(res.body.data.recorded_by).toBe(patient.user.id);
    expect(ids(await patient.api.get(`/api/patients/${ownId}/allergies`))).toEqual([res.body.data.id]);
    expect((await patient.api.post('/api/vitals', { patient_id: ownId, heart_rate: 70 })).status).toBe(403);
    expect((await patient.api.post(`/api/patients/${c.patientId}/allergies`, { substance: 'Peanuts' })).status).toBe(404);
  });

  it("validates, and hides other organizations' patients", async () => {
    const field = async (body: Record<string, unknown>) => {
      const res = await c.doctor.api.post(`/api/patients/${c.patientId}/allergies`, { substance: 'Latex', ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ substance: '' })).toBe('substance');
    expect(await field({ severity: 'extreme' })).toBe('severity');
    expect(await field({ type: 'dislike' })).toBe('type');
    expect(await field({ category: 'drug' })).toBe('category');
    expect(await field({ criticality: 'medium' })).toBe('criticality');
    expect(await field({ onset_date: '2999-01-01' })).toBe('onset_date');
    expect(await field({ status: 'gone' })).toBe('status');
    expect((await stranger.api.get(`/api/patients/${c.patientId}/allergies`)).status).toBe(404);
    expect((await stranger.api.post(`/api/patients/${c.patientId}/allergies`, { substance: 'Latex' })).status).toBe(404);
    expect((await c.billing.api.get(`/api/patients/${c.patientId}/allergies`)).status).toBe(403);
  });
});

describe('the patient graph', () => {
  it('gives each patient of a page its newest vitals and allergies', async () => {
    const second = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Baraka' })).body
      .data.id;
    await c.nurse.api.post('/api/vitals', { patient_id: second, heart_rate: 110, temperature: 38.4 });
    await c.nurse.api.post(`/api/patients/${second}/allergies`, { substance: 'Aspirin' });
    const res = await c.doctor.api.graphql(
      'query($org: ID!) { organizationPatients(organizationId: $org, limit: 10) { items { id vitals(first: 2) { nodes { heartRate patientId } } allergies(first: 5) { nodes { substance patientId } } } } }',
      { org: c.orgId },
    );
    expect(res.body.errors).toBeUndefined();
    const byId = new Map(res.body.data.organizationPatients.items.map((p: { id: string }) => [p.id, p]));
    type Nodes<T> = { nodes: T[] };
    const b = byId.get(second) as { vitals: Nodes<{ heartRate: number; patientId: string }>; allergies: Nodes<{ substance: string }> };
    expect(b.vitals.nodes).toEqual([{ heartRate: 110, patientId: second }]);
    expect(b.allergies.nodes.map((a) => a.substance)).toEqual(['Aspirin']);
    const first = byId.get(c.patientId) as { vitals: Nodes<{ patientId: string }>; allergies: Nodes<unknown> };
    expect(first.vitals.nodes).toHaveLength(2);
    expect(first.vitals.nodes.every((v) => v.patientId === c.patientId)).toBe(true);
    expect(first.allergies.nodes.length).toBeGreaterThan(0);
  });
});
