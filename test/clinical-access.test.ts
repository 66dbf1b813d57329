import { getNamedType, isListType, isNonNullType, isObjectType, type GraphQLField } from 'graphql';
import { ORG_ROLES, PERMISSIONS } from '../shared/permissions';
import { signUp, startApp, type Api, type TestApp } from './support/app';
import { clinic, type Clinic } from './support/clinic';
import { addMember } from './support/org';
import { Appointment } from '../subgraphs/org/scheduling/appointment.entity';
import { ResourceType, SchedulableResource } from '../subgraphs/org/scheduling/resource.entity';

/**
 * Property-level authorization in the graph: reading a patient needs `patients:read` (every member role holds it),
 * but every field under Patient that holds clinical data checks `clinical:read` itself. The test walks every such
 * field the API schema has, as every organization role and as a `patients:read` API key, through `patient(id)`,
 * `organizationPatients` and an appointment's patient.
 */
let app: TestApp;
let c: Clinic;
const callers = new Map<string, Api>();
let clinicalFields: string[];
let connectionFields: Set<string>;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  for (const role of ORG_ROLES) {
    const member = await signUp(app.api);
    await addMember(app, c.orgId, member.user.id, role);
    callers.set(role, member.api);
  }
  const key = await callers
    .get('ORG:ADMIN')!
    .post('/api/developer/keys', { name: 'Front desk kiosk', scopes: ['patients:read'], organization_id: c.orgId });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${key.text}`);
  const headers = { 'x-api-key': key.body.data.key as string };
  callers.set('patients:read key', {
    graphql: (q: string, v?: Record<string, unknown>) => app.api.as(undefined).graphql(q, v, { headers }),
  } as Api);
  // The clinical lists on Patient: every list or connection field whose items are clinical records. Not invoices,
  // appointments, admissions (other subgraphs' records, under their own root rules) nor consents (the rule of
  // consent(id): the parties see theirs); test/graph-joins.test.ts covers those.
  const patient = app.platform.gateway.schema.getType('Patient');
  if (!isObjectType(patient)) throw new Error('no Patient type');
  const lists = Object.values(patient.getFields()).filter((f: GraphQLField<unknown, unknown>) => {
    const inner = isNonNullType(f.type) ? f.type.ofType : f.type;
    return (isListType(inner) && isObjectType(getNamedType(f.type))) || getNamedType(f.type).name.endsWith('Connection');
  });
  const notClinical = new Set(['invoices', 'appointments', 'admissions', 'consents']);
  clinicalFields = lists.map((f) => f.name).filter((name) => !notClinical.has(name));
  connectionFields = new Set(lists.filter((f) => getNamedType(f.type).name.endsWith('Connection')).map((f) => f.name));
});
afterAll(() => app.close());

const mayRead = (who: string) => who !== 'patients:read key' && (PERMISSIONS['clinical:read'].roles as readonly string[]).includes(who);

it('finds the clinical lists on Patient, each nullable (a FORBIDDEN on one must not blank the patient)', () => {
  const patient = app.platform.gateway.schema.getType('Patient');
  if (!isObjectType(patient)) throw new Error('no Patient type');
  const nonNull = clinicalFields.filter((name) => isNonNullType(patient.getFields()[name].type));
  expect(nonNull).toEqual([]);
  expect(clinicalFields).toEqual(
    expect.arrayContaining(['clinicalRecords', 'vitals', 'labResults', 'prescriptions', 'allergies', 'immunizations']),
  );
});

it.each([...ORG_ROLES, 'patients:read key'])('shows %s the clinical fields of a patient only with clinical:read', async (who) => {
  const api = callers.get(who)!;
  const selection = clinicalFields.map((f) => (connectionFields.has(f) ? `${f} { nodes { id } }` : `${f} { id }`)).join(' ');
  const queries: [string, string, (data: any) => any][] = [
    ['patient(id)', `query($id: ID!) { patient(id: $id) { id ${selection} } }`, (d) => d.patient],
    [
      'organizationPatients',
      `query($o: ID!) { organizationPatients(organizationId: $o, limit: 5) { items { id ${selection} } } }`,
      (d) => d.organizationPatients.items[0],
    ],
  ];
  for (const [via, query, pick] of queries) {
    const res = await api.graphql(query, { id: c.patientId, o: c.orgId });
    const patient = pick(res.body.data);
    // The patient itself answers: every member may read who the patient is.
    expect({ via, who, patient: !!patient?.id }).toEqual({ via, who, patient: true });
    for (const field of clinicalFields) {
      if (mayRead(who)) {
        const value = connectionFields.has(field) ? patient[field]?.nodes : patient[field];
        expect({ via, who, field, value: Array.isArray(value) }).toEqual({ via, who, field, value: true });
      } else {
        expect({ via, who, field, value: patient[field] }).toEqual({ via, who, field, value: null });
        const error = (res.body.errors ?? []).find((e: any) => e.path?.[e.path.length - 1] === field);
        expect({ via, who, field, code: error?.extensions?.code }).toEqual({ via, who, field, code: 'FORBIDDEN' });
      }
    }
  }
});

it('refuses a receptionist the clinical notes of a booked patient, reached directly or through the appointment', async () => {
  const receptionist = callers.get('ORG:RECEPTIONIST')!;
  const note = await c.doctor.api.post('/api/clinical-records', {
    patient_id: c.patientId,
    encounter_type: 'consultation',
    chief_complaint: 'Cough',
    notes: 'Private note',
  });
  expect(note.status).toBe(201);
  // An appointment of the patient, arranged in storage (booking has its own suites).
  const em = app.em('org');
  const resource = em.create(SchedulableResource, { organizationId: c.orgId, type: ResourceType.room, name: 'Room 1' });
  const appointment = em.create(Appointment, {
    organizationId: c.orgId,
    resource,
    patientId: c.patientId,
    patientName: 'Amina Odhiambo',
    patientEmail: 'amina@example.test',
    startTime: new Date(Date.now() + 86_400_000),
    endTime: new Date(Date.now() + 88_200_000),
  });
  await em.flush();
  const direct = await receptionist.graphql(
    `query($id: ID!) { patient(id: $id) { firstName clinicalRecords { nodes { notes } } vitals { nodes { heartRate } } } }`,
    { id: c.patientId },
  );
  expect(direct.body.data.patient).toEqual({ firstName: expect.any(String), clinicalRecords: null, vitals: null });
  const viaAppointment = await receptionist.graphql(
    `query($id: ID!) { appointment(id: $id) { id patient { firstName clinicalRecords { nodes { notes } } } } }`,
    { id: appointment.id },
  );
  expect(viaAppointment.body.data.appointment.patient).toEqual({ firstName: expect.any(String), clinicalRecords: null });
  expect(viaAppointment.body.errors.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN']);
  for (const res of [direct, viaAppointment]) expect(JSON.stringify(res.body)).not.toContain('Private note');
  // The doctor reads the note the same way.
  const doctor = await c.doctor.api.graphql(
    `query($id: ID!) { appointment(id: $id) { patient { clinicalRecords { nodes { notes } } } } }`,
    {
      id: appointment.id,
    },
  );
  expect(doctor.body.data.appointment.patient.clinicalRecords.nodes.map((r: any) => r.notes)).toContain('Private note');
});

describe("an admission's reason, notes and discharge summary", () => {
  const SUMMARY = 'HIV-1 infection, started on tenofovir/lamivudine/dolutegravir';
  const REASON = 'Pneumocystis pneumonia';
  const NOTES = 'CD4 count 85';
  let admissionId: string;
  let roomId: string;

  beforeAll(async () => {
    const admin = callers.get('ORG:ADMIN')!;
    const nurse = callers.get('ORG:NURSE')!;
    const room = await admin.post(`/api/organizations/${c.orgId}/rooms`, { name: 'Isolation 1', type: 'isolation', capacity: 2 });
    if (room.status !== 201) throw new Error(`room: ${room.status} ${room.text}`);
    roomId = room.body.data.id;
    const admissions = `/api/organizations/${c.orgId}/admissions`;
    // A stay that ended, with its discharge summary, and the stay the patient is in now.
    const first = await nurse.post(admissions, { patient_id: c.patientId, room_id: roomId, reason: REASON, notes: NOTES });
    if (first.status !== 201) throw new Error(`admit: ${first.status} ${first.text}`);
    const discharged = await nurse.post(`${admissions}/${first.body.data.id}/discharge`, {
      disposition: 'home',
      discharge_summary: SUMMARY,
    });
    if (discharged.status !== 200) throw new Error(`discharge: ${discharged.status} ${discharged.text}`);
    const now = await nurse.post(admissions, { patient_id: c.patientId, room_id: roomId, reason: REASON, notes: NOTES });
    if (now.status !== 201) throw new Error(`admit: ${now.status} ${now.text}`);
    admissionId = first.body.data.id;
  });

  const CLINICAL = ['reason', 'notes', 'dischargeSummary'];
  const selection = `id status ${CLINICAL.join(' ')}`;
  const paths: [string, string, (data: any) => any[]][] = [
    [
      'organizationAdmissions',
      `query($o: ID!) { organizationAdmissions(organizationId: $o, limit: 10) { items { ${selection} } } }`,
      (d) => d.organizationAdmissions.items,
    ],
    [
      'Organization.rooms.admissions',
      `query($o: ID!) { organization(id: $o) { rooms(limit: 10) { items { admissions { ${selection} } } } } }`,
      (d) => d.organization.rooms.items.flatMap((r: any) => r.admissions),
    ],
    [
      'Patient.admissions',
      `query($id: ID!) { patient(id: $id) { admissions(first: 10) { nodes { ${selection} } } } }`,
      (d) => d.patient.admissions.nodes,
    ],
  ];

  it.each(['ORG:RECEPTIONIST', 'ORG:NURSE'])('answers %s through every path to an admission by clinical:read', async (who) => {
    const api = callers.get(who)!;
    for (const [via, query, pick] of paths) {
      const res = await api.graphql(query, { o: c.orgId, id: c.patientId });
      const admissions = pick(res.body.data);
      expect({ via, count: admissions.length > 0 }).toEqual({ via, count: true });
      const forbidden = (res.body.errors ?? []).filter((e: any) => e.extensions?.code === 'FORBIDDEN');
      if (who === 'ORG:RECEPTIONIST') {
        for (const a of admissions) for (const f of CLINICAL) expect({ via, f, value: a[f] }).toEqual({ via, f, value: null });
        // One FORBIDDEN per refused field, each at its own path; nothing else fails.
        expect({ via, errors: forbidden.length }).toEqual({ via, errors: admissions.length * CLINICAL.length });
        expect(res.body.errors.length).toBe(forbidden.length);
        expect(forbidden.every((e: any) => CLINICAL.includes(e.path[e.path.length - 1]))).toBe(true);
        expect(JSON.stringify(res.body)).not.toMatch(/HIV|Pneumocystis|CD4/);
      } else {
        expect({ via, errors: res.body.errors }).toEqual({ via, errors: undefined });
        expect(admissions.map((a: any) => a.reason)).toContain(REASON);
        expect(admissions.map((a: any) => a.notes)).toContain(NOTES);
      }
    }
    if (who === 'ORG:NURSE') {
      const all = await api.graphql(paths[0][1], { o: c.orgId });
      expect(all.body.data.organizationAdmissions.items.map((a: any) => a.dischargeSummary)).toContain(SUMMARY);
    }
  });

  it('answers a receptionist the REST list and read of admissions with those fields null (200)', async () => {
    const receptionist = callers.get('ORG:RECEPTIONIST')!;
    const list = await receptionist.get(`/api/organizations/${c.orgId}/admissions`);
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    for (const a of list.body.data)
      expect(a).toMatchObject({ reason: null, notes: null, discharge_summary: null, status: expect.any(String) });
    const one = await receptionist.get(`/api/organizations/${c.orgId}/admissions/${admissionId}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: admissionId, status: 'discharged', reason: null, notes: null, discharge_summary: null });
    for (const res of [list, one]) expect(res.text).not.toMatch(/HIV|Pneumocystis|CD4/);
    // A nurse reads them through the same paths.
    const nurse = await callers.get('ORG:NURSE')!.get(`/api/organizations/${c.orgId}/admissions/${admissionId}`);
    expect(nurse.body.data).toMatchObject({ reason: REASON, notes: NOTES, discharge_summary: SUMMARY });
  });
});
