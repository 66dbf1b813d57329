import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { CLINICAL_FIELD_RULE } from '../shared/clinical';
import { API_KEY_SCOPES, ORG_ROLES, PERMISSIONS } from '../shared/permissions';
import { clinicalFixture, type ClinicalFixture } from './support/clinical-fixture';
import { observe, rootQueries, type RootQuery } from './support/graph-walk';
import { SAMPLE_PATIENT, signUp, startApp, type Api, type TestApp } from './support/app';
import { Patient } from '../subgraphs/clinical/patients/patient.entity';
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

it("shows an appointment's reason to the patient who booked it and to its doctor, not to the front desk", async () => {
  const patient = await signUp(app.api);
  const doctor = await signUp(app.api, { registration_role: 'DOCTOR' }); // not a member: seen through the booking
  const em = app.em('org');
  const resource = em.create(SchedulableResource, { organizationId: c.orgId, type: ResourceType.room, name: 'Room R' });
  const appointment = em.create(Appointment, {
    organizationId: c.orgId,
    resource,
    patientUserId: patient.user.id,
    doctorUserId: doctor.user.id,
    patientName: 'Test User',
    patientEmail: patient.user.email,
    startTime: new Date(Date.now() + 86_400_000),
    endTime: new Date(Date.now() + 88_200_000),
    reason: 'Burning on urination',
  });
  await em.flush();
  const read = (api: Api) => api.graphql('query($id: ID!) { appointment(id: $id) { id reason } }', { id: appointment.id });
  for (const api of [patient.api, doctor.api, c.nurse.api]) {
    expect((await read(api)).body.data.appointment).toEqual({ id: appointment.id, reason: 'Burning on urination' });
  }
  const desk = await read(callers.get('ORG:RECEPTIONIST')!);
  expect(desk.body.data.appointment).toEqual({ id: appointment.id, reason: null });
  expect(desk.body.errors.map((e: any) => [e.path.join('.'), e.extensions.code])).toEqual([['appointment.reason', 'FORBIDDEN']]);
  const rest = await callers.get('ORG:RECEPTIONIST')!.get(`/api/appointments/${appointment.id}`);
  expect(rest.status).toBe(200);
  expect(rest.body.data).toMatchObject({ id: appointment.id, reason: null });
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

  it("lets the patient read their own stay's clinical text, whatever their role, and only their own", async () => {
    // A receptionist admitted to the hospital they work at: their own profile is the admitted patient.
    const member = await signUp(app.api);
    await addMember(app, c.orgId, member.user.id, 'ORG:RECEPTIONIST');
    const own = await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
      ...SAMPLE_PATIENT,
      email: undefined,
      first_name: 'Own',
    });
    await app.em('clinical').nativeUpdate(Patient, { id: own.body.data.id }, { userId: member.user.id });
    const stay = await callers.get('ORG:NURSE')!.post(`/api/organizations/${c.orgId}/admissions`, {
      patient_id: own.body.data.id,
      room_id: roomId,
      reason: 'Appendicitis',
    });
    expect(stay.status).toBe(201);
    const list = await member.api.get(`/api/organizations/${c.orgId}/admissions?limit=100`);
    expect(list.status).toBe(200);
    const reasons = new Map(list.body.data.map((a: any) => [a.id, a.reason]));
    expect(reasons.get(stay.body.data.id)).toBe('Appendicitis');
    // The other patients' stays stay closed to them.
    expect([...reasons].filter(([id, reason]) => id !== stay.body.data.id && reason !== null)).toEqual([]);
    expect(list.text).not.toMatch(/HIV|Pneumocystis|CD4/);
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

/**
 * Every root Query field, walked as every organization role and as API keys with and without clinical:read, against
 * one record of every kind (test/support/clinical-fixture.ts). docs/permissions.md ("Clinical data") holds the
 * classification the walk checks: the fields marked clinical (their description ends with CLINICAL_FIELD_RULE), the
 * types whose whole record is clinical, and the fields whose names look clinical but were reviewed and left open,
 * each with its reason. A field whose name looks clinical and is none of these fails the suite, as does a marked
 * field that answers a caller without clinical:read, or a clinical record that reaches one.
 */
describe('the walk of every root field', () => {
  /** Words of a field name (camelCase) that make it look clinical; docs/permissions.md lists them. */
  const CLINICAL_WORDS = new Set(
    (
      'reason reasons note notes diagnosis diagnoses summary complaint transcript finding findings conclusion symptom symptoms ' +
      'condition indication medication medications allergy allergies icd10 comment instruction instructions dosage reaction ' +
      'subjective objective assessment body text snapshot purpose details'
    ).split(' '),
  );
  const words = (name: string) => name.split(/(?=[A-Z])/).map((w) => w.toLowerCase());
  const looksClinical = (name: string) => words(name).some((w) => CLINICAL_WORDS.has(w));
  /** Types that wrap others (pages, connections, payloads) and the roots: their fields are the wrapped types'. */
  const wrapper = (name: string) => /(Page|Connection|Edge|Payload)$/.test(name) || ['Query', 'Mutation', 'Subscription'].includes(name);

  /** The rows of a `### heading` table of docs/permissions.md whose first cell is a code span, with their cells. */
  function docTable(heading: string): Map<string, string[]> {
    const page = readFileSync(join(__dirname, '..', 'docs', 'permissions.md'), 'utf8');
    const section = page.split(/^### /m).find((s) => s.startsWith(`${heading}\n`));
    if (!section) throw new Error(`docs/permissions.md has no "### ${heading}" section`);
    const rows = new Map<string, string[]>();
    for (const line of section.split('\n')) {
      const m = /^\| `([A-Za-z0-9]+(?:\.[A-Za-z0-9]+)?)` \|(.*)\|$/.exec(line);
      if (m)
        rows.set(
          m[1],
          m[2].split('|').map((cell) => cell.trim()),
        );
    }
    return rows;
  }

  let schema: GraphQLSchema;
  let fixture: ClinicalFixture;
  let marked: Set<string>;
  let clinicalTypes: Set<string>;
  let reviewed: Map<string, string[]>;
  let plans: RootQuery[];
  const walkers = new Map<string, Api>();
  /** What the walk saw: marked fields (value, error code at their path) and clinical records, by caller. */
  const seenFields: { who: string; root: string; at: string; field: string; value: unknown; code?: string }[] = [];
  const seenRecords: { who: string; root: string; at: string; type: string }[] = [];

  const apiKey = async (scopes: string[]): Promise<Api> => {
    const key = await callers
      .get('ORG:ADMIN')!
      .post('/api/developer/keys', { name: `Walk ${scopes.length}`, scopes, organization_id: c.orgId });
    if (key.status !== 201) throw new Error(`key: ${key.status} ${key.text}`);
    const headers = { 'x-api-key': key.body.data.key as string };
    return { graphql: (q: string, v?: Record<string, unknown>) => app.api.as(undefined).graphql(q, v, { headers }) } as Api;
  };

  beforeAll(async () => {
    schema = buildSchema((await app.api.get('/graphql/schema.graphql', { token: null })).text);
    marked = new Set();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type)) continue;
      for (const f of Object.values(type.getFields()))
        if (f.description?.includes(CLINICAL_FIELD_RULE)) marked.add(`${type.name}.${f.name}`);
    }
    clinicalTypes = new Set(docTable('Clinical records').keys());
    reviewed = docTable('Reviewed, not clinical');
    fixture = await clinicalFixture(app, c, callers.get('ORG:ADMIN')!);
    for (const role of ORG_ROLES) walkers.set(role, callers.get(role)!);
    walkers.set('patients:read key', callers.get('patients:read key')!);
    const reads = API_KEY_SCOPES.filter((s) => s.endsWith(':read'));
    walkers.set('key without clinical:read', await apiKey(reads.filter((s) => s !== 'clinical:read')));
    walkers.set('clinical:read key', await apiKey(reads));
    const inputs: Record<string, Record<string, unknown>> = {
      drugInteractionCheck: { patientId: fixture.patientId, includeActiveMedications: true, medications: [{ name: 'Warfarin 5 mg' }] },
      // No product in the fixture: the query runs and answers that the product is unknown (stock holds no patient data).
      emergencySupplyRouting: { latitude: -1.28, longitude: 36.82, productId: randomUUID(), quantity: 1 },
      matchPatients: { patientId: fixture.patientId },
      panicValueCheck: { results: [{ code: '2823-3', value: 7.2, unit: 'mmol/L' }] },
    };
    plans = rootQueries(schema, {
      marked,
      clinicalTypes,
      depth: 4,
      argument: (field, arg) => {
        if (arg.name === 'input') return inputs[field.name];
        if (field.name === 'searchOrganizationPatients' && arg.name === 'name') return 'Walk';
        if (field.name === 'crossBorderPatients') return { country: 'KE', nationalId: '12345678' }[arg.name];
        if (['organizationId', 'facilityId', 'pharmacyId'].includes(arg.name)) return c.orgId;
        if (arg.name === 'patientId') return fixture.patientId;
        // An id names the record of the type the field answers; `<type>Id` the record of that type.
        const type =
          arg.name === 'id' ? getNamedType(field.type).name : arg.name.replace(/Id$/, '').replace(/^./, (ch) => ch.toUpperCase());
        if (getNamedType(arg.type).name === 'ID' && fixture.ids[type]) return fixture.ids[type];
        return undefined;
      },
    });
  }, 300_000);

  it('has one query for every root Query field of the published schema', () => {
    expect(plans.map((p) => p.field).sort()).toEqual(Object.keys(schema.getQueryType()!.getFields()).sort());
    expect(plans.length).toBeGreaterThan(150);
  });

  it('marks clinical fields nullable, lists each in docs/permissions.md, and lists no field that is not marked', () => {
    const table = docTable('Clinical fields');
    expect([...table.keys()].sort()).toEqual([...marked].sort());
    for (const name of marked) {
      const [type, field] = name.split('.');
      const definition = (schema.getType(type) as GraphQLObjectType).getFields()[field];
      expect({ name, nullable: !isNonNullType(definition.type) }).toEqual({ name, nullable: true });
      expect({ name, why: table.get(name)!.every(Boolean) }).toEqual({ name, why: true });
    }
    expect([...marked]).toEqual(expect.arrayContaining(['Admission.reason', 'Admission.notes', 'Admission.dischargeSummary']));
  });

  /** A clinical record, or a page or connection of them: fields answering one are joins, which the walk checks. */
  const recordsOf = (t: GraphQLNamedType): boolean =>
    clinicalTypes.has(t.name) ||
    (isObjectType(t) &&
      /(Page|Connection)$/.test(t.name) &&
      ['items', 'nodes'].some((f) => t.getFields()[f] && recordsOf(getNamedType(t.getFields()[f].type))));

  it('classifies every field whose name looks clinical: marked, on a clinical record, or reviewed with a reason', () => {
    const unclassified: string[] = [];
    const stale = new Set(reviewed.keys());
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || wrapper(type.name) || clinicalTypes.has(type.name)) continue;
      for (const f of Object.values(type.getFields())) {
        const name = `${type.name}.${f.name}`;
        stale.delete(name);
        if (!looksClinical(f.name) || marked.has(name) || recordsOf(getNamedType(f.type))) continue;
        if (!reviewed.get(name)?.[0]) unclassified.push(name);
      }
    }
    expect(unclassified).toEqual([]);
    // No row names a field the schema no longer has (or one that is on a clinical record anyway).
    expect([...stale]).toEqual([]);
    expect([...clinicalTypes].filter((t) => !isObjectType(schema.getType(t)))).toEqual([]);
  });

  it('joins clinical records from other records through nullable fields, so a refusal leaves the rest standing', () => {
    const nonNull: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || wrapper(type.name) || clinicalTypes.has(type.name)) continue;
      for (const f of Object.values(type.getFields()))
        if (recordsOf(getNamedType(f.type)) && isNonNullType(f.type)) nonNull.push(`${type.name}.${f.name}`);
    }
    expect(nonNull).toEqual([]);
  });

  const WALKERS = [...ORG_ROLES, 'patients:read key', 'key without clinical:read', 'clinical:read key'];
  const readsClinical = (who: string) =>
    who === 'clinical:read key' || (PERMISSIONS['clinical:read'].roles as readonly string[]).includes(who);
  /** Errors that mean the walk's query did not run as written. */
  const BROKEN = new Set([
    'INTERNAL_ERROR',
    'GRAPHQL_VALIDATION_FAILED',
    'GRAPHQL_PARSE_FAILED',
    'QUERY_TOO_COMPLEX',
    'QUERY_TOO_DEEP',
    'BAD_USER_INPUT',
  ]);

  it.each(WALKERS)('walks every root field as %s: clinical data only with clinical:read', async (who) => {
    const api = walkers.get(who)!;
    const broken: string[] = [];
    for (const plan of plans) {
      const res = await api.graphql(plan.query, plan.variables);
      const errors: { path?: (string | number)[]; message: string; extensions?: { code?: string } }[] = res.body.errors ?? [];
      // A document or variables the gateway refuses come without a path: the walk did not run that query.
      for (const e of errors)
        if (BROKEN.has(e.extensions?.code ?? 'INTERNAL_ERROR') || !e.path) broken.push(`${plan.field}: ${e.extensions?.code} ${e.message}`);
      const { records, fields } = observe(res.body.data, { marked, clinicalTypes });
      const codeAt = (path: (string | number)[]) => errors.find((e) => JSON.stringify(e.path) === JSON.stringify(path))?.extensions?.code;
      for (const r of records) seenRecords.push({ who, root: plan.field, at: r.path.join('.'), type: r.type });
      for (const f of fields)
        seenFields.push({
          who,
          root: plan.field,
          at: f.path.join('.'),
          field: `${f.type}.${f.field}`,
          value: f.value,
          code: codeAt(f.path),
        });
    }
    expect(broken).toEqual([]);
    const mine = seenFields.filter((s) => s.who === who);
    if (readsClinical(who)) {
      expect(mine.filter((s) => s.code === 'FORBIDDEN')).toEqual([]);
    } else {
      expect(mine.filter((s) => s.value !== null || s.code !== 'FORBIDDEN')).toEqual([]);
      expect(seenRecords.filter((s) => s.who === who)).toEqual([]);
    }
  });

  it('saw every marked field answered to a reader and refused to a caller without clinical:read', () => {
    const answered = new Set(seenFields.filter((s) => readsClinical(s.who) && s.value !== null).map((s) => s.field));
    const refused = new Set(seenFields.filter((s) => !readsClinical(s.who) && s.code === 'FORBIDDEN').map((s) => s.field));
    expect([...marked].filter((f) => !answered.has(f))).toEqual([]);
    expect([...marked].filter((f) => !refused.has(f))).toEqual([]);
  });

  it('saw clinical records of every kind the fixture holds answered to a reader', () => {
    const answered = new Set(seenRecords.filter((s) => readsClinical(s.who)).map((s) => s.type));
    expect(Object.keys(fixture.ids).filter((t) => clinicalTypes.has(t) && !answered.has(t))).toEqual([]);
  });
});
