import { randomUUID } from 'node:crypto';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';
import { addMember } from './support/org';

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

const conversations = (orgId = c.orgId) => `/api/organizations/${orgId}/conversations`;
const messages = (id: string, orgId = c.orgId) => `${conversations(orgId)}/${id}/messages`;
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
const fields = (res: { body: { error: { details?: { field: string }[] } } }) => (res.body.error.details ?? []).map((d) => d.field);

/** A conversation the doctor starts with the nurse. */
async function start(body: Record<string, unknown> = {}) {
  const res = await c.doctor.api.post(conversations(), { subject: 'Bed 4 handover', participant_ids: [c.nurse.user.id], ...body });
  if (res.status !== 201) throw new Error(`conversation: ${res.status} ${res.text}`);
  return res.body.data as { id: string; participant_ids: string[] };
}

describe('conversations', () => {
  it('starts a conversation between members; the creator always takes part', async () => {
    const res = await c.doctor.api.post(conversations(), {
      subject: 'Ward round',
      participant_ids: [c.nurse.user.id, receptionist.user.id, c.nurse.user.id],
      patient_id: c.patientId,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      subject: 'Ward round',
      organization_id: c.orgId,
      patient_id: c.patientId,
      participant_ids: [c.doctor.user.id, c.nurse.user.id, receptionist.user.id],
      created_by: c.doctor.user.id,
      last_message_at: null,
      unread_count: 0,
    });
    // `title` is taken for `subject`.
    const titled = await c.nurse.api.post(conversations(), { title: 'Night shift', participant_ids: [c.doctor.user.id] });
    expect(titled.status).toBe(201);
    expect(titled.body.data.subject).toBe('Night shift');
    const read = await c.nurse.api.get(`${conversations()}/${res.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(res.body.data.id);
  });

  it('refuses participants who are not members of the organization, naming participant_ids (400)', async () => {
    const outside = await c.doctor.api.post(conversations(), { subject: 'Referral', participant_ids: [c.nurse.user.id, stranger.user.id] });
    expect(outside.status).toBe(400);
    expect(fields(outside)).toEqual(['participant_ids']);
    expect(outside.body.error.message).toContain(stranger.user.id);
    expect(fields(await c.doctor.api.post(conversations(), { subject: 'x', participant_ids: [randomUUID()] }))).toEqual([
      'participant_ids',
    ]);
    expect(fields(await c.doctor.api.post(conversations(), { subject: 'x', participant_ids: ['abc'] }))).toEqual(['participant_ids[0]']);
    expect(fields(await c.doctor.api.post(conversations(), { subject: 'x', participant_ids: [] }))).toEqual(['participant_ids']);
    expect(fields(await c.doctor.api.post(conversations(), { subject: 'x', participant_ids: [c.doctor.user.id] }))).toEqual([
      'participant_ids',
    ]);
    expect(fields(await c.doctor.api.post(conversations(), { subject: 'x' }))).toEqual(['participant_ids']);
    const crowd = Array.from({ length: 51 }, () => randomUUID());
    expect(fields(await c.doctor.api.post(conversations(), { subject: 'x', participant_ids: crowd }))).toEqual(['participant_ids']);
    expect(fields(await c.doctor.api.post(conversations(), { participant_ids: [c.nurse.user.id] }))).toEqual(['subject']);
    expect(fields(await c.doctor.api.post(conversations(), { subject: '  ', participant_ids: [c.nurse.user.id] }))).toEqual(['subject']);
    expect(
      fields(await c.doctor.api.post(conversations(), { subject: 'x', participant_ids: [c.nurse.user.id], patient_id: 'abc' })),
    ).toEqual(['patient_id']);
  });

  it('shows a conversation only to its participants: other members and outsiders get 404, anonymous 401', async () => {
    const conv = await start();
    await c.doctor.api.post(messages(conv.id), { body: 'BP 90/60, started fluids' });
    for (const api of [c.billing.api, receptionist.api, stranger.api]) {
      expect((await api.get(`${conversations()}/${conv.id}`)).status).toBe(404);
      expect((await api.get(messages(conv.id))).status).toBe(404);
      const send = await api.post(messages(conv.id), { body: 'hello' });
      expect(send.status).toBe(404);
      expect(send.body.error.code).toBe('NOT_FOUND');
    }
    expect(ids(await c.billing.api.get(conversations()))).not.toContain(conv.id);
    expect((await stranger.api.get(conversations())).status).toBe(404);
    expect((await stranger.api.post(conversations(), { subject: 'x', participant_ids: [c.nurse.user.id] })).status).toBe(404);
    // Under the stranger's own organization the conversation does not exist either.
    expect((await stranger.api.get(messages(conv.id, stranger.orgId))).status).toBe(404);
    expect((await app.api.get(conversations())).status).toBe(401);
    expect((await app.api.post(messages(conv.id), { body: 'x' })).status).toBe(401);
    expect((await c.doctor.api.get(messages(randomUUID()))).status).toBe(404);
    expect((await c.doctor.api.get(messages('abc'))).status).toBe(404);
    // Platform administrators are not members: conversations stay private to the people in them.
    const root = await signInAdmin(app.api);
    expect((await root.get(messages(conv.id))).status).toBe(404);
  });

  it('sends messages (201) and lists them newest first, paginated', async () => {
    const conv = await start();
    const sent = [];
    for (const [api, body] of [
      [c.doctor.api, 'Can you check the drain output?'],
      [c.nurse.api, '150 mL since 08:00'],
      [c.doctor.api, 'Thanks'],
    ] as const) {
      const res = await api.post(messages(conv.id), { body });
      expect(res.status).toBe(201);
      sent.push(res.body.data);
    }
    expect(sent[1]).toMatchObject({
      conversation_id: conv.id,
      sender_id: c.nurse.user.id,
      body: '150 mL since 08:00',
      created_at: expect.any(String),
    });
    const page = await c.nurse.api.get(`${messages(conv.id)}?limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ page: 1, limit: 2, total: 3 });
    expect(ids(page)).toEqual([sent[2].id, sent[1].id]);
    expect(ids(await c.nurse.api.get(`${messages(conv.id)}?limit=2&page=2`))).toEqual([sent[0].id]);
  });

  it('refuses an empty, blank or too long body with a 400 naming body', async () => {
    const conv = await start();
    for (const body of [{}, { body: '' }, { body: '   ' }, { body: 'x'.repeat(5001) }, { body: 42 }]) {
      const res = await c.nurse.api.post(messages(conv.id), body);
      expect(res.status).toBe(400);
      expect(fields(res)).toEqual(['body']);
    }
    expect((await c.nurse.api.post(messages(conv.id), { body: 'x'.repeat(5000) })).status).toBe(201);
    // `content` or `message` stand in for body.
    const content = await c.nurse.api.post(messages(conv.id), { content: 'See you at 10' });
    expect(content.status).toBe(201);
    expect(content.body.data.body).toBe('See you at 10');
    expect((await c.nurse.api.post(messages(conv.id), { message: 'ok' })).body.data.body).toBe('ok');
  });

  it("lists the caller's conversations by latest activity, with last_message_at and unread_count", async () => {
    const member = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, c.orgId, member.user.id, 'ORG:NURSE');
    const older = (await c.doctor.api.post(conversations(), { subject: 'Older', participant_ids: [member.user.id] })).body.data;
    const newer = (await c.doctor.api.post(conversations(), { subject: 'Newer', participant_ids: [member.user.id] })).body.data;
    expect(ids(await member.api.get(conversations()))).toEqual([newer.id, older.id]);

    await c.doctor.api.post(messages(older.id), { body: 'First' });
    const last = (await c.doctor.api.post(messages(older.id), { body: 'Second' })).body.data;
    const list = await member.api.get(conversations());
    expect(ids(list)).toEqual([older.id, newer.id]);
    expect(list.body.meta.total).toBe(2);
    expect(list.body.data[0]).toMatchObject({ last_message_at: last.created_at, unread_count: 2 });
    expect(list.body.data[1]).toMatchObject({ last_message_at: null, unread_count: 0 });
    // The sender has read their own messages; reading the first page marks the conversation read.
    expect((await c.doctor.api.get(`${conversations()}/${older.id}`)).body.data.unread_count).toBe(0);
    await member.api.get(messages(older.id));
    expect((await member.api.get(`${conversations()}/${older.id}`)).body.data.unread_count).toBe(0);
    await c.doctor.api.post(messages(older.id), { body: 'Third' });
    expect((await member.api.get(`${conversations()}/${older.id}`)).body.data.unread_count).toBe(1);
  });

  it('is for people: API keys are refused (403)', async () => {
    const admin = await signUp(app.api, { registration_role: 'STAFF' });
    await addMember(app, c.orgId, admin.user.id, 'ORG:ADMIN');
    const key = await admin.api.post('/api/developer/keys', { name: 'Bot', scopes: ['organizations:read'], organization_id: c.orgId });
    expect(key.status).toBe(201);
    const asKey = { headers: { 'x-api-key': key.body.data.key }, token: null };
    expect((await app.api.get(conversations(), asKey)).status).toBe(403);
    expect((await app.api.post(conversations(), { subject: 'x', participant_ids: [c.nurse.user.id] }, asKey)).status).toBe(403);
  });

  it('works through GraphQL, with the patient resolved by the clinical subgraph', async () => {
    const created = await c.nurse.api.graphql(
      `mutation($org: ID!, $input: CreateConversationInput!) { createConversation(organizationId: $org, input: $input) { id participantIds patient { id firstName } } }`,
      { org: c.orgId, input: { subject: 'Discharge plan', participantIds: [c.doctor.user.id], patientId: c.patientId } },
    );
    expect(created.body.errors).toBeUndefined();
    const conv = created.body.data.createConversation;
    expect(conv).toMatchObject({
      participantIds: [c.nurse.user.id, c.doctor.user.id],
      patient: { id: c.patientId, firstName: SAMPLE_PATIENT.first_name },
    });
    const sent = await c.doctor.api.graphql(
      `mutation($org: ID!, $id: ID!) { sendMessage(organizationId: $org, conversationId: $id, input: { body: "Agreed, tomorrow 10:00" }) { id body senderId } }`,
      { org: c.orgId, id: conv.id },
    );
    expect(sent.body.data.sendMessage).toMatchObject({ body: 'Agreed, tomorrow 10:00', senderId: c.doctor.user.id });
    const listed = await c.nurse.api.graphql(
      `query($org: ID!, $id: ID!) { conversationMessages(organizationId: $org, conversationId: $id) { total items { body } } conversations(organizationId: $org, limit: 100) { items { id unreadCount } } }`,
      { org: c.orgId, id: conv.id },
    );
    expect(listed.body.data.conversationMessages).toEqual({ total: 1, items: [{ body: 'Agreed, tomorrow 10:00' }] });
    expect(listed.body.data.conversations.items.map((i: { id: string }) => i.id)).toContain(conv.id);
    const outside = await c.billing.api.graphql(`query($org: ID!, $id: ID!) { conversation(organizationId: $org, id: $id) { id } }`, {
      org: c.orgId,
      id: conv.id,
    });
    expect(outside.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
