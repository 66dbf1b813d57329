import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { OutboxEvent } from '../shared/outbox';
import { Prescription } from '../subgraphs/clinical/prescriptions/prescription.entity';
import { LabResult, LabResultReviewStatus } from '../subgraphs/clinical/labs/lab.entity';
import { SAMPLE_PATIENT, signInAdmin, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

let app: TestApp;
let c: Clinic;
let stranger: SignedUp & { orgId: string };
let admin: Api;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
  admin = await signInAdmin(app.api);
});
afterAll(() => app.close());

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

async function newPatient(first = 'Achieng', fields: Record<string, unknown> = {}): Promise<string> {
  const res = await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
    ...SAMPLE_PATIENT,
    first_name: first,
    email: `${randomUUID().slice(0, 8)}@example.test`,
    ...fields,
  });
  if (res.status !== 201) throw new Error(`patient: ${res.status} ${res.text}`);
  return res.body.data.id;
}

async function allergy(patientId: string, substance: string, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await c.nurse.api.post(`/api/patients/${patientId}/allergies`, {
    substance,
    reaction: 'urticaria',
    type: 'allergy',
    criticality: 'high',
    ...fields,
  });
  if (res.status !== 201) throw new Error(`allergy: ${res.status} ${res.text}`);
  return res.body.data.id;
}

async function prescribe(patientId: string, medication: string, duration = '30 days'): Promise<string> {
  const res = await c.doctor.api.post('/api/prescriptions', {
    patient_id: patientId,
    medication,
    dosage: '1 tablet',
    frequency: 'daily',
    duration,
    instructions: 'as directed',
  });
  if (res.status !== 201) throw new Error(`prescription: ${res.status} ${res.text}`);
  const signed = await c.doctor.api.post(`/api/prescriptions/${res.body.data.id}/sign`);
  if (signed.status !== 200) throw new Error(`sign: ${signed.status} ${signed.text}`);
  return res.body.data.id;
}

const check = (api: Api, body: unknown) => api.post('/api/cds/drug-interactions/check', body);

describe('drug interaction check', () => {
  it('warfarin with aspirin: a major interaction with a recommendation, in the SPEC shape', async () => {
    const res = await check(c.doctor.api, {
      medications: [
        { name: 'Warfarin', rxcui: '11289' },
        { name: 'Aspirin', rxcui: '1191' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const [interaction, ...rest] = res.body.data.interactions;
    expect(rest).toEqual([]);
    expect(interaction).toEqual(
      expect.objectContaining({
        severity: 'major',
        description: expect.stringMatching(/bleeding/i),
        drugs: ['Warfarin', 'Aspirin'],
        recommendation: expect.stringMatching(/\w/),
      }),
    );
    expect(typeof interaction.description).toBe('string');
    expect(interaction.source).toMatch(/warfarin|Coumadin/i);
    expect(res.body.data.unrecognized).toEqual([]);
    expect(res.body.data.sources.join(' ')).toMatch(/Phansalkar/);
  });

  it('resolves brand names, strengths and RxNorm codes, and reports what it does not know', async () => {
    const res = await check(c.nurse.api, {
      medications: [{ name: 'COUMADIN 5mg' }, { rxcui: '5640' }, { name: 'Unobtainium 10 mg' }, { name: 'Paracetamol' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.interactions).toEqual([expect.objectContaining({ severity: 'major', drugs: ['COUMADIN 5mg', 'Ibuprofen'] })]);
    expect(res.body.data.unrecognized).toEqual([{ index: 2, name: 'Unobtainium 10 mg', rxcui: null }]);
    expect(res.body.data.medications[1]).toMatchObject({ matched_by: 'rxcui', ingredients: [{ key: 'ibuprofen', rxcui: ['5640'] }] });
  });

  it('finds the ONC high-priority pairs through their classes, and duplicates', async () => {
    const res = await check(c.doctor.api, { medications: [{ name: 'Zocor 40 mg' }, { name: 'Clarithromycin' }, { name: 'Simvastatin' }] });
    expect(res.body.data.interactions.map((i: { severity: string }) => i.severity)).toEqual(['contraindicated', 'contraindicated']);
    expect(res.body.data.interactions[0].source).toMatch(/Phansalkar/);
    expect(res.body.data.duplicates).toEqual([{ ingredient: 'Simvastatin', drugs: ['Zocor 40 mg', 'Simvastatin'] }]);
  });

  it("with a patient: conflicts with the patient's allergies, and active prescriptions on request", async () => {
    const patientId = await newPatient();
    const allergyId = await allergy(patientId, 'Penicillin');
    await prescribe(patientId, 'Warfarin 5 mg');
    const res = await check(c.doctor.api, {
      patient_id: patientId,
      include_active_medications: true,
      medications: [{ name: 'Amoxicillin 500 mg' }, { name: 'Ibuprofen 400 mg' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.allergy_conflicts).toEqual([
      expect.objectContaining({
        severity: 'contraindicated',
        drugs: ['Amoxicillin 500 mg'],
        allergy_id: allergyId,
        allergen: 'Penicillin',
        basis: 'same_class',
      }),
    ]);
    expect(res.body.data.interactions).toEqual([
      expect.objectContaining({ severity: 'major', drugs: ['Ibuprofen 400 mg', 'Warfarin 5 mg'] }),
    ]);
    expect(res.body.data.medications.map((m: { origin: string }) => m.origin)).toEqual(['request', 'request', 'active_prescription']);
    // Outsiders learn nothing; members without the clinical role are told why not.
    expect((await check(stranger.api, { patient_id: patientId, medications: [{ name: 'Aspirin' }] })).status).toBe(404);
    expect((await check(c.billing.api, { patient_id: patientId, medications: [{ name: 'Aspirin' }] })).status).toBe(403);
    expect((await check(c.doctor.api, { patient_id: 'not-a-uuid', medications: [{ name: 'Aspirin' }] })).status).toBe(400);
    expect((await check(c.doctor.api, { include_active_medications: true, medications: [{ name: 'Aspirin' }] })).status).toBe(400);
  });

  it('refuses anonymous callers and malformed input', async () => {
    expect((await check(app.api, { medications: [{ name: 'Aspirin' }] })).status).toBe(401);
    const field = async (body: unknown) => {
      const res = await check(c.doctor.api, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      return res.body.error.details[0].field;
    };
    expect(await field({})).toBe('medications');
    expect(await field({ medications: [] })).toBe('medications');
    expect(await field({ medications: 'warfarin' })).toBe('medications[0]');
    expect(await field({ medications: [{ name: 'Aspirin' }, {}] })).toBe('medications.1.name');
    expect(await field({ medications: [{ name: 42 }] })).toBe('medications[0].name');
    expect(await field({ medications: [{ name: '   ' }] })).toBe('medications.0.name');
    expect(await field({ medications: Array.from({ length: 51 }, () => ({ name: 'Aspirin' })) })).toBe('medications');
  });

  it('answers GraphQL the same', async () => {
    const res = await c.doctor.api.graphql(
      'query($input: DrugInteractionCheckInput!) { drugInteractionCheck(input: $input) { interactions { severity drugs recommendation } } }',
      { input: { medications: [{ name: 'warfarin' }, { name: 'aspirin' }] } },
    );
    expect(res.body.data.drugInteractionCheck.interactions).toEqual([
      { severity: 'major', drugs: ['warfarin', 'aspirin'], recommendation: expect.any(String) },
    ]);
  });
});

describe('interaction knowledge', () => {
  const rule = {
    drug_a: 'Newdrugamab',
    drug_b: 'Coumadin',
    severity: 'major',
    description: 'Raises the INR.',
    recommendation: 'Check the INR within 3 days.',
    source: 'Local formulary committee, 2026',
  };

  it('administrators add a rule and the next check uses it; the same upsert again replaces it', async () => {
    const res = await admin.post('/api/cds/drug-interactions', rule);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      created: true,
      unknown_drugs: ['newdrugamab'],
      rule: { side_a: 'newdrugamab', side_b: 'warfarin', severity: 'major', origin: 'administrator' },
    });
    const found = await check(c.doctor.api, { medications: [{ name: 'Newdrugamab 10 mg' }, { name: 'Warfarin' }] });
    expect(found.body.data.interactions).toEqual([
      expect.objectContaining({ severity: 'major', description: 'Raises the INR.', drugs: ['Newdrugamab 10 mg', 'Warfarin'] }),
    ]);
    expect(found.body.data.unrecognized).toEqual([]);
    const again = await admin.post('/api/cds/drug-interactions', {
      ...rule,
      drug_a: 'warfarin',
      drug_b: 'newdrugamab',
      severity: 'moderate',
    });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ created: false, rule: { id: res.body.data.rule.id, severity: 'moderate' } });
    const after = await check(c.doctor.api, { medications: [{ name: 'Newdrugamab' }, { name: 'Warfarin' }] });
    expect(after.body.data.interactions[0].severity).toBe('moderate');
  });

  it('an ingredient rule overrides the class rules for its pair; classes pair with themselves', async () => {
    const before = await check(c.doctor.api, { medications: [{ name: 'Sertraline' }, { name: 'Naproxen' }] });
    expect(before.body.data.interactions[0]).toMatchObject({ severity: 'moderate', basis: 'classes' });
    const res = await admin.post('/api/cds/drug-interactions', {
      ...rule,
      drug_a: 'sertraline',
      drug_b: '7258',
      severity: 'major',
      description: 'Local rule.',
    });
    expect(res.status).toBe(201);
    const after = await check(c.doctor.api, { medications: [{ name: 'Sertraline' }, { name: 'Naproxen' }] });
    expect(after.body.data.interactions[0]).toMatchObject({ severity: 'major', basis: 'ingredients', description: 'Local rule.' });
    expect((await admin.post('/api/cds/drug-interactions', { ...rule, drug_a: 'class:triptans', drug_b: 'class:triptans' })).status).toBe(
      201,
    );
  });

  it('lists rules, by drug and severity', async () => {
    const res = await c.nurse.api.get('/api/cds/drug-interactions?drug=warfarin&limit=100');
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBeGreaterThan(3);
    expect(
      res.body.data.some((r: { side_a_name: string; side_b_name: string }) => /Antiplatelet/.test(r.side_a_name + r.side_b_name)),
    ).toBe(true);
    const contra = await c.nurse.api.get('/api/cds/drug-interactions?severity=contraindicated&limit=100');
    expect(contra.body.data.every((r: { severity: string }) => r.severity === 'contraindicated')).toBe(true);
    expect((await c.nurse.api.get('/api/cds/drug-interactions?drug=nothing-known')).body.data).toEqual([]);
    expect((await c.nurse.api.get('/api/cds/drug-interactions?severity=deadly')).status).toBe(400);
    expect((await app.api.get('/api/cds/drug-interactions')).status).toBe(401);
  });

  it('only administrators write, and every side must name one drug or class', async () => {
    expect((await c.doctor.api.post('/api/cds/drug-interactions', rule)).status).toBe(403);
    expect((await app.api.post('/api/cds/drug-interactions', rule)).status).toBe(401);
    const field = async (body: Record<string, unknown>) => {
      const res = await admin.post('/api/cds/drug-interactions', { ...rule, ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ drug_a: 'class:nonsense' })).toBe('drug_a');
    expect(await field({ drug_b: 'Augmentin' })).toBe('drug_b');
    expect(await field({ drug_b: 'Newdrugamab' })).toBe('drug_b');
    expect(await field({ severity: 'deadly' })).toBe('severity');
    expect(await field({ source: ' ' })).toBe('source');
    expect(await field({ description: undefined })).toBe('description');
  });
});

const vitals = {
  respiratory_rate: 16,
  oxygen_saturation: 97,
  supplemental_oxygen: false,
  blood_pressure_systolic: 120,
  heart_rate: 70,
  consciousness: 'alert',
  temperature: 37,
};

describe('early warning score (NEWS2)', () => {
  it('scores the observations given, each parameter with its band', async () => {
    const res = await c.nurse.api.post('/api/cds/early-warning-score', { ...vitals, respiratory_rate: 22, heart_rate: 112 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: null,
      total: 4,
      risk: 'low',
      red_score: false,
      monitoring_frequency: 'Minimum 4-6-hourly',
      spo2_scale: 1,
    });
    expect(res.body.data.parameters).toEqual([
      { parameter: 'respiratoryRate', value: '22', score: 2, band: '21-24' },
      { parameter: 'oxygenSaturation', value: '97', score: 0, band: '≥96' },
      { parameter: 'supplementalOxygen', value: 'air', score: 0, band: 'Air' },
      { parameter: 'systolicBloodPressure', value: '120', score: 0, band: '111-219' },
      { parameter: 'heartRate', value: '112', score: 2, band: '111-130' },
      { parameter: 'consciousness', value: 'alert', score: 0, band: 'Alert' },
      { parameter: 'temperature', value: '37.0', score: 0, band: '36.1-38.0' },
    ]);
    const scale2 = await c.nurse.api.post('/api/cds/early-warning-score', {
      ...vitals,
      oxygen_saturation: 97,
      spo2_scale: 2,
      supplemental_oxygen: true,
    });
    expect(scale2.body.data).toMatchObject({ total: 5, risk: 'medium' }); // 3 (≥97 on O2, scale 2) + 2 (oxygen)
  });

  it('names every missing parameter, and refuses implausible values', async () => {
    const res = await c.nurse.api.post('/api/cds/early-warning-score', { heart_rate: 80 });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'respiratory_rate',
      'oxygen_saturation',
      'supplemental_oxygen',
      'blood_pressure_systolic',
      'consciousness',
      'temperature',
    ]);
    const bad = async (body: Record<string, unknown>) =>
      (await c.nurse.api.post('/api/cds/early-warning-score', { ...vitals, ...body })).body.error?.details?.[0]?.field;
    expect(await bad({ heart_rate: 900 })).toBe('heart_rate');
    expect(await bad({ spo2_scale: 3 })).toBe('spo2_scale');
    expect(await bad({ consciousness: 'drowsy' })).toBe('consciousness');
    expect(await bad({ supplemental_oxygen: 'yes' })).toBe('supplemental_oxygen');
    expect((await app.api.post('/api/cds/early-warning-score', vitals)).status).toBe(401);
  });

  it('with a patient: takes the latest vital signs, keeps the score, and raises a critical score once', async () => {
    const patientId = await newPatient();
    const only = await c.nurse.api.post('/api/cds/early-warning-score', { patient_id: patientId });
    expect(only.body.error.details.map((d: { field: string }) => d.field)).toContain('consciousness');
    await c.nurse.api.post('/api/vitals', {
      patient_id: patientId,
      heart_rate: 70,
      respiratory_rate: 16,
      oxygen_saturation: 97,
      blood_pressure_systolic: 120,
      blood_pressure_diastolic: 80,
      temperature: 37,
      recorded_at: '2026-01-01T08:00:00Z',
    });
    const vital = await c.nurse.api.post('/api/vitals', {
      patient_id: patientId,
      heart_rate: 125,
      respiratory_rate: 26,
      oxygen_saturation: 91,
      blood_pressure_systolic: 95,
      blood_pressure_diastolic: 60,
      temperature: 39.5,
    });
    const missing = await c.nurse.api.post('/api/cds/early-warning-score', { patient_id: patientId });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toEqual(['supplemental_oxygen', 'consciousness']);
    const res = await c.nurse.api.post('/api/cds/early-warning-score', {
      patient_id: patientId,
      supplemental_oxygen: true,
      consciousness: 'voice',
    });
    expect(res.status).toBe(200);
    // RR 26 (3) + SpO2 91 (3) + oxygen (2) + SBP 95 (2) + pulse 125 (2) + voice (3) + 39.5 (2) = 17
    expect(res.body.data).toMatchObject({ patient_id: patientId, total: 17, risk: 'high', vital_id: vital.body.data.id });
    expect(res.body.data.from_vitals).toEqual(['respiratoryRate', 'oxygenSaturation', 'bloodPressureSystolic', 'heartRate', 'temperature']);
    expect(res.body.data.id).toEqual(expect.any(String));
    const events = await app.em('clinical').find(OutboxEvent, { topic: 'svc.cds.critical_score', payload: { patient_id: patientId } });
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({ score: 'news2', value: 17, risk: 'high' });
    // A given value wins over the vital sign; a low score raises nothing.
    const low = await c.nurse.api.post('/api/cds/early-warning-score', { patient_id: patientId, ...vitals });
    expect(low.body.data).toMatchObject({ total: 0, from_vitals: [] });
    expect(await app.em('clinical').count(OutboxEvent, { topic: 'svc.cds.critical_score', payload: { patient_id: patientId } })).toBe(1);
  });

  it('with a patient: takes the consciousness level and oxygen from the latest vital signs when they hold them', async () => {
    const patientId = await newPatient();
    const vital = await c.nurse.api.post('/api/vitals', {
      patient_id: patientId,
      heart_rate: 70,
      respiratory_rate: 16,
      oxygen_saturation: 97,
      blood_pressure_systolic: 120,
      blood_pressure_diastolic: 80,
      temperature: 37,
      consciousness: 'new_confusion',
      supplemental_oxygen: true,
    });
    const res = await c.nurse.api.post('/api/cds/early-warning-score', { patient_id: patientId });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 5, risk: 'medium', vital_id: vital.body.data.id, assumed: [] });
    expect(res.body.data.from_vitals).toEqual([
      'respiratoryRate',
      'oxygenSaturation',
      'supplementalOxygen',
      'bloodPressureSystolic',
      'heartRate',
      'consciousness',
      'temperature',
    ]);
  });

  it('patients of other organizations are hidden; members without the clinical role are refused', async () => {
    const patientId = await newPatient();
    expect((await stranger.api.post('/api/cds/early-warning-score', { patient_id: patientId, ...vitals })).status).toBe(404);
    expect((await c.billing.api.post('/api/cds/early-warning-score', { patient_id: patientId, ...vitals })).status).toBe(403);
    expect((await c.nurse.api.post('/api/cds/early-warning-score', { patient_id: randomUUID(), ...vitals })).status).toBe(404);
  });
});

describe('panic values', () => {
  it('checks results against the shipped limits', async () => {
    const res = await c.nurse.api.post('/api/cds/panic-values/check', {
      results: [
        { code: '2823-3', value: 6.8, unit: 'mmol/L' },
        { name: 'Sodium', value: 138, unit: 'mmol/L' },
        { code: '718-7', value: 6.2, unit: 'g/dL' },
        { code: '2823-3', value: 6.8, unit: 'mg/dL' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.critical_count).toBe(2);
    expect(
      res.body.data.results.map((r: { critical: boolean; direction: string | null; known: boolean }) => [r.critical, r.direction, r.known]),
    ).toEqual([
      [true, 'high', true],
      [false, null, true],
      [true, 'low', true],
      [false, null, false],
    ]);
    expect(res.body.data.source).toMatch(/College of American Pathologists/);
  });

  it('refuses malformed input and anonymous callers', async () => {
    expect((await c.nurse.api.post('/api/cds/panic-values/check', { results: [] })).status).toBe(400);
    expect(
      (await c.nurse.api.post('/api/cds/panic-values/check', { results: [{ code: '2823-3', value: 'high', unit: 'mmol/L' }] })).body.error
        .details[0].field,
    ).toBe('results[0].value');
    expect(
      (await c.nurse.api.post('/api/cds/panic-values/check', { results: [{ code: '2823-3', value: 5 }] })).body.error.details[0].field,
    ).toBe('results[0].unit');
    expect((await app.api.post('/api/cds/panic-values/check', { results: [{ code: '2823-3', value: 5, unit: 'mmol/L' }] })).status).toBe(
      401,
    );
  });
});

describe('adverse events', () => {
  const report = {
    suspected_drug: 'Amoxicillin 500 mg',
    reaction: 'Angioedema',
    onset_date: '2026-01-10',
    seriousness_criteria: ['hospitalization'],
    severity: 'severe',
    outcome: 'recovering',
    causality: 'probable',
    action_taken: 'drug_withdrawn',
  };

  it('reports, reads and lists suspected reactions with their ICH E2A seriousness', async () => {
    const patientId = await newPatient();
    const res = await c.doctor.api.post('/api/cds/adverse-events', { patient_id: patientId, ...report });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...report,
      patient_id: patientId,
      organization_id: c.orgId,
      serious: true,
      ingredients: ['amoxicillin'],
      reported_by: c.doctor.user.id,
    });
    const id = res.body.data.id;
    expect((await c.nurse.api.get(`/api/cds/adverse-events/${id}`)).body.data.id).toBe(id);
    const mild = await c.nurse.api.post('/api/cds/adverse-events', {
      patient_id: patientId,
      suspected_drug: 'Ibuprofen',
      reaction: 'Dyspepsia',
      outcome: 'recovered',
    });
    expect(mild.body.data).toMatchObject({ serious: false, seriousness_criteria: [] });
    const list = await c.nurse.api.get(`/api/cds/adverse-events?patient_id=${patientId}`);
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([mild.body.data.id, id]);
    expect(
      (await c.nurse.api.get(`/api/cds/adverse-events?patient_id=${patientId}&serious=true`)).body.data.map((e: { id: string }) => e.id),
    ).toEqual([id]);
    expect((await c.nurse.api.get('/api/cds/adverse-events?limit=100')).body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect((await stranger.api.get('/api/cds/adverse-events?limit=100')).body.data.map((e: { id: string }) => e.id)).not.toContain(id);
    const [event] = await app
      .em('clinical')
      .find(OutboxEvent, { topic: 'svc.cds.adverse_event_reported', payload: { adverse_event_id: id } });
    expect(event.payload).toMatchObject({ serious: true, seriousness_criteria: ['hospitalization'], suspected_drug: 'Amoxicillin 500 mg' });
    const graph = await c.doctor.api.graphql('query($id: ID!) { adverseEvent(id: $id) { id patient { id } } }', { id });
    expect(graph.body.data.adverseEvent).toEqual({ id, patient: { id: patientId } });
  });

  it('keeps seriousness and outcome consistent, and validates every field', async () => {
    const patientId = await newPatient();
    const field = async (body: Record<string, unknown>) => {
      const res = await c.doctor.api.post('/api/cds/adverse-events', { patient_id: patientId, ...report, ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ outcome: 'fatal' })).toBe('seriousness_criteria');
    expect(await field({ seriousness_criteria: ['death'] })).toBe('outcome');
    expect(await field({ seriousness_criteria: ['bad'] })).toBe('seriousness_criteria[0]');
    expect(await field({ onset_date: '2999-01-01' })).toBe('onset_date');
    expect(await field({ reaction: '' })).toBe('reaction');
    expect(await field({ outcome: undefined })).toBe('outcome');
    const fatal = await c.doctor.api.post('/api/cds/adverse-events', {
      patient_id: patientId,
      ...report,
      outcome: 'fatal',
      seriousness_criteria: ['death', 'hospitalization'],
    });
    expect(fatal.status).toBe(201);
  });

  it('hides reports from outsiders and refuses those without the clinical role', async () => {
    const patientId = await newPatient();
    const id = (await c.doctor.api.post('/api/cds/adverse-events', { patient_id: patientId, ...report })).body.data.id;
    expect((await stranger.api.get(`/api/cds/adverse-events/${id}`)).status).toBe(404);
    expect((await stranger.api.post('/api/cds/adverse-events', { patient_id: patientId, ...report })).status).toBe(404);
    expect((await c.billing.api.post('/api/cds/adverse-events', { patient_id: patientId, ...report })).status).toBe(403);
    expect((await c.doctor.api.get('/api/cds/adverse-events/not-a-uuid')).status).toBe(404);
    expect((await c.doctor.api.get(`/api/cds/adverse-events/${randomUUID()}`)).status).toBe(404);
    expect((await app.api.get('/api/cds/adverse-events')).status).toBe(401);
  });
});

async function criticalResult(patientId: string): Promise<string> {
  const em = app.em('clinical');
  const row = em.create(LabResult, {
    labOrderId: randomUUID(),
    patientId,
    organizationId: c.orgId,
    code: '2823-3',
    codeSystem: 'LN',
    display: 'Potassium',
    valueType: 'NM',
    value: '6.9',
    numericValue: 6.9,
    unit: 'mmol/L',
    referenceRange: '3.5-5.1',
    abnormalFlag: 'HH',
    abnormal: true,
    critical: true,
    resultStatus: 'F',
    observedAt: new Date(),
    messageControlId: randomUUID(),
    sequence: 1,
    reviewStatus: LabResultReviewStatus.pending_review,
  });
  await em.flush();
  return row.id;
}

describe('patient risk', () => {
  it('combines NEWS2, critical results, interactions, allergy conflicts and allergies, with reasons', async () => {
    const patientId = await newPatient();
    const low = await c.nurse.api.get(`/api/cds/patient-risk?patient_id=${patientId}`);
    expect(low.status).toBe(200);
    expect(low.body.data).toMatchObject({
      patient_id: patientId,
      level: 'low',
      reasons: [],
      news2: null,
      critical_results_pending_review: 0,
    });
    await allergy(patientId, 'Penicillin');
    await prescribe(patientId, 'Warfarin 5 mg');
    await prescribe(patientId, 'Aspirin 75 mg');
    await prescribe(patientId, 'Amoxicillin 500 mg', '5 days');
    // A course that has ended is not active: 3 days, signed 10 days ago.
    const ended = await prescribe(patientId, 'Ibuprofen 400 mg', '3 days');
    await app.em('clinical').nativeUpdate(Prescription, { id: ended }, { signedAt: new Date(Date.now() - 10 * 86_400_000) });
    const resultId = await criticalResult(patientId);
    await c.nurse.api.post('/api/cds/early-warning-score', {
      patient_id: patientId,
      ...vitals,
      respiratory_rate: 22,
      heart_rate: 115,
      temperature: 38.5,
    });
    const res = await c.nurse.api.get(`/api/cds/patient-risk?patient_id=${patientId}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.level).toBe('high');
    expect(data.critical_results_pending_review).toBe(1);
    expect(data.news2).toMatchObject({ total: 5, risk: 'medium' });
    expect(data.allergy_conflicts).toEqual([expect.objectContaining({ severity: 'contraindicated', drugs: ['Amoxicillin 500 mg'] })]);
    expect(data.interactions.map((i: { drugs: string[] }) => i.drugs)).toEqual([['Warfarin 5 mg', 'Aspirin 75 mg']]);
    expect(data.active_medications).toEqual(['Warfarin 5 mg', 'Aspirin 75 mg', 'Amoxicillin 500 mg']);
    const kinds = data.reasons.map((r: { kind: string }) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(['news2', 'critical_result', 'interaction', 'allergy_conflict', 'allergy']));
    expect(data.reasons[0].level).toBe('high');
    expect(data.reasons.find((r: { kind: string }) => r.kind === 'critical_result')).toMatchObject({
      resource_type: 'lab_result',
      resource_id: resultId,
    });
    const graph = await c.doctor.api.graphql(
      'query($id: ID!) { patientRisk(patientId: $id) { level patient { id } news2 { total patient { id } } } }',
      { id: patientId },
    );
    expect(graph.body.data.patientRisk).toEqual({
      level: 'high',
      patient: { id: patientId },
      news2: { total: 5, patient: { id: patientId } },
    });
  });

  it('counts the NEWS2 of vital signs taken after the last kept score, assuming alert and air when not recorded', async () => {
    const patientId = await newPatient();
    const risk = async () => (await c.nurse.api.get(`/api/cds/patient-risk?patient_id=${patientId}`)).body.data;
    type Reason = { kind: string; summary: string; resource_type: string; resource_id: string };
    const news2Reason = (data: { reasons: Reason[] }) => data.reasons.find((r) => r.kind === 'news2')!;
    // Someone scored the patient earlier: low.
    const kept = await c.nurse.api.post('/api/cds/early-warning-score', { patient_id: patientId, ...vitals });
    expect((await risk()).level).toBe('low');
    // The latest vitals score NEWS2 12: RR 26 (3), SpO2 90 (3), systolic 95 (2), pulse 125 (2), 39.5 °C (2).
    const unwell = {
      patient_id: patientId,
      respiratory_rate: 26,
      oxygen_saturation: 90,
      blood_pressure_systolic: 95,
      blood_pressure_diastolic: 60,
      heart_rate: 125,
      temperature: 39.5,
    };
    const vital = (await c.nurse.api.post('/api/vitals', unwell)).body.data;
    const data = await risk();
    expect(data.level).toBe('high');
    expect(data.news2).toMatchObject({
      id: null,
      patient_id: patientId,
      total: 12,
      risk: 'high',
      spo2_scale: 1,
      vital_id: vital.id,
      observed_at: vital.recorded_at,
      from_vitals: ['respiratoryRate', 'oxygenSaturation', 'bloodPressureSystolic', 'heartRate', 'temperature'],
      assumed: ['consciousness', 'supplementalOxygen'],
    });
    expect(news2Reason(data)).toEqual({
      kind: 'news2',
      level: 'high',
      summary: expect.stringMatching(
        /^NEWS2 12 \(high risk\) from the vital signs recorded (less than an hour|\d+ hours?) ago \(consciousness and supplemental oxygen not recorded: scored as alert and air\): continuous monitoring of vital signs$/,
      ),
      at: vital.recorded_at,
      resource_type: 'vital',
      resource_id: vital.id,
    });
    // A later record without the five measurements does not hide it.
    await c.nurse.api.post('/api/vitals', { patient_id: patientId, weight_kg: 70 });
    expect((await risk()).news2.vital_id).toBe(vital.id);
    // A record holding consciousness and oxygen assumes neither; entered in error, it no longer counts.
    const withdrawn = (await c.nurse.api.post('/api/vitals', { ...unwell, consciousness: 'alert', supplemental_oxygen: true })).body.data;
    expect((await risk()).news2).toMatchObject({ total: 14, vital_id: withdrawn.id, assumed: [] });
    await c.nurse.api.delete(`/api/vitals/${withdrawn.id}`);
    expect((await risk()).news2).toMatchObject({ total: 12, vital_id: vital.id });
    const recorded = (await c.nurse.api.post('/api/vitals', { ...unwell, consciousness: 'alert', supplemental_oxygen: true })).body.data;
    const withOxygen = await risk();
    expect(withOxygen.news2).toMatchObject({ total: 14, vital_id: recorded.id, assumed: [] });
    expect(news2Reason(withOxygen).summary).toMatch(
      /^NEWS2 14 \(high risk\) from the vital signs recorded .* ago: continuous monitoring of vital signs$/,
    );
    // A score kept from that very record (given what the clinician saw) stands for it, until the record is corrected.
    const scored = await c.nurse.api.post('/api/cds/early-warning-score', { patient_id: patientId, consciousness: 'voice' });
    expect(scored.body.data).toMatchObject({ total: 17, vital_id: recorded.id });
    expect(scored.body.data.from_vitals).toContain('supplementalOxygen');
    const fromKept = await risk();
    expect(fromKept.news2).toMatchObject({ id: scored.body.data.id, total: 17, assumed: [] });
    expect(news2Reason(fromKept)).toMatchObject({ resource_type: 'early_warning_score', resource_id: scored.body.data.id });
    await c.nurse.api.patch(`/api/vitals/${recorded.id}`, { respiratory_rate: 18 });
    expect((await risk()).news2).toMatchObject({ id: null, vital_id: recorded.id, total: 11 });
    // A score kept after the vital signs were taken is the patient's NEWS2 now.
    const later = await c.nurse.api.post('/api/cds/early-warning-score', { patient_id: patientId, ...vitals });
    const calm = await risk();
    expect(calm.level).toBe('low');
    expect(calm.news2).toMatchObject({ id: later.body.data.id, total: 0 });
    expect(kept.body.data.id).not.toBe(later.body.data.id);
    // The same over GraphQL.
    await c.nurse.api.post('/api/vitals', unwell);
    const graph = await c.doctor.api.graphql(
      'query($id: ID!) { patientRisk(patientId: $id) { level reasons { kind resourceType } news2 { id total assumed vitalId } } }',
      { id: patientId },
    );
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.patientRisk).toMatchObject({
      level: 'high',
      reasons: [{ kind: 'news2', resourceType: 'vital' }],
      news2: { id: null, total: 12, assumed: ['consciousness', 'supplementalOxygen'], vitalId: expect.any(String) },
    });
  });

  it('is hidden from outsiders and needs a patient', async () => {
    const patientId = await newPatient();
    expect((await stranger.api.get(`/api/cds/patient-risk?patient_id=${patientId}`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/cds/patient-risk?patient_id=${patientId}`)).status).toBe(403);
    expect((await c.nurse.api.get('/api/cds/patient-risk')).status).toBe(400);
    expect((await c.nurse.api.get('/api/cds/patient-risk?patient_id=nope')).status).toBe(400);
    expect((await app.api.get(`/api/cds/patient-risk?patient_id=${patientId}`)).status).toBe(401);
  });
});

// ---- CDS Hooks 2.0: the specification's JSON shapes, strictly (no unknown fields) ----

const coding = z.strictObject({ system: z.string().optional(), code: z.string(), display: z.string().optional() });
const action = z.strictObject({
  type: z.enum(['create', 'update', 'delete']),
  description: z.string(),
  resource: z.record(z.string(), z.unknown()).optional(),
  resourceId: z.string().optional(),
});
const suggestion = z.strictObject({
  label: z.string(),
  uuid: z.string().optional(),
  isRecommended: z.boolean().optional(),
  actions: z.array(action).optional(),
});
const link = z.strictObject({ label: z.string(), url: z.string(), type: z.enum(['absolute', 'smart']), appContext: z.string().optional() });
const card = z
  .strictObject({
    uuid: z.string().optional(),
    summary: z.string().min(1).max(139),
    detail: z.string().optional(),
    indicator: z.enum(['info', 'warning', 'critical']),
    source: z.strictObject({ label: z.string().min(1), url: z.string().optional(), icon: z.string().optional(), topic: coding.optional() }),
    suggestions: z.array(suggestion).optional(),
    selectionBehavior: z.enum(['at-most-one', 'any']).optional(),
    overrideReasons: z.array(coding.extend({ display: z.string() })).optional(),
    links: z.array(link).optional(),
  })
  .refine((x) => !x.suggestions?.length || !!x.selectionBehavior, 'selectionBehavior is required with suggestions');
const hookResponse = z.strictObject({ cards: z.array(card), systemActions: z.array(action).optional() });
const discovery = z.strictObject({
  services: z.array(
    z.strictObject({
      hook: z.string(),
      title: z.string().optional(),
      description: z.string(),
      id: z.string(),
      prefetch: z.record(z.string(), z.string()).optional(),
      usageRequirements: z.string().optional(),
    }),
  ),
});

type Card = z.infer<typeof card>;
const cardsOf = (body: unknown): Card[] => hookResponse.parse(body).cards;

const medicationRequest = (id: string, display: string, code?: string) => ({
  resourceType: 'MedicationRequest',
  id,
  status: 'draft',
  intent: 'order',
  medicationCodeableConcept: { text: display, coding: code ? [{ system: RXNORM, code, display }] : [] },
});
const bundleOf = (...resources: object[]) => ({
  resourceType: 'Bundle',
  type: 'collection',
  entry: resources.map((resource) => ({ resource })),
});

function hookRequest(hook: string, patientId: string, extra: Record<string, unknown> = {}, prefetch?: Record<string, unknown>) {
  return {
    hook,
    hookInstance: randomUUID(),
    context: { userId: `Practitioner/${c.doctor.user.id}`, patientId, ...extra },
    ...(prefetch ? { prefetch } : {}),
  };
}

describe('CDS Hooks', () => {
  it('discovery is public, bare (no envelope) and in the specification shape', async () => {
    const res = await app.api.get('/cds-services');
    expect(res.status).toBe(200);
    const doc = discovery.parse(res.body);
    expect(doc.services.map((s) => [s.hook, s.id])).toEqual([
      ['patient-view', 'patient-risk-review'],
      ['order-select', 'medication-safety-select'],
      ['order-sign', 'medication-safety-sign'],
    ]);
    expect(doc.services[2].prefetch).toEqual({
      allergies: expect.stringContaining('{{context.patientId}}'),
      medications: expect.stringContaining('MedicationRequest?'),
    });
  });

  it('order-sign: amoxicillin for a penicillin-allergic patient is a critical card, raised once', async () => {
    const patientId = await newPatient();
    await allergy(patientId, 'Penicillin', { reaction: 'anaphylaxis' });
    const body = hookRequest('order-sign', patientId, {
      draftOrders: bundleOf(medicationRequest('draft-1', 'Amoxicillin 500 mg capsule', '723')),
    });
    const res = await c.doctor.api.post('/cds-hooks/medication-safety-sign', body);
    expect(res.status).toBe(200);
    const cards = cardsOf(res.body);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({
      indicator: 'critical',
      summary: expect.stringMatching(/Amoxicillin.*Penicillin/),
      selectionBehavior: 'at-most-one',
    });
    expect(cards[0].suggestions![0].actions).toEqual([
      { type: 'delete', description: expect.any(String), resourceId: 'MedicationRequest/draft-1' },
    ]);
    expect(cards[0].detail).toMatch(/NICE CG183/);
    const events = () => app.em('clinical').count(OutboxEvent, { topic: 'svc.cds.critical_card', payload: { patient_id: patientId } });
    expect(await events()).toBe(1);
    // The same order signed again (a new hook call) is the same finding: no second event. The standard address works too.
    const again = await c.doctor.api.post('/cds-services/medication-safety-sign', { ...body, hookInstance: randomUUID() });
    expect(cardsOf(again.body)[0].indicator).toBe('critical');
    expect(await events()).toBe(1);
  });

  it('order-select: checks the selected orders against the others, active medications and allergies', async () => {
    const patientId = await newPatient();
    await prescribe(patientId, 'Warfarin 5 mg');
    const draftOrders = bundleOf(medicationRequest('a', 'Ibuprofen 400 mg'), medicationRequest('b', 'Paracetamol 1 g'));
    const selectIbuprofen = await c.doctor.api.post(
      '/cds-hooks/medication-safety-select',
      hookRequest('order-select', patientId, { selections: ['MedicationRequest/a'], draftOrders }),
    );
    const cards = cardsOf(selectIbuprofen.body);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ indicator: 'warning', summary: 'Major interaction: Ibuprofen 400 mg with Warfarin 5 mg' });
    expect(cards[0].suggestions![0].actions![0].resourceId).toBe('MedicationRequest/a');
    const selectParacetamol = await c.doctor.api.post(
      '/cds-hooks/medication-safety-select',
      hookRequest('order-select', patientId, { selections: ['MedicationRequest/b'], draftOrders }),
    );
    expect(cardsOf(selectParacetamol.body)).toEqual([]);
  });

  it('uses prefetched data, and says what it could not check for a patient it cannot read', async () => {
    const prefetch = {
      allergies: bundleOf({
        resourceType: 'AllergyIntolerance',
        id: 'al-1',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
        code: { text: 'Penicillins' },
        reaction: [{ manifestation: [{ text: 'Hives' }] }],
      }),
      medications: bundleOf({
        resourceType: 'MedicationRequest',
        id: 'm1',
        status: 'active',
        medicationCodeableConcept: { text: 'Coumadin 5 mg' },
      }),
    };
    const draftOrders = bundleOf(medicationRequest('d1', 'Augmentin 625 mg'), medicationRequest('d2', 'Aspirin 300 mg', '1191'));
    const res = await stranger.api.post(
      '/cds-hooks/medication-safety-sign',
      hookRequest('order-sign', 'external-patient-7', { draftOrders }, prefetch),
    );
    expect(res.status).toBe(200);
    const cards = cardsOf(res.body);
    expect(cards.map((x) => x.indicator)).toEqual(['critical', 'warning']);
    expect(cards[0].summary).toMatch(/Augmentin.*Penicillins/);
    expect(cards[1].summary).toBe('Major interaction: Aspirin 300 mg with Coumadin 5 mg');
    // Nothing prefetched for a patient it cannot read: the card says what was not checked. No event: not our patient.
    const bare = await stranger.api.post('/cds-hooks/medication-safety-sign', hookRequest('order-sign', c.patientId, { draftOrders }));
    const bareCards = cardsOf(bare.body);
    expect(bareCards.some((x) => /Not checked: active medications and allergies/.test(x.summary))).toBe(true);
    expect(await app.em('clinical').count(OutboxEvent, { topic: 'svc.cds.critical_card', payload: { patient_id: c.patientId } })).toBe(0);
  });

  it('patient-view: high NEWS2, critical results awaiting review and missed immunizations', async () => {
    const patientId = await newPatient();
    await criticalResult(patientId);
    await c.nurse.api.post('/api/cds/early-warning-score', {
      patient_id: patientId,
      ...vitals,
      respiratory_rate: 26,
      consciousness: 'new_confusion',
      heart_rate: 120,
    });
    const res = await c.doctor.api.post('/cds-hooks/patient-risk-review', hookRequest('patient-view', patientId));
    expect(res.status).toBe(200);
    const cards = cardsOf(res.body);
    expect(cards.map((x) => x.indicator)).toEqual(['critical', 'critical']);
    expect(cards.map((x) => x.summary).join('\n')).toMatch(/NEWS2 8 \(high risk\)/);
    expect(cards.map((x) => x.summary).join('\n')).toMatch(/1 critical lab result awaiting review: Potassium 6.9 mmol\/L/);
    expect(await app.em('clinical').count(OutboxEvent, { topic: 'svc.cds.critical_card', payload: { patient_id: patientId } })).toBe(2);
    // A one-year-old whose schedule was planned and nothing given: missed doses, a warning.
    const infant = await newPatient('Baraka', { date_of_birth: new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10) });
    expect((await c.nurse.api.post(`/api/patients/${infant}/immunizations/generate`, {})).status).toBe(201);
    const infantCards = cardsOf((await c.doctor.api.post('/cds-hooks/patient-risk-review', hookRequest('patient-view', infant))).body);
    expect(infantCards).toEqual([
      expect.objectContaining({ indicator: 'warning', summary: expect.stringMatching(/^\d+ missed immunizations: /) }),
    ]);
    // An empty answer is a list with no cards.
    const quiet = await c.doctor.api.post('/cds-hooks/patient-risk-review', hookRequest('patient-view', await newPatient()));
    expect(hookResponse.parse(quiet.body)).toEqual({ cards: [] });
  });

  it('refuses unknown services (404), malformed requests (400) and anonymous calls (401), in the error envelope', async () => {
    const ok = hookRequest('patient-view', c.patientId);
    const unknown = await c.doctor.api.post('/cds-hooks/no-such-service', ok);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    const field = async (body: unknown, id = 'patient-risk-review') => {
      const res = await c.doctor.api.post(`/cds-hooks/${id}`, body);
      expect(res.status).toBe(400);
      return res.body.error.details?.[0]?.field ?? res.body.error.message;
    };
    expect(await field({ ...ok, hook: 'order-sign' })).toBe('hook');
    expect(await field({ ...ok, hookInstance: undefined })).toBe('hook_instance');
    expect(await field({ ...ok, context: { userId: 'Practitioner/1' } })).toBe('context.patient_id');
    expect(await field({ ...ok, context: 'patient' })).toBe('context');
    expect(await field({ ...ok, prefetch: [1] })).toBe('prefetch');
    expect(await field(hookRequest('order-sign', c.patientId), 'medication-safety-sign')).toBe('context.draft_orders');
    expect(await field(hookRequest('order-select', c.patientId, { draftOrders: bundleOf() }), 'medication-safety-select')).toBe(
      'context.selections',
    );
    expect((await app.api.post('/cds-hooks/patient-risk-review', ok)).status).toBe(401);
  });

  it('answers GraphQL with the same cards', async () => {
    const patientId = await newPatient();
    await allergy(patientId, 'penicillin');
    const res = await c.doctor.api.graphql(
      'mutation($id: String!, $request: CdsHookRequestInput!) { invokeCdsService(id: $id, request: $request) { cards { indicator summary source { label } } } }',
      {
        id: 'medication-safety-sign',
        request: hookRequest('order-sign', patientId, { draftOrders: bundleOf(medicationRequest('x', 'Amoxil 250 mg')) }),
      },
    );
    expect(res.body.data.invokeCdsService.cards).toEqual([
      { indicator: 'critical', summary: expect.stringMatching(/Amoxil/), source: { label: expect.stringMatching(/allergy/i) } },
    ]);
  });
});
