import { clock } from '../shared/clock';
import { OutboxEvent } from '../shared/outbox';
import { PASSWORD, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { addMember, createOrganization } from './support/org';

let app: TestApp;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  app = await startApp();
  // Work happens at 08:00 UTC of a fixed day, so the attendance of "today" never straddles midnight.
  const now = Date.now();
  clock.advance(Math.ceil(now / DAY_MS) * DAY_MS + 8 * 3600_000 - now);
});
afterAll(async () => {
  clock.reset();
  await app.close();
});

/** An organization (its creator is ORG:ADMIN) with a nurse; each belongs to that organization only. */
async function team() {
  const owner = await signUp(app.api, { registration_role: 'DOCTOR' });
  const org = await createOrganization(owner.api);
  const nurse = await signUp(app.api, { registration_role: 'NURSE' });
  await addMember(app, org.id, nurse.user.id, 'ORG:NURSE');
  return { owner, org, nurse };
}

/** Moves time forward and signs the users in again (access tokens live 15 minutes). */
async function later(minutes: number, ...users: SignedUp[]): Promise<void> {
  clock.advance(minutes * 60_000);
  for (const u of users) {
    const res = await app.api.post('/api/auth/login', { email: u.user.email, password: PASSWORD });
    if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.text}`);
    (u as { api: Api }).api = app.api.as(res.body.data.token);
  }
}

const fields = (res: { body: { error: { details?: { field: string }[] } } }) => res.body.error.details?.map((d) => d.field);
const today = () => clock.now().toISOString().slice(0, 10);

describe('attendance', () => {
  it('clocks in and out at the only organization, with the duration in minutes', async () => {
    const { org, nurse } = await team();
    const before = clock.nowMs();
    const res = await nurse.api.post('/api/attendance/clock-in', { note: 'Night cover', location: 'Ward 3' });
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.data.clock_in_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(res.body.data.clock_in_at)).toBeLessThanOrEqual(clock.nowMs());
    expect(res.body.data).toMatchObject({
      organization_id: org.id,
      user_id: nurse.user.id,
      clock_out_at: null,
      duration_minutes: null,
      note: 'Night cover',
      location: 'Ward 3',
    });
    await later(95.5, nurse);
    const out = await nurse.api.post('/api/attendance/clock-out', { note: 'Handover done' });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({
      id: res.body.data.id,
      duration_minutes: 95,
      clock_out_note: 'Handover done',
      clock_out_at: expect.any(String),
    });
    const again = await nurse.api.post('/api/attendance/clock-out');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('refuses a second clock-in (409), also when several arrive at once', async () => {
    const { nurse, owner } = await team();
    expect((await nurse.api.post('/api/attendance/clock-in')).status).toBe(201);
    const twice = await nurse.api.post('/api/attendance/clock-in', {});
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toMatch(/already clocked in/);
    const results = await Promise.all([1, 2, 3, 4].map(() => owner.api.post('/api/attendance/clock-in')));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('refuses clock-out without clock-in (409)', async () => {
    const { nurse } = await team();
    const res = await nurse.api.post('/api/attendance/clock-out');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('You are not clocked in');
  });

  it('needs organization_id for members of several organizations, and membership of the one named', async () => {
    const { org, nurse } = await team();
    const second = await team();
    await addMember(app, second.org.id, nurse.user.id, 'ORG:NURSE');
    const missing = await nurse.api.post('/api/attendance/clock-in');
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['organization_id']);
    const stranger = await signUp(app.api);
    expect(fields(await stranger.api.post('/api/attendance/clock-in'))).toEqual(['organization_id']);
    expect((await stranger.api.post('/api/attendance/clock-in', { organization_id: org.id })).status).toBe(404);
    expect((await stranger.api.post('/api/attendance/clock-in', { organization_id: 'nope' })).status).toBe(400);

    expect((await nurse.api.post('/api/attendance/clock-in', { organization_id: org.id })).status).toBe(201);
    expect((await nurse.api.post('/api/attendance/clock-in', { organization_id: second.org.id })).status).toBe(201);
    // Clocked in at two: clock-out has to say where.
    expect(fields(await nurse.api.post('/api/attendance/clock-out'))).toEqual(['organization_id']);
    const out = await nurse.api.post('/api/attendance/clock-out', { organization_id: second.org.id });
    expect(out.status).toBe(200);
    expect(out.body.data.organization_id).toBe(second.org.id);
    expect((await nurse.api.post('/api/attendance/clock-out', { organization_id: second.org.id })).status).toBe(409);
    expect((await nurse.api.post('/api/attendance/clock-out')).body.data.organization_id).toBe(org.id);
  });

  it("answers today's entries with totals: one's own, or the whole organization for its administrator", async () => {
    const { owner, org, nurse } = await team();
    await nurse.api.post('/api/attendance/clock-in');
    await later(30, nurse, owner);
    await nurse.api.post('/api/attendance/clock-out');
    await nurse.api.post('/api/attendance/clock-in');
    await owner.api.post('/api/attendance/clock-in');
    await later(10, nurse, owner);

    const own = await nurse.api.get('/api/attendance/today');
    expect(own.status).toBe(200);
    expect(own.body.data.date).toBe(today());
    expect(own.body.data.entries).toHaveLength(2);
    expect(own.body.data.entries.every((e: { user_id: string }) => e.user_id === nurse.user.id)).toBe(true);
    expect(own.body.data.total_minutes).toBe(40);
    expect(own.body.data.totals).toEqual([
      { organization_id: org.id, user_id: nurse.user.id, minutes: 40, entry_count: 2, clocked_in: true },
    ]);
    // A member who is not an administrator sees only their own, even naming the organization.
    const ownAtOrg = await nurse.api.get(`/api/attendance/today?organization_id=${org.id}`);
    expect(ownAtOrg.body.data.totals.map((t: { user_id: string }) => t.user_id)).toEqual([nurse.user.id]);
    const other = await nurse.api.get(`/api/attendance/today?organization_id=${org.id}&user_id=${owner.user.id}`);
    expect(other.status).toBe(403);

    const all = await owner.api.get(`/api/attendance/today?organization_id=${org.id}`);
    expect(all.body.data.entries).toHaveLength(3);
    expect(all.body.data.total_minutes).toBe(50);
    const one = await owner.api.get(`/api/attendance/today?organization_id=${org.id}&user_id=${nurse.user.id}`);
    expect(one.body.data.totals).toEqual([expect.objectContaining({ user_id: nurse.user.id, minutes: 40 })]);

    const stranger = await signUp(app.api);
    expect((await stranger.api.get(`/api/attendance/today?organization_id=${org.id}`)).status).toBe(404);
    expect((await stranger.api.get('/api/attendance/today')).body.data).toMatchObject({ entries: [], total_minutes: 0, totals: [] });
    expect(fields(await owner.api.get(`/api/attendance/today?user_id=${nurse.user.id}`))).toEqual(['organization_id']);
    expect(fields(await owner.api.get(`/api/attendance/today?organization_id=${org.id}&user_id=bad`))).toEqual(['user_id']);
    expect((await app.api.get('/api/attendance/today')).status).toBe(401);
  });

  it('is for people: no token 401, API keys 403', async () => {
    const { owner, org } = await team();
    const created = await owner.api.post('/api/developer/keys', {
      name: 'Time clock',
      scopes: ['organizations:read'],
      organization_id: org.id,
    });
    const key = { headers: { 'x-api-key': created.body.data.key } };
    expect((await app.api.post('/api/attendance/clock-in', { organization_id: org.id }, key)).status).toBe(403);
    expect((await app.api.get(`/api/attendance/today?organization_id=${org.id}`, key)).status).toBe(403);
    expect((await app.api.post('/api/attendance/clock-in')).status).toBe(401);
    expect((await app.api.post('/api/attendance/clock-out')).status).toBe(401);
  });

  it('works through GraphQL', async () => {
    const { org, nurse } = await team();
    const inRes = await nurse.api.graphql('mutation { clockIn(input: { location: "OPD" }) { organizationId location clockOutAt } }');
    expect(inRes.body.data.clockIn).toEqual({ organizationId: org.id, location: 'OPD', clockOutAt: null });
    clock.advance(5 * 60_000);
    const outRes = await nurse.api.graphql('mutation { clockOut { durationMinutes } }');
    expect(outRes.body.data.clockOut).toEqual({ durationMinutes: 5 });
    const day = await nurse.api.graphql('{ attendanceToday { date totalMinutes totals { clockedIn } } }');
    expect(day.body.data.attendanceToday).toEqual({ date: today(), totalMinutes: 5, totals: [{ clockedIn: false }] });
  });
});

describe('leave requests', () => {
  const leave = (fields: Record<string, unknown> = {}) => ({
    type: 'annual',
    start_date: '2031-03-02',
    end_date: '2031-03-06',
    reason: 'Family visit',
    ...fields,
  });

  it('creates a pending request for the only organization, counting its days', async () => {
    const { org, nurse } = await team();
    const res = await nurse.api.post('/api/leave-requests', leave());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      organization_id: org.id,
      user_id: nurse.user.id,
      type: 'annual',
      start_date: '2031-03-02',
      end_date: '2031-03-06',
      days: 5,
      reason: 'Family visit',
      status: 'pending',
      decided_by: null,
    });
    const mine = await nurse.api.get('/api/leave-requests');
    expect(mine.body.data.map((l: { id: string }) => l.id)).toEqual([res.body.data.id]);
    expect(mine.body.meta.total).toBe(1);
    expect((await nurse.api.get(`/api/leave-requests/${res.body.data.id}`)).body.data.id).toBe(res.body.data.id);
  });

  it.each([
    [{ start_date: '2031-02-30' }, ['start_date']],
    [{ end_date: '06/03/2031' }, ['end_date']],
    [{ start_date: '2031-03-06', end_date: '2031-03-02' }, ['end_date']],
    [{ type: 'holiday' }, ['type']],
    [{ start_date: undefined, end_date: undefined }, ['start_date', 'end_date']],
  ])('refuses bad fields %j with a 400 naming them', async (change, named) => {
    const { nurse } = await team();
    const res = await nurse.api.post('/api/leave-requests', leave(change));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)!.sort()).toEqual([...named].sort());
  });

  it('refuses leave overlapping pending or approved leave of the same member (409), also when sent at once', async () => {
    const { owner, org, nurse } = await team();
    const first = await nurse.api.post('/api/leave-requests', leave());
    const overlap = await nurse.api.post('/api/leave-requests', leave({ type: 'sick', start_date: '2031-03-06', end_date: '2031-03-09' }));
    expect(overlap.status).toBe(409);
    expect(overlap.body.error.message).toMatch(/overlap/);
    expect((await nurse.api.post('/api/leave-requests', leave({ start_date: '2031-03-07', end_date: '2031-03-07' }))).status).toBe(201);
    await owner.api.post(`/api/organizations/${org.id}/leave-requests/${first.body.data.id}/approve`);
    expect((await nurse.api.post('/api/leave-requests', leave({ start_date: '2031-03-01', end_date: '2031-03-02' }))).status).toBe(409);
    // Another member's leave does not count.
    expect((await owner.api.post('/api/leave-requests', leave())).status).toBe(201);

    const results = await Promise.all(
      [1, 2, 3].map(() => nurse.api.post('/api/leave-requests', leave({ start_date: '2031-05-01', end_date: '2031-05-03' }))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('is for members of the organization: outsiders 404, no token 401', async () => {
    const { org } = await team();
    const stranger = await signUp(app.api);
    await createOrganization(stranger.api);
    expect((await stranger.api.post('/api/leave-requests', leave({ organization_id: org.id }))).status).toBe(404);
    expect((await app.api.post('/api/leave-requests', leave())).status).toBe(401);
  });

  it('is approved once by leave:approve and emits leave_approved', async () => {
    const { owner, org, nurse } = await team();
    const { id } = (await nurse.api.post('/api/leave-requests', leave({ type: 'study' }))).body.data;
    const byNurse = await nurse.api.post(`/api/organizations/${org.id}/leave-requests/${id}/approve`);
    expect(byNurse.status).toBe(403);
    const res = await owner.api.post(`/api/organizations/${org.id}/leave-requests/${id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'approved', decided_by: owner.user.id, decided_at: expect.any(String) });
    const events = await app.em('org').find(OutboxEvent, { topic: 'svc.workforce.leave_approved', payload: { leave_request_id: id } });
    expect(events.map((e) => e.payload)).toEqual([
      {
        leave_request_id: id,
        organization_id: org.id,
        member_id: nurse.user.id,
        start_date: '2031-03-02',
        end_date: '2031-03-06',
        type: 'study',
      },
    ]);
    const twice = await owner.api.post(`/api/organizations/${org.id}/leave-requests/${id}/approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('Cannot approve a leave request that is approved');
    expect((await owner.api.post(`/api/organizations/${org.id}/leave-requests/${id}/reject`)).status).toBe(409);
    expect(await app.em('org').count(OutboxEvent, { topic: 'svc.workforce.leave_approved', payload: { leave_request_id: id } })).toBe(1);
  });

  it("answers 404 for another organization's leave request and for unknown ones", async () => {
    const { org, nurse } = await team();
    const other = await team();
    const { id } = (await nurse.api.post('/api/leave-requests', leave())).body.data;
    // The other organization's administrator: through their organization the request does not exist, through ours they are outsiders.
    expect((await other.owner.api.post(`/api/organizations/${other.org.id}/leave-requests/${id}/approve`)).status).toBe(404);
    expect((await other.owner.api.post(`/api/organizations/${org.id}/leave-requests/${id}/approve`)).status).toBe(404);
    expect((await other.owner.api.get(`/api/leave-requests/${id}`)).status).toBe(404);
    expect((await other.owner.api.post(`/api/leave-requests/${id}/cancel`)).status).toBe(404);
    const unknown = await other.owner.api.post(
      `/api/organizations/${other.org.id}/leave-requests/00000000-0000-4000-8000-000000000000/approve`,
    );
    expect(unknown.status).toBe(404);
    expect((await other.owner.api.post(`/api/organizations/${other.org.id}/leave-requests/nope/approve`)).status).toBe(404);
    expect((await app.api.post(`/api/organizations/${org.id}/leave-requests/${id}/approve`)).status).toBe(401);
  });

  it('is rejected with a reason, or cancelled by its requester', async () => {
    const { owner, org, nurse } = await team();
    const a = (await nurse.api.post('/api/leave-requests', leave())).body.data;
    const rejected = await owner.api.post(`/api/organizations/${org.id}/leave-requests/${a.id}/reject`, {
      reason: 'Short-staffed that week',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', decision_reason: 'Short-staffed that week', decided_by: owner.user.id });
    expect((await nurse.api.post(`/api/organizations/${org.id}/leave-requests/${a.id}/reject`)).status).toBe(403);

    // Rejected leave frees its days.
    const b = (await nurse.api.post('/api/leave-requests', leave())).body.data;
    expect((await owner.api.post(`/api/leave-requests/${b.id}/cancel`)).status).toBe(403);
    const cancelled = await nurse.api.post(`/api/leave-requests/${b.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    expect((await nurse.api.post(`/api/leave-requests/${b.id}/cancel`)).status).toBe(409);
    expect((await owner.api.post(`/api/organizations/${org.id}/leave-requests/${b.id}/approve`)).status).toBe(409);
    expect((await nurse.api.post('/api/leave-requests', leave())).status).toBe(201);
  });

  it("lists an organization's requests: all for approvers, one's own for other members", async () => {
    const { owner, org, nurse } = await team();
    const mineRes = (await nurse.api.post('/api/leave-requests', leave())).body.data;
    const ownerRes = (await owner.api.post('/api/leave-requests', leave({ type: 'other' }))).body.data;
    const all = await owner.api.get(`/api/organizations/${org.id}/leave-requests`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((l: { id: string }) => l.id).sort()).toEqual([mineRes.id, ownerRes.id].sort());
    expect(all.body.meta.total).toBe(2);
    const filtered = await owner.api.get(`/api/organizations/${org.id}/leave-requests?user_id=${nurse.user.id}&status=pending`);
    expect(filtered.body.data.map((l: { id: string }) => l.id)).toEqual([mineRes.id]);
    expect(
      (await owner.api.get(`/api/organizations/${org.id}/leave-requests?type=other`)).body.data.map((l: { id: string }) => l.id),
    ).toEqual([ownerRes.id]);
    const own = await nurse.api.get(`/api/organizations/${org.id}/leave-requests`);
    expect(own.body.data.map((l: { id: string }) => l.id)).toEqual([mineRes.id]);
    expect((await nurse.api.get(`/api/organizations/${org.id}/leave-requests?user_id=${owner.user.id}`)).status).toBe(403);
    expect(fields(await owner.api.get(`/api/organizations/${org.id}/leave-requests?status=maybe`))).toEqual(['status']);
    // The approver reads the nurse's request; the nurse does not read the owner's.
    expect((await owner.api.get(`/api/leave-requests/${mineRes.id}`)).status).toBe(200);
    expect((await nurse.api.get(`/api/leave-requests/${ownerRes.id}`)).status).toBe(404);
    const stranger = await signUp(app.api);
    expect((await stranger.api.get(`/api/organizations/${org.id}/leave-requests`)).status).toBe(404);
  });

  it('works through GraphQL', async () => {
    const { owner, org, nurse } = await team();
    const create = `mutation($input: CreateLeaveRequestInput!) {
      createLeaveRequest(input: $input) { leaveRequest { id status days } userErrors { field message code } }
    }`;
    const sick = { organizationId: org.id, type: 'sick', startDate: '2031-07-01', endDate: '2031-07-01' };
    const created = await nurse.api.graphql(create, { input: sick });
    expect(created.body.data.createLeaveRequest).toMatchObject({ leaveRequest: { status: 'pending', days: 1 }, userErrors: [] });
    // A field rule broken and dates taken are the user's to fix: userErrors, the request null.
    const bad = await nurse.api.graphql(create, { input: { type: 'sick', startDate: '2031-07-05', endDate: '2031-07-04' } });
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data.createLeaveRequest).toEqual({
      leaveRequest: null,
      userErrors: [{ field: ['input', 'endDate'], message: 'must be on or after the start date', code: 'INVALID' }],
    });
    const overlap = await nurse.api.graphql(create, { input: { ...sick, type: 'annual' } });
    expect(overlap.body.data.createLeaveRequest).toEqual({
      leaveRequest: null,
      userErrors: [{ field: null, message: 'These dates overlap your pending leave from 2031-07-01 to 2031-07-01', code: 'BUSINESS_RULE' }],
    });
    const approved = await owner.api.graphql(
      'mutation($org: ID!, $id: ID!) { approveLeaveRequest(organizationId: $org, id: $id) { status } }',
      {
        org: org.id,
        id: created.body.data.createLeaveRequest.leaveRequest.id,
      },
    );
    expect(approved.body.data.approveLeaveRequest).toEqual({ status: 'approved' });
    const listed = await owner.api.graphql(
      'query($org: ID!) { organizationLeaveRequests(organizationId: $org, status: approved) { total } }',
      { org: org.id },
    );
    expect(listed.body.data.organizationLeaveRequests.total).toBe(1);
  });
});

describe('when a membership ends', () => {
  it("cancels the member's pending leave there and clocks out their open attendance; approved leave stays", async () => {
    const { owner, org, nurse } = await team();
    const approved = (await nurse.api.post('/api/leave-requests', { type: 'annual', start_date: '2031-09-01', end_date: '2031-09-02' }))
      .body.data;
    await owner.api.post(`/api/organizations/${org.id}/leave-requests/${approved.id}/approve`);
    const pending = (await nurse.api.post('/api/leave-requests', { type: 'annual', start_date: '2031-10-01', end_date: '2031-10-02' })).body
      .data;
    expect((await nurse.api.post('/api/attendance/clock-in')).status).toBe(201);
    await later(30, owner, nurse);
    expect((await owner.api.delete(`/api/organizations/${org.id}/members/${nurse.user.id}`)).status).toBe(200);
    const decisions = await owner.api.get(`/api/organizations/${org.id}/leave-requests?status=cancelled`);
    expect(decisions.body.data.map((l: { id: string; cancelled_at: string }) => [l.id, !!l.cancelled_at])).toEqual([[pending.id, true]]);
    expect(
      (await owner.api.get(`/api/organizations/${org.id}/leave-requests?status=approved`)).body.data.map((l: { id: string }) => l.id),
    ).toEqual([approved.id]);
    const day = await owner.api.get(`/api/attendance/today?organization_id=${org.id}&user_id=${nurse.user.id}`);
    expect(day.status).toBe(200);
    expect(JSON.stringify(day.body.data)).toContain('Membership ended');
    expect(JSON.stringify(day.body.data)).toContain('"duration_minutes":30');
  });
});
