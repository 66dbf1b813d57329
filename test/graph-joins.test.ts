import type { Knex } from '@mikro-orm/postgresql';
import { SAMPLE_PATIENT, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember, createOrganization } from './support/org';
import { Room, RoomType } from '../subgraphs/org/facilities/facility.entity';
import { Appointment } from '../subgraphs/org/scheduling/appointment.entity';
import { ResourceType, SchedulableResource } from '../subgraphs/org/scheduling/resource.entity';
import { LabResult, LabResultReviewStatus } from '../subgraphs/clinical/labs/lab.entity';

let app: TestApp;
let c: Clinic;
let stranger: SignedUp & { orgId: string };
let receptionist: SignedUp;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
  receptionist = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, c.orgId, receptionist.user.id, 'ORG:RECEPTIONIST');
});
afterAll(() => app.close());

const codes = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => (res.body.errors ?? []).map((e) => e.extensions?.code);
const fields = (res: { body: { errors?: { extensions?: { details?: { field: string }[] } }[] } }) =>
  (res.body.errors ?? []).flatMap((e) => (e.extensions?.details ?? []).map((d) => d.field));

/** SQL statements a subgraph's database connection runs while `fn` runs (the query builder's event, no timing). */
async function countStatements(schema: 'org' | 'clinical' | 'revenue', fn: () => Promise<unknown>): Promise<string[]> {
  const knex = (app.em(schema).getConnection() as unknown as { getKnex(): Knex }).getKnex();
  const seen: string[] = [];
  const listen = (q: { sql: string }) => seen.push(q.sql);
  knex.on('query', listen);
  try {
    await fn();
  } finally {
    knex.removeListener('query', listen);
  }
  return seen;
}

describe('conversation messages by cursor', () => {
  const MESSAGES = `query($o: ID!, $id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
    conversation(organizationId: $o, id: $id) {
      messages(first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { id body } }
        nodes { body }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }
  }`;
  let conversationId: string;
  const send = async (body: string) => {
    const res = await c.nurse.api.post(`/api/organizations/${c.orgId}/conversations/${conversationId}/messages`, { body });
    if (res.status !== 201) throw new Error(`message: ${res.status} ${res.text}`);
  };
  const page = async (vars: Record<string, unknown>) => {
    const res = await c.doctor.api.graphql(MESSAGES, { o: c.orgId, id: conversationId, ...vars });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.conversation.messages as {
      nodes: { body: string }[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
    };
  };

  beforeAll(async () => {
    const res = await c.doctor.api.post(`/api/organizations/${c.orgId}/conversations`, {
      subject: 'Infinite scroll',
      participant_ids: [c.nurse.user.id],
    });
    conversationId = res.body.data.id;
    for (let i = 1; i <= 5; i++) await send(`m${i}`);
  });

  it('pages back in time while a message arrives: no duplicates, no gaps; the new one is before the first page', async () => {
    const first = await page({ first: 2 });
    expect(first.nodes.map((m) => m.body)).toEqual(['m5', 'm4']);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    await send('m6'); // arrives while the client scrolls
    // The offset page 2 now repeats m4: what cursors fix.
    const offset = await c.doctor.api.get(`/api/organizations/${c.orgId}/conversations/${conversationId}/messages?page=2&limit=2`);
    expect(offset.body.data.map((m: { body: string }) => m.body)).toEqual(['m4', 'm3']);
    const second = await page({ first: 2, after: first.pageInfo.endCursor });
    expect(second.nodes.map((m) => m.body)).toEqual(['m3', 'm2']);
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const third = await page({ first: 2, after: second.pageInfo.endCursor });
    expect(third.nodes.map((m) => m.body)).toEqual(['m1']);
    expect(third.pageInfo.hasNextPage).toBe(false);
    // What arrived meanwhile comes before the first page.
    const newer = await page({ last: 10, before: first.pageInfo.startCursor });
    expect(newer.nodes.map((m) => m.body)).toEqual(['m6']);
    expect(newer.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // Backward paging is in list order too, and says there is more before.
    const oldest = await page({ last: 2 });
    expect(oldest.nodes.map((m) => m.body)).toEqual(['m2', 'm1']);
    expect(oldest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('counts the whole list only when totalCount is selected', async () => {
    const query = (selection: string) =>
      `query($o: ID!, $id: ID!) { conversation(organizationId: $o, id: $id) { messages(first: 1) { ${selection} } } }`;
    const without = await countStatements('org', () => c.doctor.api.graphql(query('nodes { id }'), { o: c.orgId, id: conversationId }));
    const counted: { res?: any } = {};
    const withCount = await countStatements('org', async () => {
      counted.res = await c.doctor.api.graphql(query('nodes { id } totalCount'), { o: c.orgId, id: conversationId });
    });
    expect(counted.res.body.data.conversation.messages.totalCount).toBe(6);
    expect(without.filter((s) => /count\(\*\)/.test(s))).toEqual([]);
    expect(withCount.filter((s) => /count\(\*\)/.test(s))).toHaveLength(1);
  });

  it('refuses first: 1000, first with last, and cursors it did not hand out (VALIDATION_ERROR naming the argument)', async () => {
    const ask = (vars: Record<string, unknown>) => c.doctor.api.graphql(MESSAGES, { o: c.orgId, id: conversationId, ...vars });
    const big = await ask({ first: 1000 });
    // Refused before it runs (its cost is over the limit), never a 500.
    expect(big.body.data ?? null).toBeNull();
    expect(codes(big)).toHaveLength(1);
    expect(codes(big)).not.toContain('INTERNAL_ERROR');
    const over = await ask({ first: 101 });
    expect(codes(over)).toEqual(['VALIDATION_ERROR']);
    expect(fields(over)).toEqual(['first']);
    expect(fields(await ask({ last: 0 }))).toEqual(['last']);
    expect(fields(await ask({ first: 2, last: 2 }))).toEqual(['last']);
    const real = (await page({ first: 1 })).pageInfo.endCursor;
    const forged = [
      'not a cursor!',
      'abc',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('["2026-02-31T00:00:00.000000Z","3b241101-e2bb-4255-8caf-4136c566a962"]').toString('base64url'),
      Buffer.from('["2026-01-01T00:00:00.000000Z","x\'; drop table users"]').toString('base64url'),
      real.slice(0, -3),
      'x'.repeat(500),
    ];
    for (const cursor of forged) {
      for (const arg of ['after', 'before']) {
        const res = await ask({ [arg]: cursor });
        expect({ cursor, arg, codes: codes(res), fields: fields(res) }).toEqual({
          cursor,
          arg,
          codes: ['VALIDATION_ERROR'],
          fields: [arg],
        });
      }
    }
  });

  it('is the conversation of its participants only', async () => {
    const res = await stranger.api.graphql(MESSAGES, { o: c.orgId, id: conversationId, first: 1 });
    expect(res.body.data?.conversation ?? null).toBeNull();
    expect(codes(res)).toContain('NOT_FOUND');
  });
});

describe('objects beside the ids of conversations and training', () => {
  it("reads a message's conversation and sender, under the rule of conversation(id)", async () => {
    const created = await c.doctor.api.post(`/api/organizations/${c.orgId}/conversations`, {
      subject: 'Ward round',
      participant_ids: [c.nurse.user.id],
    });
    const conversationId = created.body.data.id;
    await c.nurse.api.post(`/api/organizations/${c.orgId}/conversations/${conversationId}/messages`, { body: 'Bed 4 is ready' });
    const res = await c.doctor.api.graphql(
      `query($o: ID!, $id: ID!) {
        conversation(organizationId: $o, id: $id) {
          messages(first: 1) { nodes { body conversationId conversation { id subject } sender { id } } }
        }
      }`,
      { o: c.orgId, id: conversationId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.conversation.messages.nodes).toEqual([
      {
        body: 'Bed 4 is ready',
        conversationId,
        conversation: { id: conversationId, subject: 'Ward round' },
        sender: { id: c.nurse.user.id },
      },
    ]);
  });

  it("reads an enrollment's credit, the credit's enrollment and an attempt's assessment, each under its root rule", async () => {
    const manager = await signUp(app.api, { registration_role: 'DOCTOR' });
    const orgId = (await createOrganization(manager.api)).id; // its creator is ORG:ADMIN
    const learner = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, orgId, learner.user.id, 'ORG:NURSE');
    const course = await manager.api.post('/api/training/courses', {
      organization_id: orgId,
      title: 'Sepsis six',
      provider: 'Ward education',
      description: 'Oxygen, cultures, antibiotics, fluids, lactate, urine output',
      modules: [{ title: 'The six in the first hour', duration_minutes: 30 }],
      cme_credits: 2,
      cme_category: 'category_1',
    });
    if (course.status !== 201) throw new Error(`course: ${course.status} ${course.text}`);
    const enrollment = (await learner.api.post(`/api/training/courses/${course.body.data.id}/enroll`)).body.data;
    expect((await learner.api.patch(`/api/training/enrollments/${enrollment.id}/progress`, { progress: 100 })).status).toBe(200);
    const assessment = await manager.api.post('/api/training/assessments', {
      organization_id: orgId,
      title: 'Sepsis check',
      questions: [{ prompt: 'Give oxygen?', options: ['Yes', 'No'], correct_option: 0 }],
    });
    expect(assessment.status).toBe(201);
    const ENROLLMENT = `query($id: ID!) {
      enrollment(id: $id) { id cmeCreditId cmeCredit { id credits enrollment { id } } }
    }`;
    const mine = await learner.api.graphql(ENROLLMENT, { id: enrollment.id });
    expect(mine.body.errors).toBeUndefined();
    const credit = mine.body.data.enrollment.cmeCredit;
    expect(credit).toMatchObject({ id: mine.body.data.enrollment.cmeCreditId, credits: 2, enrollment: { id: enrollment.id } });
    const credits = await learner.api.graphql(`query($o: ID) { cmeCredits(organizationId: $o) { items { id enrollment { id } } } }`, {
      o: orgId,
    });
    expect(credits.body.data.cmeCredits.items).toEqual([{ id: credit.id, enrollment: { id: enrollment.id } }]);
    const attempt = await learner.api.graphql(
      `mutation($id: ID!) { submitAssessment(id: $id, answers: [0]) { passed assessmentId assessment { id title } } }`,
      { id: assessment.body.data.id },
    );
    expect(attempt.body.errors).toBeUndefined();
    expect(attempt.body.data.submitAssessment).toEqual({
      passed: true,
      assessmentId: assessment.body.data.id,
      assessment: { id: assessment.body.data.id, title: 'Sepsis check' },
    });
    // Another organization's member reads none of it.
    expect((await stranger.api.graphql(ENROLLMENT, { id: enrollment.id })).body.data?.enrollment ?? null).toBeNull();
  });
});

describe('objects beside the ids of clinical records', () => {
  it("reads a protocol version's protocol and an interaction's rule", async () => {
    const created = await c.doctor.api.post('/api/treatments', {
      organization_id: c.orgId,
      name: 'Malaria, joins',
      condition: 'Uncomplicated falciparum malaria',
      icd10_code: 'b50.9',
      steps: [{ medication: 'Artemether-lumefantrine 20/120 mg tablet', dose: '4 tablets', frequency: 'twice daily', duration_days: 3 }],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const res = await c.doctor.api.graphql(
      `query($id: ID!) { treatmentProtocol(id: $id) { versions { protocolId protocol { id name } } } }`,
      { id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.treatmentProtocol.versions).toEqual([{ protocolId: id, protocol: { id, name: 'Malaria, joins' } }]);
    const check = await c.doctor.api.graphql(
      `query { drugInteractionCheck(input: { medications: [{ name: "warfarin" }, { name: "aspirin" }] }) { interactions { ruleId rule { id } } } }`,
    );
    expect(check.body.errors).toBeUndefined();
    const interactions = check.body.data.drugInteractionCheck.interactions as { ruleId: string; rule: { id: string } }[];
    expect(interactions.length).toBeGreaterThan(0);
    for (const i of interactions) expect(i.rule).toEqual({ id: i.ruleId });
  });
});

describe('the patient chart in one query', () => {
  let vitalIds: string[] = [];
  beforeAll(async () => {
    for (const heart_rate of [70, 80, 90]) {
      const res = await c.nurse.api.post('/api/vitals', { patient_id: c.patientId, heart_rate });
      if (res.status !== 201) throw new Error(`vital: ${res.status} ${res.text}`);
      vitalIds.push(res.body.data.id);
    }
    vitalIds = vitalIds.reverse(); // newest first
    const rx = await c.doctor.api.post('/api/prescriptions', {
      patient_id: c.patientId,
      medication: 'Amoxicillin',
      dosage: '500 mg',
      frequency: 'tid',
    });
    if (rx.status !== 201) throw new Error(`prescription: ${rx.status} ${rx.text}`);
    const note = await c.doctor.api.post('/api/clinical-records', {
      patient_id: c.patientId,
      encounter_type: 'consultation',
      notes: 'Chart note',
    });
    if (note.status !== 201) throw new Error(`record: ${note.status} ${note.text}`);
  });

  const CHART = `query($p: ID!, $after: String) {
    patient(id: $p) {
      id firstName
      organization { id name }
      vitals(first: 2, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes { id heartRate patient { id } recordedByUser { id firstName roles } }
      }
      prescriptions(first: 5) { nodes { medication prescriber { id firstName lastName } } }
      clinicalRecords(first: 5) { nodes { notes author { id } versions { version changedByUser { id } } } }
      invoices(first: 5) { id }
    }
  }`;

  it('reads clinical, org and revenue data with the objects beside their ids, and pages the vitals', async () => {
    const res = await c.doctor.api.graphql(CHART, { p: c.patientId });
    expect(res.body.errors).toBeUndefined();
    const chart = res.body.data.patient;
    expect(chart.organization).toEqual({ id: c.orgId, name: expect.any(String) });
    expect(chart.vitals.totalCount).toBe(3);
    expect(chart.vitals.nodes.map((v: { id: string }) => v.id)).toEqual(vitalIds.slice(0, 2));
    expect(chart.vitals.nodes[0]).toMatchObject({
      heartRate: 90,
      patient: { id: c.patientId },
      // A fellow member sees who recorded it, not their account settings.
      recordedByUser: { id: c.nurse.user.id, firstName: expect.any(String), roles: null },
    });
    expect(chart.prescriptions.nodes).toEqual([
      { medication: 'Amoxicillin', prescriber: expect.objectContaining({ id: c.doctor.user.id }) },
    ]);
    expect(chart.clinicalRecords.nodes[0]).toMatchObject({
      notes: 'Chart note',
      author: { id: c.doctor.user.id },
      versions: [{ version: 1, changedByUser: { id: c.doctor.user.id } }],
    });
    expect(chart.invoices).toEqual([]);
    const next = await c.doctor.api.graphql(CHART, { p: c.patientId, after: chart.vitals.pageInfo.endCursor });
    expect(next.body.data.patient.vitals.nodes.map((v: { id: string }) => v.id)).toEqual(vitalIds.slice(2));
    expect(next.body.data.patient.vitals.pageInfo.hasNextPage).toBe(false);
  });

  it('gives a receptionist the patient and who works with them, never the clinical data through a join', async () => {
    const res = await receptionist.api.graphql(CHART, { p: c.patientId });
    const chart = res.body.data.patient;
    expect(chart.firstName).toEqual(expect.any(String));
    expect(chart.vitals).toBeNull();
    expect(chart.prescriptions).toBeNull();
    expect(chart.clinicalRecords).toBeNull();
    const forbidden = (res.body.errors ?? []).filter((e: any) => e.extensions.code === 'FORBIDDEN').map((e: any) => e.path.join('.'));
    expect(forbidden.sort()).toEqual(['patient.clinicalRecords', 'patient.prescriptions', 'patient.vitals']);
    expect(JSON.stringify(res.body)).not.toContain('Chart note');
    // Nor through the patient of a record reached another way: the record itself is refused.
    const vital = await receptionist.api.graphql('query($id: ID!) { vital(id: $id) { heartRate patient { id } } }', { id: vitalIds[0] });
    expect(vital.body.data?.vital ?? null).toBeNull();
    expect(codes(vital)).toEqual(['FORBIDDEN']);
  });

  it('answers the chart of a patient of another organization with nothing', async () => {
    const res = await stranger.api.graphql(CHART, { p: c.patientId });
    expect(res.body.data?.patient ?? null).toBeNull();
    expect(codes(res)).toContain('NOT_FOUND');
  });

  it('costs the same number of clinical statements for one patient or a page of them (no N+1)', async () => {
    for (let i = 0; i < 2; i++) {
      const p = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: `N${i}` })).body.data;
      await c.nurse.api.post('/api/vitals', { patient_id: p.id, heart_rate: 60 + i });
      await c.doctor.api.post('/api/clinical-records', { patient_id: p.id, encounter_type: 'consultation' });
    }
    const query = `query($o: ID!, $l: Int!) { organizationPatients(organizationId: $o, limit: $l) { items {
      id vitals(first: 3) { totalCount nodes { id patient { id } } }
      clinicalRecords(first: 3) { nodes { id versions { id } } } } } }`;
    const selects = async (limit: number) => {
      let items = 0;
      const sql = await countStatements('clinical', async () => {
        const res = await c.doctor.api.graphql(query, { o: c.orgId, l: limit });
        expect(res.body.errors).toBeUndefined();
        items = res.body.data.organizationPatients.items.length;
      });
      expect(items).toBe(limit);
      // The reads of the lists asked for; the bus consumers of the patients just created (record matching, its
      // advisory locks) run in the background on the same connection and are not the request's.
      return sql.filter((s) => /^\s*select/i.test(s) && /"(vitals|clinical_records|clinical_record_versions)"/.test(s)).length;
    };
    const one = await selects(1);
    const three = await selects(3);
    // A page of vitals, their count, a page of records, their versions: one statement each, whatever the patients.
    expect(one).toBe(4);
    expect(three).toBe(one);
  });
});

describe('user(id)', () => {
  const USER = 'query($id: ID!) { user(id: $id) { id firstName email roles referralCode mfaEnabled } }';

  it('shows the caller their whole account, a fellow member who they are, and nobody else anything', async () => {
    const own = await c.nurse.api.graphql(USER, { id: c.nurse.user.id });
    expect(own.body.data.user).toMatchObject({
      id: c.nurse.user.id,
      referralCode: expect.any(String),
      roles: expect.any(Array),
      mfaEnabled: false,
    });
    const fellow = await receptionist.api.graphql(USER, { id: c.nurse.user.id });
    expect(fellow.body.errors).toBeUndefined();
    expect(fellow.body.data.user).toEqual({
      id: c.nurse.user.id,
      firstName: expect.any(String),
      email: expect.any(String),
      roles: null,
      referralCode: null,
      mfaEnabled: null,
    });
    const outside = await stranger.api.graphql(USER, { id: c.nurse.user.id });
    expect(outside.body.data?.user ?? null).toBeNull();
    expect(codes(outside)).toEqual(['NOT_FOUND']);
    expect(codes(await app.api.as(undefined).graphql(USER, { id: c.nurse.user.id }))).toEqual(['UNAUTHORIZED']);
    expect(codes(await stranger.api.graphql(USER, { id: 'nope' }))).toEqual(['VALIDATION_ERROR']);
  });

  it('leaves the REST sign-in answer as it was (the account settings of the one signing in)', async () => {
    const me = await c.nurse.api.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      id: c.nurse.user.id,
      referral_code: expect.any(String),
      mfa_enabled: false,
      roles: expect.any(Array),
    });
  });
});

describe('the organization dashboard in one query', () => {
  const DASHBOARD = `query($o: ID!) { organization(id: $o) {
    id name
    rooms(limit: 5) { total items { id name } }
    appointments(limit: 5) { total items { id } }
    invoices(limit: 5) { total items { id } }
    members(limit: 5) { total items { userId } }
  } }`;

  beforeAll(async () => {
    // A room arranged in storage (rooms have their own suite).
    const em = app.em('org');
    em.create(Room, {
      organizationId: c.orgId,
      name: 'Ward A',
      nameKey: 'ward a',
      type: RoomType.ward,
      capacity: 4,
      createdBy: c.doctor.user.id,
    });
    await em.flush();
  });

  it('reads rooms, appointments, invoices and members beside the organization, each under its root rule', async () => {
    const receptionistView = await receptionist.api.graphql(DASHBOARD, { o: c.orgId });
    expect(receptionistView.body.errors).toBeUndefined();
    const org = receptionistView.body.data.organization;
    expect(org.rooms.items.map((r: { name: string }) => r.name)).toContain('Ward A');
    expect(org.appointments).toMatchObject({ total: expect.any(Number) });
    expect(org.invoices).toMatchObject({ total: 0, items: [] });
    // A nurse has no invoices:read: that one field is null with FORBIDDEN, the rest answers.
    const nurseView = await c.nurse.api.graphql(DASHBOARD, { o: c.orgId });
    expect(nurseView.body.data.organization.rooms.total).toBeGreaterThan(0);
    expect(nurseView.body.data.organization.invoices).toBeNull();
    expect((nurseView.body.errors ?? []).map((e: any) => [e.path.join('.'), e.extensions.code])).toEqual([
      ['organization.invoices', 'FORBIDDEN'],
    ]);
  });
});

/** Runs a GraphQL mutation as `who`, failing the test setup on any error. */
async function mutate(who: SignedUp, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await who.api.graphql(query, variables);
  if (res.body.errors) throw new Error(`${query.slice(0, 60)}: ${JSON.stringify(res.body.errors)}`);
  return res.body.data;
}

/** An appointment of the clinic's patient and a room to admit them to, arranged in storage (scheduling has its own suite). */
async function arrangeVisit(patientId: string, name: string): Promise<{ appointmentId: string; roomId: string }> {
  const em = app.em('org').fork();
  const resource = em.create(SchedulableResource, { organizationId: c.orgId, type: ResourceType.room, name: `Clinic room ${name}` });
  const start = new Date(Date.now() + 86_400_000);
  const appointment = em.create(Appointment, {
    organizationId: c.orgId,
    resource,
    patientId,
    patientName: name,
    patientEmail: `${name.toLowerCase()}@example.com`,
    startTime: start,
    endTime: new Date(start.getTime() + 1_800_000),
  });
  const room = em.create(Room, {
    organizationId: c.orgId,
    name: `Ward ${name}`,
    nameKey: `ward ${name.toLowerCase()}`,
    type: RoomType.ward,
    capacity: 4,
    createdBy: c.doctor.user.id,
  });
  await em.flush();
  return { appointmentId: appointment.id, roomId: room.id };
}

/** A critical result of a lab order waiting for review, arranged in storage (HL7 ingest has its own suite). */
async function arrangeCriticalResult(labOrderId: string, patientId: string, code: string): Promise<string> {
  const em = app.em('clinical').fork();
  const result = em.create(LabResult, {
    labOrderId,
    patientId,
    organizationId: c.orgId,
    code,
    valueType: 'NM',
    value: '7.1',
    numericValue: 7.1,
    abnormalFlag: 'HH',
    abnormal: true,
    critical: true,
    resultStatus: 'F',
    messageControlId: `MSG-${code}`,
    sequence: 1,
    reviewStatus: LabResultReviewStatus.pending_review,
  });
  await em.flush();
  return result.id;
}

describe('every list of the patient beside the patient', () => {
  let patientId: string;
  let labOrderId: string;
  let criticalId: string;
  let appointmentId: string;
  let noteId: string;
  let encounterId: string;

  beforeAll(async () => {
    patientId = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Joined' })).body.data
      .id;
    labOrderId = (
      await mutate(c.doctor, 'mutation($p: ID!) { createLabOrder(input: { patientId: $p, testType: "cbc" }) { id } }', { p: patientId })
    ).createLabOrder.id;
    await mutate(
      c.nurse,
      'mutation($p: ID!) { recordObservation(input: { patientId: $p, code: "8867-4", valueQuantity: 72, unit: "/min" }) { id } }',
      {
        p: patientId,
      },
    );
    await mutate(
      c.doctor,
      'mutation($p: ID!) { createImagingOrder(input: { patientId: $p, modality: CR, clinicalIndication: "Cough for three weeks" }) { id } }',
      { p: patientId },
    );
    await mutate(c.doctor, 'mutation($p: ID!, $u: ID!) { grantConsent(input: { patientId: $p, granteeUserId: $u }) { id } }', {
      p: patientId,
      u: stranger.user.id,
    });
    await mutate(
      c.nurse,
      'mutation($p: ID!) { recordJourneyEvent(patientId: $p, input: { type: "visit", title: "First visit" }) { id } }',
      {
        p: patientId,
      },
    );
    criticalId = await arrangeCriticalResult(labOrderId, patientId, '2823-3');
    const visit = await arrangeVisit(patientId, 'Joined');
    appointmentId = visit.appointmentId;
    const admitted = await c.nurse.api.post(`/api/organizations/${c.orgId}/admissions`, {
      patient_id: patientId,
      room_id: visit.roomId,
      reason: 'Observation',
    });
    if (admitted.status !== 201) throw new Error(`admission: ${admitted.status} ${admitted.text}`);
    const encounter = await c.doctor.api.post('/api/clinical-records', { patient_id: patientId, encounter_type: 'consultation' });
    if (encounter.status !== 201) throw new Error(`record: ${encounter.status} ${encounter.text}`);
    encounterId = encounter.body.data.id;
    noteId = (
      await mutate(
        c.doctor,
        'mutation($p: ID!, $a: ID!, $e: ID!) { createClinicalNote(input: { patientId: $p, appointmentId: $a, encounterId: $e, format: free_text, text: "Seen today" }) { id } }',
        { p: patientId, a: appointmentId, e: encounterId },
      )
    ).createClinicalNote.id;
  });

  const CHART = `query($p: ID!) {
    patient(id: $p) {
      id
      createdByUser { id }
      appointments(first: 5) {
        totalCount
        nodes {
          id patient { id } organization { id } patientUser { id }
          clinicalNotes(first: 5) { nodes { id text author { id } } }
          clinicalRecords(first: 5) { id }
        }
      }
      admissions(first: 5) { totalCount nodes { status patient { id } room { name } organization { id } admittedByUser { id } } }
      consents(first: 5) { totalCount nodes { status patient { id } granteeUser { id } } }
      labOrders(first: 5) { totalCount nodes { id testType orderedByUser { id } patient { id } } }
      labResults(first: 5) { nodes { id critical labOrder { id } } }
      observations(first: 5) { totalCount nodes { code patient { id } recordedByUser { id } organization { id } } }
      imagingOrders(first: 5) { totalCount nodes { modality patient { id } orderedByUser { id } } }
      ePrescriptions(first: 5) { totalCount nodes { id } }
      immunizationSchedule { patientId }
      journey(limit: 20) {
        total
        items { kind resourceType resourceId record { __typename ... on LabOrder { id testType } ... on JourneyEvent { title } ... on Observation { code } } }
      }
    }
  }`;

  it('renders the chart: appointments, admissions, consents, orders, observations, schedule and journey with their records', async () => {
    const res = await c.doctor.api.graphql(CHART, { p: patientId });
    expect(res.body.errors).toBeUndefined();
    const chart = res.body.data.patient;
    expect(chart.createdByUser).toEqual({ id: c.doctor.user.id });
    expect(chart.appointments).toEqual({
      totalCount: 1,
      nodes: [
        {
          id: appointmentId,
          patient: { id: patientId },
          organization: { id: c.orgId },
          patientUser: null,
          clinicalNotes: { nodes: [{ id: noteId, text: 'Seen today', author: { id: c.doctor.user.id } }] },
          clinicalRecords: [{ id: encounterId }],
        },
      ],
    });
    expect(chart.admissions).toMatchObject({
      totalCount: 1,
      nodes: [
        {
          status: 'admitted',
          patient: { id: patientId },
          room: { name: 'Ward Joined' },
          organization: { id: c.orgId },
          admittedByUser: { id: c.nurse.user.id },
        },
      ],
    });
    expect(chart.consents).toMatchObject({ totalCount: 1, nodes: [{ patient: { id: patientId }, granteeUser: { id: stranger.user.id } }] });
    expect(chart.labOrders).toEqual({
      totalCount: 1,
      nodes: [{ id: labOrderId, testType: 'cbc', orderedByUser: { id: c.doctor.user.id }, patient: { id: patientId } }],
    });
    expect(chart.labResults.nodes).toEqual([{ id: criticalId, critical: true, labOrder: { id: labOrderId } }]);
    expect(chart.observations).toEqual({
      totalCount: 1,
      nodes: [{ code: '8867-4', patient: { id: patientId }, recordedByUser: { id: c.nurse.user.id }, organization: { id: c.orgId } }],
    });
    expect(chart.imagingOrders).toEqual({
      totalCount: 1,
      nodes: [{ modality: 'CR', patient: { id: patientId }, orderedByUser: { id: c.doctor.user.id } }],
    });
    expect(chart.ePrescriptions).toEqual({ totalCount: 0, nodes: [] });
    expect(chart.immunizationSchedule).toEqual({ patientId });
    const records = chart.journey.items.map((e: any) => e.record);
    expect(chart.journey.items.every((e: any) => e.record && e.resourceId)).toBe(true);
    expect(records).toEqual(
      expect.arrayContaining([
        { __typename: 'LabOrder', id: labOrderId, testType: 'cbc' },
        { __typename: 'JourneyEvent', title: 'First visit' },
        { __typename: 'Observation', code: '8867-4' },
      ]),
    );
  });

  it('gives a receptionist the appointments and admissions, and FORBIDDEN on each clinical list only', async () => {
    const res = await receptionist.api.graphql(CHART, { p: patientId });
    const chart = res.body.data.patient;
    expect(chart.id).toBe(patientId);
    expect(chart.appointments.nodes.map((a: { id: string }) => a.id)).toEqual([appointmentId]);
    // The appointment's notes are clinical data: null, with FORBIDDEN at their own path.
    expect(chart.appointments.nodes[0].clinicalNotes).toBeNull();
    expect(chart.appointments.nodes[0].clinicalRecords).toBeNull();
    expect(chart.admissions.totalCount).toBe(1);
    // Consents are the patient's and their clinicians' to see, and the parties': none for the receptionist.
    expect(chart.consents).toEqual({ totalCount: 0, nodes: [] });
    for (const field of ['labOrders', 'labResults', 'observations', 'imagingOrders', 'ePrescriptions', 'immunizationSchedule', 'journey']) {
      expect([field, chart[field]]).toEqual([field, null]);
    }
    const forbidden = (res.body.errors ?? []).filter((e: any) => e.extensions.code === 'FORBIDDEN').map((e: any) => e.path.join('.'));
    expect(forbidden.sort()).toEqual(
      [
        'patient.appointments.nodes.0.clinicalNotes',
        'patient.appointments.nodes.0.clinicalRecords',
        'patient.ePrescriptions',
        'patient.imagingOrders',
        'patient.immunizationSchedule',
        'patient.journey',
        'patient.labOrders',
        'patient.labResults',
        'patient.observations',
      ].sort(),
    );
    expect(JSON.stringify(res.body)).not.toContain('Seen today');
    // Billing staff read neither appointments (their own only: none) nor admissions.
    const billing = await c.billing.api.graphql(
      'query($p: ID!) { patient(id: $p) { appointments(first: 5) { totalCount } admissions(first: 5) { totalCount } } }',
      {
        p: patientId,
      },
    );
    expect(billing.body.data.patient).toEqual({ appointments: { totalCount: 0 }, admissions: null });
    expect(codes(billing)).toEqual(['FORBIDDEN']);
  });

  it('shows a consent grantee of another organization the consent they hold, and the chart through it', async () => {
    const res = await stranger.api.graphql(
      'query($p: ID!) { patient(id: $p) { consents(first: 5) { totalCount } labOrders(first: 5) { totalCount } admissions(first: 5) { totalCount } } }',
      {
        p: patientId,
      },
    );
    // The consent lets the grantee read clinical data; admissions are the organization's, and the grantee's organization holds none.
    expect(res.body.data.patient).toEqual({ consents: { totalCount: 1 }, labOrders: { totalCount: 1 }, admissions: { totalCount: 0 } });
  });

  it("lists an organization's critical results waiting for review, newest first, and takes out the ones reviewed", async () => {
    const INBOX = `query($o: ID!) { criticalResultsInbox(organizationId: $o, first: 10) { totalCount nodes { id code patient { id } labOrder { id } } } }`;
    const second = await arrangeCriticalResult(labOrderId, patientId, '777-3');
    const before = await c.nurse.api.graphql(INBOX, { o: c.orgId });
    expect(before.body.errors).toBeUndefined();
    const ids = before.body.data.criticalResultsInbox.nodes.map((r: { id: string }) => r.id);
    expect(ids.slice(0, 2)).toEqual([second, criticalId]);
    expect(before.body.data.criticalResultsInbox.nodes[0]).toEqual({
      id: second,
      code: '777-3',
      patient: { id: patientId },
      labOrder: { id: labOrderId },
    });
    await mutate(c.doctor, 'mutation($id: ID!) { reviewLabResult(id: $id) { reviewStatus } }', { id: second });
    const after = await c.nurse.api.graphql(INBOX, { o: c.orgId });
    expect(after.body.data.criticalResultsInbox.nodes.map((r: { id: string }) => r.id)).not.toContain(second);
    expect(after.body.data.criticalResultsInbox.totalCount).toBe(before.body.data.criticalResultsInbox.totalCount - 1);
    // Clinical data: a receptionist is refused, another organization is told there is no such organization.
    expect(codes(await receptionist.api.graphql(INBOX, { o: c.orgId }))).toEqual(['FORBIDDEN']);
    expect(codes(await stranger.api.graphql(INBOX, { o: c.orgId }))).toEqual(['NOT_FOUND']);
  });

  it('reads the organization dashboard: patients and critical results beside the rooms, each under its root rule', async () => {
    const DASHBOARD = `query($o: ID!) { organization(id: $o) {
      name
      patients(limit: 50) { total items { id firstName } }
      criticalResults(first: 5) { totalCount nodes { id patient { firstName } } }
      appointments(limit: 5) { total }
      rooms(limit: 5) { total }
    } }`;
    const doctorView = await c.doctor.api.graphql(DASHBOARD, { o: c.orgId });
    expect(doctorView.body.errors).toBeUndefined();
    const org = doctorView.body.data.organization;
    expect(org.patients.items.map((p: { id: string }) => p.id)).toContain(patientId);
    expect(org.criticalResults.nodes.map((r: { id: string }) => r.id)).toContain(criticalId);
    expect(org.criticalResults.nodes[0].patient).toEqual({ firstName: expect.any(String) });
    const receptionistView = await receptionist.api.graphql(DASHBOARD, { o: c.orgId });
    expect(receptionistView.body.data.organization.patients.total).toBeGreaterThan(0);
    expect(receptionistView.body.data.organization.criticalResults).toBeNull();
    expect((receptionistView.body.errors ?? []).map((e: any) => [e.path.join('.'), e.extensions.code])).toEqual([
      ['organization.criticalResults', 'FORBIDDEN'],
    ]);
  });

  it('costs the same number of statements for one patient or a page of them (no N+1)', async () => {
    for (let i = 0; i < 2; i++) {
      const p = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: `J${i}` })).body.data
        .id;
      await mutate(c.doctor, 'mutation($p: ID!) { createLabOrder(input: { patientId: $p, testType: "cbc" }) { id } }', { p });
      await arrangeVisit(p, `J${i}`);
    }
    const query = `query($o: ID!, $l: Int!) { organizationPatients(organizationId: $o, limit: $l) { items {
      id labOrders(first: 2) { totalCount nodes { id } } observations(first: 2) { nodes { id } } imagingOrders(first: 2) { nodes { id } }
      ePrescriptions(first: 2) { nodes { id } } consents(first: 2) { nodes { id } }
      appointments(first: 2) { totalCount nodes { id clinicalNotes(first: 2) { nodes { id } } clinicalRecords(first: 2) { id } } }
      admissions(first: 2) { nodes { id } } } } }`;
    const selects = async (limit: number) => {
      let items = 0;
      const statements: string[] = [];
      const clinical = await countStatements('clinical', async () => {
        statements.push(
          ...(await countStatements('org', async () => {
            const res = await c.doctor.api.graphql(query, { o: c.orgId, l: limit });
            expect(res.body.errors).toBeUndefined();
            items = res.body.data.organizationPatients.items.length;
          })),
        );
      });
      expect(items).toBe(limit);
      return [...clinical, ...statements].filter(
        (s) =>
          /^\s*select/i.test(s) &&
          /"(lab_orders|observations|imaging_orders|eprescriptions|consents|appointments|admissions|clinical_notes|clinical_records)"/.test(
            s,
          ),
      ).length;
    };
    const one = await selects(1);
    const three = await selects(3);
    // One statement per list (and one for each count), whatever the patients; the appointments' notes and records too.
    expect(one).toBe(11);
    expect(three).toBe(one);
  });
});
