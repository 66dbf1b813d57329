import { randomUUID } from 'node:crypto';
import { OutboxEvent } from '../shared/outbox';
import { AuditEvent } from '../shared/audit/audit-event.entity';
import { Patient } from '../subgraphs/clinical/patients/patient.entity';
import { SAMPLE_PATIENT, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember, createOrganization } from './support/org';

let app: TestApp;
let c: Clinic;
/** A pharmacy: its creator (ORG:ADMIN), a pharmacist and a clerk (ORG:STAFF). */
let pharmacyId: string;
let pharmacist: SignedUp;
let clerk: SignedUp;
/** A patient of the clinic who has an account of their own. */
let patientUser: SignedUp;
let ownPatientId: string;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  const owner = await signUp(app.api, { registration_role: 'PHARMACIST' });
  pharmacyId = (await createOrganization(owner.api, { type: 'pharmacy' })).id;
  pharmacist = await signUp(app.api, { registration_role: 'PHARMACIST' });
  await addMember(app, pharmacyId, pharmacist.user.id, 'ORG:PHARMACIST');
  clerk = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, pharmacyId, clerk.user.id, 'ORG:STAFF');
  patientUser = await signUp(app.api, { registration_role: 'PATIENT' });
  ownPatientId = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Wanjiru' })).body.data
    .id;
  // Linking a clinic record to the patient's account has its own flow; here it only arranges who is who.
  await app.em('clinical').nativeUpdate(Patient, { id: ownPatientId }, { userId: patientUser.user.id });
});
afterAll(() => app.close());

const amoxicillin = {
  medication: 'Amoxicillin 500 mg capsule',
  dosage: '1 capsule',
  frequency: 'every 8 hours',
  duration: '7 days',
  instructions: 'Take with food',
};

async function draft(fields: Record<string, unknown> = {}, patientId = c.patientId): Promise<string> {
  const res = await c.doctor.api.post('/api/prescriptions', { patient_id: patientId, ...amoxicillin, ...fields });
  if (res.status !== 201) throw new Error(`prescription: ${res.status} ${res.text}`);
  return res.body.data.id;
}

async function signed(fields: Record<string, unknown> = {}, patientId = c.patientId): Promise<string> {
  const id = await draft(fields, patientId);
  const res = await c.doctor.api.post(`/api/prescriptions/${id}/sign`);
  if (res.status !== 200) throw new Error(`sign: ${res.status} ${res.text}`);
  return id;
}

async function sent(fields: Record<string, unknown> = {}, patientId = c.patientId): Promise<{ prescriptionId: string; id: string }> {
  const prescriptionId = await signed(fields, patientId);
  const res = await c.nurse.api.post('/api/eprescriptions', { prescription_id: prescriptionId, pharmacy_id: pharmacyId });
  if (res.status !== 201) throw new Error(`e-prescription: ${res.status} ${res.text}`);
  return { prescriptionId, id: res.body.data.id };
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);

describe('prescriptions', () => {
  it('creates a draft, emits prescription-created, reads and lists it', async () => {
    const res = await c.nurse.api.post('/api/prescriptions', { patient_id: c.patientId, ...amoxicillin });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...amoxicillin,
      patient_id: c.patientId,
      organization_id: c.orgId,
      prescriber_id: c.nurse.user.id,
      refills: 0,
      status: 'draft',
      signed_by: null,
      cancelled_at: null,
    });
    const id = res.body.data.id;
    const [event] = await app
      .em('clinical')
      .find(OutboxEvent, { topic: 'svc.clinical.prescription_created', payload: { prescription_id: id } });
    expect(event.payload).toEqual({
      prescription_id: id,
      patient_id: c.patientId,
      organization_id: c.orgId,
      prescriber_id: c.nurse.user.id,
      medication: amoxicillin.medication,
    });

    expect((await c.doctor.api.get(`/api/prescriptions/${id}`)).body.data.id).toBe(id);
    expect(ids(await c.doctor.api.get('/api/prescriptions?limit=100'))).toContain(id);
    const forPatient = await c.doctor.api.get(`/api/prescriptions?patient_id=${c.patientId}&status=draft&limit=100`);
    expect(forPatient.status).toBe(200);
    expect(ids(forPatient)).toContain(id);
    expect(
      forPatient.body.data.every((p: { patient_id: string; status: string }) => p.patient_id === c.patientId && p.status === 'draft'),
    ).toBe(true);
    expect(ids(await c.doctor.api.get(`/api/prescriptions?status=signed&limit=100`))).not.toContain(id);

    const graph = await c.doctor.api.graphql('query($id: ID!) { patient(id: $id) { prescriptions(first: 100) { nodes { id status } } } }', {
      id: c.patientId,
    });
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.patient.prescriptions.nodes).toContainEqual({ id, status: 'draft' });
  });

  it('edits a draft; a signed prescription cannot be edited and a cancelled one cannot be signed', async () => {
    const id = await draft({ refills: 1 });
    const edited = await c.nurse.api.patch(`/api/prescriptions/${id}`, { dosage: '2 capsules', instructions: null, refills: 2 });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ dosage: '2 capsules', instructions: null, refills: 2, status: 'draft' });

    const sign = await c.doctor.api.post(`/api/prescriptions/${id}/sign`);
    expect(sign.status).toBe(200);
    expect(sign.body.data).toMatchObject({ status: 'signed', signed_by: c.doctor.user.id, signed_at: expect.any(String) });
    const locked = await c.doctor.api.patch(`/api/prescriptions/${id}`, { dosage: '3 capsules' });
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toBe('A signed prescription cannot be edited');
    expect((await c.doctor.api.post(`/api/prescriptions/${id}/sign`)).status).toBe(409);

    const cancel = await c.nurse.api.post(`/api/prescriptions/${id}/cancel`, { reason: 'Allergy reported' });
    expect(cancel.status).toBe(200);
    expect(cancel.body.data).toMatchObject({ status: 'cancelled', cancelled_by: c.nurse.user.id, cancellation_reason: 'Allergy reported' });
    const resign = await c.doctor.api.post(`/api/prescriptions/${id}/sign`);
    expect(resign.status).toBe(409);
    expect(resign.body.error).toMatchObject({ code: 'CONFLICT', message: 'Cannot sign a prescription that is cancelled' });
    expect((await c.doctor.api.post(`/api/prescriptions/${id}/cancel`)).status).toBe(409);
    expect((await c.doctor.api.patch(`/api/prescriptions/${id}`, { dosage: '1 capsule' })).status).toBe(409);

    const draftCancelled = await draft();
    expect((await c.doctor.api.post(`/api/prescriptions/${draftCancelled}/cancel`)).body.data.status).toBe('cancelled');
    expect((await c.doctor.api.post(`/api/prescriptions/${draftCancelled}/sign`)).status).toBe(409);

    const audit = await app
      .em('clinical')
      .find(
        AuditEvent,
        { resourceType: 'prescription', resourceId: id, action: { $nin: ['read', 'list'] } },
        { orderBy: { createdAt: 'asc' } },
      );
    expect(audit.map((e) => e.action)).toEqual(['create', 'update', 'sign', 'cancel']);
  });

  it('lets only a doctor sign', async () => {
    const id = await draft();
    const nurse = await c.nurse.api.post(`/api/prescriptions/${id}/sign`);
    expect(nurse.status).toBe(403);
    expect(nurse.body.error.message).toBe('Only a doctor can sign a prescription');
    expect((await c.billing.api.post(`/api/prescriptions/${id}/sign`)).status).toBe(403);
    expect((await (await outsider(app)).api.post(`/api/prescriptions/${id}/sign`)).status).toBe(404);
    expect((await app.api.post(`/api/prescriptions/${id}/sign`)).status).toBe(401);
    expect((await c.doctor.api.get(`/api/prescriptions/${id}`)).body.data.status).toBe('draft');
    // The patient reads their own prescriptions but does not sign them.
    const own = await draft({}, ownPatientId);
    expect((await patientUser.api.get(`/api/prescriptions/${own}`)).status).toBe(200);
    const mine = await patientUser.api.get('/api/prescriptions?limit=100');
    expect(ids(mine)).toContain(own);
    expect(mine.body.data.every((p: { patient_id: string }) => p.patient_id === ownPatientId)).toBe(true);
    expect((await patientUser.api.post(`/api/prescriptions/${own}/sign`)).status).toBe(403);
  });

  it('validates input, naming the field', async () => {
    const missing = await c.doctor.api.post('/api/prescriptions', { patient_id: c.patientId, dosage: '1 tablet', frequency: 'daily' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ field: 'medication', message: expect.any(String) }]);
    const blank = await c.doctor.api.post('/api/prescriptions', { patient_id: c.patientId, ...amoxicillin, dosage: '  ' });
    expect(blank.body.error.details).toEqual([{ field: 'dosage', message: 'must not be blank' }]);
    const negative = await c.doctor.api.post('/api/prescriptions', { patient_id: c.patientId, ...amoxicillin, refills: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.error.details[0].field).toBe('refills');
    const id = await draft();
    const nulled = await c.doctor.api.patch(`/api/prescriptions/${id}`, { medication: null });
    expect(nulled.status).toBe(400);
    expect(nulled.body.error.details[0].field).toBe('medication');
    expect((await c.doctor.api.get('/api/prescriptions?patient_id=nope')).body.error.details[0].field).toBe('patient_id');
    expect((await c.doctor.api.get('/api/prescriptions?status=expired')).status).toBe(400);
    const badIds = await c.doctor.api.post('/api/eprescriptions', { prescription_id: id, pharmacy_id: 'corner-shop' });
    expect(badIds.status).toBe(400);
    expect(badIds.body.error.details).toEqual([{ field: 'pharmacy_id', message: 'must be an id (a UUID)' }]);
  });

  it("refuses another organization's patient and roles without clinical access", async () => {
    const id = await draft();
    const stranger = await outsider(app);
    expect((await stranger.api.post('/api/prescriptions', { patient_id: c.patientId, ...amoxicillin })).status).toBe(404);
    expect((await stranger.api.get(`/api/prescriptions/${id}`)).status).toBe(404);
    expect((await stranger.api.patch(`/api/prescriptions/${id}`, { dosage: 'x' })).status).toBe(404);
    expect((await stranger.api.post(`/api/prescriptions/${id}/cancel`)).status).toBe(404);
    expect((await stranger.api.get(`/api/prescriptions?patient_id=${c.patientId}`)).status).toBe(404);
    expect(ids(await stranger.api.get('/api/prescriptions?limit=100'))).not.toContain(id);
    expect((await stranger.api.get(`/api/patients/${c.patientId}/eprescriptions`)).status).toBe(404);
    const signedId = await signed();
    expect((await stranger.api.post('/api/eprescriptions', { prescription_id: signedId, pharmacy_id: stranger.orgId })).status).toBe(404);

    expect((await c.billing.api.get(`/api/prescriptions/${id}`)).status).toBe(403);
    expect((await c.billing.api.post('/api/prescriptions', { patient_id: c.patientId, ...amoxicillin })).status).toBe(403);
    expect(ids(await c.billing.api.get('/api/prescriptions?limit=100'))).toEqual([]);
    expect((await app.api.get('/api/prescriptions')).status).toBe(401);
  });
});

describe('e-prescriptions', () => {
  it('are made only from a signed prescription, one at a time', async () => {
    const id = await draft({ refills: 2 });
    const early = await c.nurse.api.post('/api/eprescriptions', { prescription_id: id, pharmacy_id: pharmacyId });
    expect(early.status).toBe(409);
    await c.doctor.api.post(`/api/prescriptions/${id}/sign`);
    // The pharmacy is an active organization of the directory (asked of the org subgraph).
    const nowhere = await c.nurse.api.post('/api/eprescriptions', { prescription_id: id, pharmacy_id: randomUUID() });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.error.details).toEqual([{ field: 'pharmacy_id', message: 'must be an active organization' }]);
    const res = await c.nurse.api.post('/api/eprescriptions', { prescription_id: id, pharmacy_id: pharmacyId });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      prescription_id: id,
      patient_id: c.patientId,
      organization_id: c.orgId,
      pharmacy_id: pharmacyId,
      status: 'pending',
      refills_remaining: 2,
      created_by: c.nurse.user.id,
      prescription: { id, medication: amoxicillin.medication, status: 'signed' },
    });
    expect((await c.nurse.api.post('/api/eprescriptions', { prescription_id: id, pharmacy_id: pharmacyId })).status).toBe(409);
    const list = await c.doctor.api.get(`/api/patients/${c.patientId}/eprescriptions?status=pending&limit=100`);
    expect(list.status).toBe(200);
    expect(ids(list)).toContain(res.body.data.id);
  });

  it('go pending → transmitted → dispensed, with refills until none remain', async () => {
    const { id } = await sent({ refills: 2 }, ownPatientId);
    const url = (action: string) => `/api/eprescriptions/${id}/${action}`;

    const early = await pharmacist.api.post(url('dispense'));
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe('Cannot dispense an e-prescription that is pending');
    expect((await c.nurse.api.post(url('refill'))).status).toBe(409);
    expect((await pharmacist.api.post(url('transmit'))).status).toBe(403); // the clinic transmits
    const transmitted = await c.nurse.api.post(url('transmit'));
    expect(transmitted.status).toBe(200);
    expect(transmitted.body.data).toMatchObject({
      status: 'transmitted',
      transmitted_by: c.nurse.user.id,
      transmitted_at: expect.any(String),
    });
    expect((await c.nurse.api.post(url('transmit'))).status).toBe(409);

    // The pharmacy dispenses: its pharmacists and administrators, nobody else.
    expect((await c.doctor.api.post(url('dispense'))).status).toBe(403);
    expect((await clerk.api.post(url('dispense'))).status).toBe(403);
    const dispensed = await pharmacist.api.post(url('dispense'));
    expect(dispensed.status).toBe(200);
    expect(dispensed.body.data).toMatchObject({ status: 'dispensed', dispensed_by: pharmacist.user.id, refills_remaining: 2 });
    expect((await pharmacist.api.post(url('dispense'))).status).toBe(409);

    const bySelf = await patientUser.api.post(url('refill'));
    expect(bySelf.status).toBe(200);
    expect(bySelf.body.data).toMatchObject({ status: 'transmitted', refills_remaining: 1, refill_requested_by: patientUser.user.id });
    expect((await patientUser.api.post(url('refill'))).status).toBe(409); // not dispensed since
    expect((await pharmacist.api.post(url('refill'))).status).toBe(403); // the pharmacy does not ask for refills
    await pharmacist.api.post(url('dispense'));
    const byNurse = await c.nurse.api.post(url('refill'));
    expect(byNurse.body.data).toMatchObject({ status: 'transmitted', refills_remaining: 0, refill_requested_by: c.nurse.user.id });
    await pharmacist.api.post(url('dispense'));
    const none = await patientUser.api.post(url('refill'));
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe('No refills remaining');
    const after = await c.doctor.api.get(`/api/eprescriptions/${id}`);
    expect(after.body.data).toMatchObject({ status: 'dispensed', refills_remaining: 0 });

    const audit = await app
      .em('clinical')
      .find(
        AuditEvent,
        { resourceType: 'eprescription', resourceId: id, action: { $nin: ['read', 'list'] } },
        { orderBy: { createdAt: 'asc' } },
      );
    expect(audit.map((e) => e.action)).toEqual(['create', 'transmit', 'dispense', 'refill', 'dispense', 'refill', 'dispense']);
  });

  it('never use more refills than remain, even when asked at the same moment', async () => {
    const { id } = await sent({ refills: 1 });
    await c.nurse.api.post(`/api/eprescriptions/${id}/transmit`);
    await pharmacist.api.post(`/api/eprescriptions/${id}/dispense`);
    const both = await Promise.all([
      c.nurse.api.post(`/api/eprescriptions/${id}/refill`),
      c.doctor.api.post(`/api/eprescriptions/${id}/refill`),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await c.doctor.api.get(`/api/eprescriptions/${id}`)).body.data).toMatchObject({ status: 'transmitted', refills_remaining: 0 });
  });

  it('are read by their pharmacy and by who may read the patient, nobody else', async () => {
    const { id, prescriptionId } = await sent();
    const read = await clerk.api.get(`/api/eprescriptions/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.prescription).toMatchObject({ medication: amoxicillin.medication, dosage: amoxicillin.dosage });
    const inbox = await pharmacist.api.get(`/api/organizations/${pharmacyId}/eprescriptions?limit=100`);
    expect(inbox.status).toBe(200);
    expect(ids(inbox)).toContain(id);
    // The pharmacy sees what was sent to it, not the patient's other records.
    expect((await pharmacist.api.get(`/api/prescriptions/${prescriptionId}`)).status).toBe(404);
    expect((await pharmacist.api.get(`/api/patients/${c.patientId}/eprescriptions`)).status).toBe(404);
    expect((await c.billing.api.get(`/api/eprescriptions/${id}`)).status).toBe(403);

    const otherPharmacy = await outsider(app);
    expect((await otherPharmacy.api.get(`/api/eprescriptions/${id}`)).status).toBe(404);
    expect((await otherPharmacy.api.post(`/api/eprescriptions/${id}/dispense`)).status).toBe(404);
    expect((await otherPharmacy.api.post(`/api/eprescriptions/${id}/refill`)).status).toBe(404);
    expect((await otherPharmacy.api.get(`/api/organizations/${pharmacyId}/eprescriptions`)).status).toBe(404);
    expect((await c.nurse.api.get(`/api/organizations/${pharmacyId}/eprescriptions`)).status).toBe(404);
  });

  it('are cancelled with their prescription unless dispensed; a dispensed one is not refilled after', async () => {
    const open = await sent({ refills: 1 });
    await c.nurse.api.post(`/api/eprescriptions/${open.id}/transmit`);
    const cancelled = await c.doctor.api.post(`/api/prescriptions/${open.prescriptionId}/cancel`, { reason: 'Changed to azithromycin' });
    expect(cancelled.status).toBe(200);
    const ep = await c.doctor.api.get(`/api/eprescriptions/${open.id}`);
    expect(ep.body.data).toMatchObject({ status: 'cancelled', cancelled_by: c.doctor.user.id, cancelled_at: expect.any(String) });
    expect((await pharmacist.api.post(`/api/eprescriptions/${open.id}/dispense`)).status).toBe(409);
    expect((await c.nurse.api.post('/api/eprescriptions', { prescription_id: open.prescriptionId, pharmacy_id: pharmacyId })).status).toBe(
      409,
    );

    const filled = await sent({ refills: 1 });
    await c.nurse.api.post(`/api/eprescriptions/${filled.id}/transmit`);
    await pharmacist.api.post(`/api/eprescriptions/${filled.id}/dispense`);
    await c.doctor.api.post(`/api/prescriptions/${filled.prescriptionId}/cancel`);
    expect((await c.doctor.api.get(`/api/eprescriptions/${filled.id}`)).body.data).toMatchObject({
      status: 'dispensed',
      refills_remaining: 1,
    });
    const refill = await c.nurse.api.post(`/api/eprescriptions/${filled.id}/refill`);
    expect(refill.status).toBe(409);
    expect(refill.body.error.message).toMatch(/cancelled/);
  });
});
