import { randomUUID } from 'node:crypto';
import { INTERNAL_SIGNATURE_HEADER, signInternalWebhook } from '../shared/internal-auth';
import { OutboxEvent } from '../shared/outbox';
import { GenerationStatus, Roster } from '../subgraphs/org/workforce/roster.entity';
import { memberViolations, minuteOfDay, rosterWeeks, timed, type RuleMember, type TimedShift } from '../subgraphs/org/workforce/rules';
import { WebhookDelivery } from '../workers/store/entities';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { lastMail } from './support/mail';
import { addMember, createOrganization } from './support/org';
import { eventually } from './support/wait';
import { deliver } from './support/webhooks';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const MONDAY = '2031-03-03';
/** How long a test waits for a generation: the solver's two stages have 20 s each, on a machine that may be busy. */
const GENERATION_MS = 120_000;
const fields = (res: { body: { error: { details?: { field: string }[] } } }) => res.body.error.details?.map((d) => d.field);
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

interface Ward {
  orgId: string;
  manager: SignedUp;
  nurses: SignedUp[];
  /** Workforce member ids: the nurses' first, then staff without an account. */
  members: string[];
  shiftTypes: Record<string, string>;
}

/**
 * An organization (its creator ORG:ADMIN, the manager) with nurses who have accounts (ORG:NURSE) and staff without
 * one, each a workforce member; shift types as given.
 */
async function ward(opts: {
  nurses?: { skills?: string[]; hours?: number }[];
  staff?: { skills?: string[]; hours?: number; email?: string; night?: boolean }[];
  /** Shift type bodies as POST /api/workforce/shift-types takes them. */
  types?: ({ name: string } & Record<string, unknown>)[];
}): Promise<Ward> {
  const manager = await signUp(app.api, { registration_role: 'NURSE' });
  const orgId = (await createOrganization(manager.api)).id;
  const nurses: SignedUp[] = [];
  const members: string[] = [];
  for (const n of opts.nurses ?? []) {
    const nurse = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, orgId, nurse.user.id, 'ORG:NURSE');
    nurses.push(nurse);
    const res = await manager.api.post('/api/workforce/members', {
      user_id: nurse.user.id,
      role: 'Registered nurse',
      contracted_hours_per_week: n.hours ?? 40,
      skills: n.skills ?? [],
    });
    if (res.status !== 201) throw new Error(`member: ${res.status} ${res.text}`);
    members.push(res.body.data.id);
  }
  for (const [i, s] of (opts.staff ?? []).entries()) {
    const res = await manager.api.post('/api/workforce/members', {
      name: `Staff ${i}`,
      email: s.email,
      role: 'Nurse aide',
      contracted_hours_per_week: s.hours ?? 40,
      skills: s.skills ?? [],
      night_eligible: s.night ?? true,
    });
    if (res.status !== 201) throw new Error(`member: ${res.status} ${res.text}`);
    members.push(res.body.data.id);
  }
  const shiftTypes: Record<string, string> = {};
  for (const t of opts.types ?? []) {
    const res = await manager.api.post('/api/workforce/shift-types', t);
    if (res.status !== 201) throw new Error(`shift type: ${res.status} ${res.text}`);
    shiftTypes[t.name] = res.body.data.id;
  }
  return { orgId, manager, nurses, members, shiftTypes };
}

async function generated(w: Ward, rosterId: string) {
  const res = await w.manager.api.post(`/api/workforce/rosters/${rosterId}/generate`);
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({
    status: expect.stringMatching(/^(draft|generated)$/),
    generation_status: 'queued',
    generation_progress: 0,
  });
  return eventually(
    async () => {
      const r = await w.manager.api.get(`/api/workforce/rosters/${rosterId}`);
      return ['succeeded', 'failed'].includes(r.body.data.generation_status) ? r.body.data : null;
    },
    'roster generation',
    GENERATION_MS,
  );
}

async function allAssignments(api: SignedUp['api'], rosterId: string, query = '') {
  const res = await api.get(`/api/workforce/rosters/${rosterId}/assignments?limit=100${query}`);
  expect(res.status).toBe(200);
  const items = [...res.body.data];
  for (let page = 2; items.length < res.body.meta.total; page++) {
    items.push(...(await api.get(`/api/workforce/rosters/${rosterId}/assignments?limit=100&page=${page}${query}`)).body.data);
  }
  return items as {
    id: string;
    member_id: string;
    shift_type_id: string;
    date: string;
    start_time: string;
    duration_minutes: number;
    is_night: boolean;
    status: string;
    source: string;
  }[];
}

const THREE_SHIFTS = [
  { name: 'Day', start_time: '07:00', end_time: '15:00', min_staff: 3, skill_requirements: [{ skill: 'icu', min_staff: 1 }] },
  { name: 'Evening', start_time: '15:00', end_time: '23:00', min_staff: 2 },
  { name: 'Night', start_time: '23:00', end_time: '07:00', min_staff: 2, skill_requirements: [{ skill: 'icu', min_staff: 1 }] },
];
const DAY_SHIFT = { name: 'Day', start_time: '07:00', end_time: '15:00' };

describe('members, shift types and coverage requirements', () => {
  it('adds members with and without an account and lists them by name, filtered by skill', async () => {
    const w = await ward({ nurses: [{ skills: ['icu'] }] });
    const nurse = w.nurses[0];
    const member = (await w.manager.api.get(`/api/workforce/members/${w.members[0]}`)).body.data;
    expect(member).toMatchObject({
      organization_id: w.orgId,
      user_id: nurse.user.id,
      name: 'Test User',
      email: nurse.user.email,
      role: 'Registered nurse',
      contracted_hours_per_week: 40,
      skills: ['icu'],
      night_eligible: true,
      weekend_eligible: true,
    });
    const aide = await w.manager.api.post('/api/workforce/members', {
      name: 'Abena Owusu',
      email: 'Abena@Example.test',
      role: 'Nurse aide',
      contracted_hours_per_week: 22.5,
      skills: ['Triage', 'triage'],
      night_eligible: false,
    });
    expect(aide.status).toBe(201);
    expect(aide.body.data).toMatchObject({
      user_id: null,
      email: 'abena@example.test',
      skills: ['triage'],
      night_eligible: false,
      contracted_hours_per_week: 22.5,
    });
    const list = await nurse.api.get('/api/workforce/members');
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    expect(list.body.data.map((m: { name: string }) => m.name)).toEqual(['Abena Owusu', 'Test User']);
    expect(ids(await nurse.api.get('/api/workforce/members?skill=icu'))).toEqual([w.members[0]]);
    const twice = await w.manager.api.post('/api/workforce/members', {
      user_id: nurse.user.id,
      role: 'Nurse',
      contracted_hours_per_week: 30,
    });
    expect(twice.status).toBe(409);
  });

  it.each([
    [{ contracted_hours_per_week: 0 }, ['contracted_hours_per_week']],
    [{ contracted_hours_per_week: 100 }, ['contracted_hours_per_week']],
    [{ contracted_hours_per_week: '40' }, ['contracted_hours_per_week']],
    [{ skills: ['ICU nurse'] }, ['skills']],
    [{ role: '  ' }, ['role']],
    [{ role: undefined }, ['role']],
    [{ name: undefined }, ['name']],
    [{ email: 'not-an-email' }, ['email']],
    [{ user_id: 'not-a-uuid' }, ['user_id']],
    [{ user_id: randomUUID() }, ['user_id']],
  ])('refuses a member with %j (400 naming the field)', async (change, named) => {
    const w = await ward({});
    const res = await w.manager.api.post('/api/workforce/members', {
      name: 'Kofi',
      role: 'Porter',
      contracted_hours_per_week: 40,
      ...change,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)).toEqual(named);
  });

  it('answers GraphQL clients a user already a member and a bad field as userErrors, the member null', async () => {
    const w = await ward({});
    const nurse = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, w.orgId, nurse.user.id, 'ORG:NURSE');
    const add = `mutation($input: CreateWorkforceMemberInput!) {
      createWorkforceMember(input: $input) { workforceMember { role } userErrors { field message code } }
    }`;
    const input = { userId: nurse.user.id, role: 'Nurse', contractedHoursPerWeek: 30 };
    const first = await w.manager.api.graphql(add, { input });
    expect(first.body.data.createWorkforceMember).toEqual({ workforceMember: { role: 'Nurse' }, userErrors: [] });
    const twice = await w.manager.api.graphql(add, { input });
    expect(twice.body.errors).toBeUndefined();
    expect(twice.body.data.createWorkforceMember).toEqual({
      workforceMember: null,
      userErrors: [{ field: null, message: 'This user is already a workforce member of the organization', code: 'DUPLICATE' }],
    });
    const hours = await w.manager.api.graphql(add, { input: { name: 'Kofi', role: 'Porter', contractedHoursPerWeek: 100 } });
    expect(hours.body.data.createWorkforceMember).toEqual({
      workforceMember: null,
      userErrors: [{ field: ['input', 'contractedHoursPerWeek'], message: expect.any(String), code: 'INVALID' }],
    });
  });

  it('works out crossing midnight and night shifts, stores a default minimum as a requirement, and refuses bad ones', async () => {
    const w = await ward({});
    const night = await w.manager.api.post('/api/workforce/shift-types', {
      name: 'Night',
      start_time: '21:00',
      end_time: '07:00',
      required_skills: ['icu'],
      min_staff: 2,
      skill_requirements: [{ skill: 'icu', min_staff: 1 }],
    });
    expect(night.status).toBe(201);
    expect(night.body.data).toMatchObject({ crosses_midnight: true, duration_minutes: 600, is_night: true, required_skills: ['icu'] });
    const day = await w.manager.api.post('/api/workforce/shift-types', {
      name: 'Day',
      start_time: '07:00',
      end_time: '19:00',
      crosses_midnight: false,
    });
    expect(day.body.data).toMatchObject({ crosses_midnight: false, duration_minutes: 720, is_night: false });
    const requirements = await w.manager.api.get('/api/workforce/coverage-requirements');
    expect(requirements.body.data).toEqual([
      expect.objectContaining({
        shift_type_id: night.body.data.id,
        day_of_week: null,
        roster_id: null,
        min_staff: 2,
        skill_requirements: [{ skill: 'icu', min_staff: 1 }],
      }),
    ]);
    expect((await w.manager.api.post('/api/workforce/shift-types', { name: 'NIGHT', start_time: '20:00', end_time: '08:00' })).status).toBe(
      409,
    );
    const post = (body: Record<string, unknown>) =>
      w.manager.api.post('/api/workforce/shift-types', { name: 'Late', start_time: '12:00', end_time: '20:00', ...body });
    expect(fields(await post({ start_time: '25:00' }))).toEqual(['start_time']);
    expect(fields(await post({ end_time: '7pm' }))).toEqual(['end_time']);
    expect(fields(await post({ crosses_midnight: true }))).toEqual(['crosses_midnight']);
    expect(fields(await post({ min_staff: -1 }))).toEqual(['min_staff']);
    expect(fields(await post({ min_staff: 1, skill_requirements: [{ skill: 'icu', min_staff: 2 }] }))).toEqual([
      'skill_requirements[0].min_staff',
    ]);
    expect(fields(await post({ skill_requirements: [{ skill: 'icu', min_staff: 1 }] }))).toEqual(['min_staff']);
    const types = await w.manager.api.get('/api/workforce/shift-types');
    expect(types.body.data.map((t: { name: string }) => t.name)).toEqual(['Day', 'Night']);
    expect((await w.manager.api.get(`/api/workforce/shift-types/${day.body.data.id}`)).body.data.name).toBe('Day');
  });

  it('answers GraphQL clients a name taken, times that disagree and a requirement already set as userErrors', async () => {
    const w = await ward({});
    const create = `mutation($input: CreateShiftTypeInput!) {
      createShiftType(input: $input) { shiftType { id name crossesMidnight } userErrors { field message code } }
    }`;
    const input = { name: 'Early', startTime: '06:00', endTime: '14:00' };
    const first = await w.manager.api.graphql(create, { input });
    expect(first.body.data.createShiftType).toEqual({
      shiftType: { id: expect.any(String), name: 'Early', crossesMidnight: false },
      userErrors: [],
    });
    const taken = await w.manager.api.graphql(create, { input });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.createShiftType).toEqual({
      shiftType: null,
      userErrors: [{ field: null, message: 'A shift type named Early already exists', code: 'DUPLICATE' }],
    });
    const disagree = await w.manager.api.graphql(create, { input: { ...input, name: 'Later', crossesMidnight: true } });
    expect(disagree.body.data.createShiftType).toEqual({
      shiftType: null,
      userErrors: [{ field: ['input', 'crossesMidnight'], message: expect.stringMatching(/^must be false/), code: 'INVALID' }],
    });
    const requirement = `mutation($input: CreateCoverageRequirementInput!) {
      createCoverageRequirement(input: $input) { coverageRequirement { minStaff } userErrors { field message code } }
    }`;
    const shiftTypeId = first.body.data.createShiftType.shiftType.id;
    const set = await w.manager.api.graphql(requirement, { input: { shiftTypeId, minStaff: 2 } });
    expect(set.body.data.createCoverageRequirement).toEqual({ coverageRequirement: { minStaff: 2 }, userErrors: [] });
    const again = await w.manager.api.graphql(requirement, { input: { shiftTypeId, minStaff: 3 } });
    expect(again.body.data.createCoverageRequirement).toEqual({
      coverageRequirement: null,
      userErrors: [{ field: null, message: expect.stringMatching(/already exists/), code: 'DUPLICATE' }],
    });
    // A shift type that is not the organization's is no user error: NOT_FOUND, top-level.
    const unknown = await w.manager.api.graphql(requirement, {
      input: { shiftTypeId: '00000000-0000-4000-8000-000000000000', minStaff: 1 },
    });
    expect(unknown.body.data).toBeNull();
    expect(unknown.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('takes coverage requirements per day of the week, once per shift type and day', async () => {
    const w = await ward({ types: [DAY_SHIFT] });
    const day = w.shiftTypes.Day;
    const saturday = await w.manager.api.post('/api/workforce/coverage-requirements', {
      shift_type_id: day,
      day_of_week: 'saturday',
      min_staff: 1,
    });
    expect(saturday.status).toBe(201);
    expect(saturday.body.data).toMatchObject({
      shift_type_id: day,
      day_of_week: 'saturday',
      min_staff: 1,
      skill_requirements: [],
      roster_id: null,
    });
    expect(
      (await w.manager.api.post('/api/workforce/coverage-requirements', { shift_type_id: day, day_of_week: 'saturday', min_staff: 3 }))
        .status,
    ).toBe(409);
    expect((await w.manager.api.post('/api/workforce/coverage-requirements', { shift_type_id: day, min_staff: 3 })).status).toBe(201);
    expect((await w.manager.api.post('/api/workforce/coverage-requirements', { shift_type_id: randomUUID(), min_staff: 1 })).status).toBe(
      404,
    );
    expect(
      (await w.manager.api.post('/api/workforce/coverage-requirements', { shift_type_id: day, roster_id: randomUUID(), min_staff: 1 }))
        .status,
    ).toBe(404);
    expect(
      fields(
        await w.manager.api.post('/api/workforce/coverage-requirements', { shift_type_id: day, day_of_week: 'someday', min_staff: 1 }),
      ),
    ).toEqual(['day_of_week']);
    expect(fields(await w.manager.api.post('/api/workforce/coverage-requirements', { shift_type_id: day, min_staff: 500 }))).toEqual([
      'min_staff',
    ]);
    expect(fields(await w.manager.api.post('/api/workforce/coverage-requirements', { min_staff: 1 }))).toEqual(['shift_type_id']);
    const list = await w.manager.api.get(`/api/workforce/coverage-requirements?shift_type_id=${day}`);
    expect(list.body.meta.total).toBe(2);
  });

  it('answers 401 without a token, 403 to members who do not manage rosters, 404 to other organizations', async () => {
    const w = await ward({ nurses: [{}], types: [DAY_SHIFT] });
    const nurse = w.nurses[0];
    const stranger = await ward({});
    expect((await app.api.get('/api/workforce/members')).status).toBe(401);
    expect((await app.api.post('/api/workforce/members', { name: 'X', role: 'Y', contracted_hours_per_week: 10 })).status).toBe(401);
    expect((await app.api.get('/api/workforce/shift-types')).status).toBe(401);
    expect((await app.api.get('/api/workforce/coverage-requirements')).status).toBe(401);
    expect((await nurse.api.post('/api/workforce/members', { name: 'X', role: 'Y', contracted_hours_per_week: 10 })).status).toBe(403);
    expect((await nurse.api.post('/api/workforce/shift-types', { name: 'Late', start_time: '12:00', end_time: '20:00' })).status).toBe(403);
    expect((await nurse.api.post('/api/workforce/coverage-requirements', { shift_type_id: w.shiftTypes.Day, min_staff: 1 })).status).toBe(
      403,
    );
    expect((await nurse.api.get('/api/workforce/shift-types')).status).toBe(200);
    expect((await stranger.manager.api.get(`/api/workforce/members?organization_id=${w.orgId}`)).status).toBe(404);
    expect((await stranger.manager.api.get(`/api/workforce/members/${w.members[0]}`)).status).toBe(404);
    expect((await stranger.manager.api.get(`/api/workforce/shift-types/${w.shiftTypes.Day}`)).status).toBe(404);
    expect(
      (await stranger.manager.api.post('/api/workforce/coverage-requirements', { shift_type_id: w.shiftTypes.Day, min_staff: 1 })).status,
    ).toBe(404);
    expect((await w.manager.api.get('/api/workforce/members/not-a-uuid')).status).toBe(404);
    expect((await w.manager.api.get(`/api/workforce/members/${randomUUID()}`)).status).toBe(404);
    // Someone in two organizations names the one they mean.
    await addMember(app, stranger.orgId, nurse.user.id, 'ORG:NURSE');
    expect(fields(await nurse.api.get('/api/workforce/members'))).toEqual(['organization_id']);
    expect((await nurse.api.get(`/api/workforce/members?organization_id=${w.orgId}`)).status).toBe(200);
  });
});

describe('a generated roster', () => {
  let w: Ward;
  let rosterId: string;
  let roster: Record<string, any>;

  beforeAll(async () => {
    w = await ward({
      nurses: [{ skills: ['icu'] }, { skills: ['icu'] }],
      staff: [
        ...Array.from({ length: 3 }, () => ({ skills: ['icu'], email: `icu.${randomUUID().slice(0, 8)}@example.test` })),
        ...Array.from({ length: 7 }, () => ({ email: `aide.${randomUUID().slice(0, 8)}@example.test` })),
      ],
      types: THREE_SHIFTS,
    });
    const created = await w.manager.api.post('/api/workforce/rosters', {
      name: 'Ward 3, March',
      start_date: MONDAY,
      end_date: '2031-03-16',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'draft', generation_status: 'not_started', member_ids: null, shift_type_ids: null });
    rosterId = created.body.data.id;
    roster = await generated(w, rosterId);
  }, GENERATION_MS + 60_000);

  it('meets every requirement the staff can meet, and every assignment keeps every hard rule', async () => {
    expect(roster).toMatchObject({
      status: 'generated',
      generation_status: 'succeeded',
      generation_progress: 100,
      generation_error: null,
      solver_status: expect.stringMatching(/^(optimal|time_limit)$/),
      requirements_total: 42,
      requirements_met: 42,
      places_total: 98,
      places_filled: 98,
    });
    const shifts = await allAssignments(w.manager.api, rosterId);
    expect(shifts).toHaveLength(98);
    const members = (await w.manager.api.get('/api/workforce/members?limit=100')).body.data as Record<string, any>[];
    const types = new Map<string, any>(
      ((await w.manager.api.get('/api/workforce/shift-types')).body.data as Record<string, any>[]).map((t) => [t.id, t]),
    );
    const weeks = rosterWeeks(MONDAY, '2031-03-16');
    for (const m of members) {
      const rules: RuleMember = {
        id: m.id,
        name: m.name,
        contractedMinutesPerWeek: m.contracted_hours_per_week * 60,
        skills: m.skills,
        nightEligible: m.night_eligible,
        weekendEligible: m.weekend_eligible,
        leave: [],
      };
      const mine: TimedShift[] = shifts
        .filter((s) => s.member_id === m.id)
        .map((s) =>
          timed(
            s.id,
            `${types.get(s.shift_type_id).name} on ${s.date}`,
            s.date,
            minuteOfDay(s.start_time),
            s.duration_minutes,
            types.get(s.shift_type_id).required_skills,
          ),
        );
      expect({ member: m.name, broken: memberViolations(rules, mine, weeks) }).toEqual({ member: m.name, broken: [] });
    }
    // The skill mix: an ICU member on every day and night shift.
    const icu = new Set(members.filter((m) => m.skills.includes('icu')).map((m) => m.id));
    for (const s of shifts.filter((x) => types.get(x.shift_type_id).name !== 'Evening')) {
      const same = shifts.filter((x) => x.date === s.date && x.shift_type_id === s.shift_type_id);
      expect(same.some((x) => icu.has(x.member_id))).toBe(true);
    }
    const gaps = await w.manager.api.get(`/api/workforce/rosters/${rosterId}/coverage-gaps`);
    expect(gaps.status).toBe(200);
    expect(gaps.body).toEqual({ success: true, data: [], meta: { page: 1, limit: 20, total: 0 } });
  });

  it('shares the hours fairly: a Gini coefficient under 0.1 for equal contracts, with each member’s deviation', async () => {
    const gini = await w.manager.api.get(`/api/workforce/fairness/gini?roster_id=${rosterId}`);
    expect(gini.status).toBe(200);
    expect(gini.body.data).toMatchObject({
      organization_id: w.orgId,
      roster_id: rosterId,
      metric: 'hours',
      member_count: 12,
      total: 784,
      mean: 65.3333,
    });
    expect(gini.body.data.gini).toBeLessThan(0.1);
    const nights = await w.manager.api.get(`/api/workforce/fairness/gini?roster_id=${rosterId}&metric=nights`);
    expect(nights.body.data).toMatchObject({ metric: 'nights', total: 28 });
    const report = await w.manager.api.get(`/api/workforce/fairness?roster_id=${rosterId}`);
    expect(report.status).toBe(200);
    expect(report.body.data).toMatchObject({ member_count: 12, mean_hours: 65.33, mean_nights: 2.33, gini_hours: gini.body.data.gini });
    const rows = report.body.data.members as {
      hours: number;
      hours_deviation: number;
      nights: number;
      shifts: number;
      member: { name: string };
    }[];
    expect(rows.reduce((n, r) => n + r.hours, 0)).toBe(784);
    for (const r of rows) {
      expect(r.hours_deviation).toBeCloseTo(r.hours - 784 / 12, 1);
      expect(r.hours).toBe(r.shifts * 8);
    }
    expect(Math.max(...rows.map((r) => r.hours)) - Math.min(...rows.map((r) => r.hours))).toBeLessThanOrEqual(16);
  });

  it('lists its shifts by day, for one member or a period', async () => {
    const mine = await allAssignments(w.manager.api, rosterId, `&member_id=${w.members[0]}`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((s) => s.member_id === w.members[0] && s.status === 'active' && s.source === 'generated')).toBe(true);
    const monday = await allAssignments(w.manager.api, rosterId, `&from=${MONDAY}&to=${MONDAY}`);
    expect(monday).toHaveLength(7);
    expect(monday.map((s) => s.start_time)).toEqual(['07:00', '07:00', '07:00', '15:00', '15:00', '23:00', '23:00']);
    const bad = await w.manager.api.get(`/api/workforce/rosters/${rosterId}/assignments?from=03/03/2031`);
    expect(fields(bad)).toEqual(['from']);
  });

  it('is seen by members only once published; publishing before approval is a 409; publishing mails the members', async () => {
    const nurse = w.nurses[0];
    expect((await nurse.api.get(`/api/workforce/rosters/${rosterId}`)).status).toBe(404);
    expect(ids(await nurse.api.get('/api/workforce/rosters'))).toEqual([]);
    expect((await nurse.api.post(`/api/workforce/rosters/${rosterId}/approve`)).status).toBe(403);
    const early = await w.manager.api.post(`/api/workforce/rosters/${rosterId}/publish`);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe('Cannot publish a roster that is generated');
    const approved = await w.manager.api.post(`/api/workforce/rosters/${rosterId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', approved_by: w.manager.user.id });
    expect((await w.manager.api.post(`/api/workforce/rosters/${rosterId}/approve`)).status).toBe(409);
    expect((await w.manager.api.post(`/api/workforce/rosters/${rosterId}/generate`)).status).toBe(409);
    const published = await w.manager.api.post(`/api/workforce/rosters/${rosterId}/publish`);
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ status: 'published', published_by: w.manager.user.id });
    expect((await w.manager.api.post(`/api/workforce/rosters/${rosterId}/publish`)).status).toBe(409);
    const event = await app.em('org').findOne(OutboxEvent, { topic: 'svc.workforce.roster_published', payload: { roster_id: rosterId } });
    expect(event?.payload).toMatchObject({
      organization_id: w.orgId,
      start_date: MONDAY,
      end_date: '2031-03-16',
      published_by: w.manager.user.id,
    });
    const mail = await lastMail(nurse.user.email, 'roster_published');
    expect(mail.subject).toBe('Roster published: Ward 3, March');
    const theirs = await allAssignments(w.manager.api, rosterId, `&member_id=${w.members[0]}`);
    expect(mail.text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(theirs.length);
    // Staff without an account are mailed at the address given for them.
    const aide = (await w.manager.api.get(`/api/workforce/members/${w.members[9]}`)).body.data;
    expect((await lastMail(aide.email, 'roster_published')).data).toMatchObject({ roster_id: rosterId });
    expect((await nurse.api.get(`/api/workforce/rosters/${rosterId}`)).status).toBe(200);
    expect(ids(await nurse.api.get('/api/workforce/rosters'))).toEqual([rosterId]);
    expect((await allAssignments(nurse.api, rosterId)).length).toBe(98);
  });

  it('removes a member’s shifts during approved leave (the event reaches the signed webhook) and lists them as gaps', async () => {
    const nurse = w.nurses[1];
    const theirs = await allAssignments(w.manager.api, rosterId, `&member_id=${w.members[1]}`);
    const first = theirs[0].date;
    const leave = await nurse.api.post('/api/leave-requests', { type: 'sick', start_date: first, end_date: first, reason: 'Flu' });
    expect(leave.status).toBe(201);
    const approved = await w.manager.api.post(`/api/organizations/${w.orgId}/leave-requests/${leave.body.data.id}/approve`);
    expect(approved.status).toBe(200);
    const removed = await eventually(
      async () => {
        const list = await allAssignments(w.manager.api, rosterId, `&member_id=${w.members[1]}&status=removed`);
        return list.length ? list : null;
      },
      'shifts removed for leave',
      60_000,
    );
    const during = theirs.filter((s) => s.date === first);
    expect(removed.map((s) => s.id).sort()).toEqual(during.map((s) => s.id).sort());
    expect(removed[0]).toMatchObject({ status: 'removed', removed_reason: 'leave', leave_request_id: leave.body.data.id });
    const still = await allAssignments(w.manager.api, rosterId, `&member_id=${w.members[1]}`);
    expect(still.length).toBe(theirs.length - removed.length);
    const gaps = await w.manager.api.get(`/api/workforce/rosters/${rosterId}/coverage-gaps`);
    expect(gaps.body.meta.total).toBeGreaterThanOrEqual(1);
    expect(gaps.body.data[0]).toMatchObject({
      date: first,
      skill: null,
      missing: 1,
      reason: 'leave',
      message: '1 shift removed for approved leave: Test User',
      shift_type: { name: expect.any(String) },
    });
    // The delivery went through the platform's inbox once, keyed by the event's id.
    const deliveries = await app.em('platform').find(WebhookDelivery, { provider: 'workforce_leave' });
    const ours = deliveries.filter((d) => JSON.parse(d.rawBody).payload.leave_request_id === leave.body.data.id);
    expect(ours).toHaveLength(1);
    expect(ours[0].eventType).toBe('svc.workforce.leave_approved');
    expect(
      await app
        .em('org')
        .count(OutboxEvent, { topic: 'svc.workforce.leave_applied_to_rosters', payload: { leave_request_id: leave.body.data.id } }),
    ).toBe(1);
  }, 90_000);

  it('works through GraphQL', async () => {
    const res = await w.manager.api.graphql(
      `query($id: ID!) {
        roster(id: $id) { status organization { id } }
        rosterAssignments(rosterId: $id, limit: 1) { total items { member { name } shiftType { name } roster { id } } }
        coverageGaps(rosterId: $id) { total }
        workforceGini(rosterId: $id, metric: weekends) { metric gini }
      }`,
      { id: rosterId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.roster).toEqual({ status: 'published', organization: { id: w.orgId } });
    expect(res.body.data.rosterAssignments.items[0]).toMatchObject({
      member: { name: expect.any(String) },
      shiftType: { name: 'Day' },
      roster: { id: rosterId },
    });
    expect(res.body.data.workforceGini.metric).toBe('weekends');
    const missing = await w.manager.api.graphql('query($id: ID!) { roster(id: $id) { id } }', { id: randomUUID() });
    expect(missing.body.data.roster).toBeNull();
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('generating', () => {
  it('checks the roster it is asked for: dates, members and shift types of the organization', async () => {
    const w = await ward({ staff: [{}], types: [DAY_SHIFT] });
    const post = (body: Record<string, unknown>) =>
      w.manager.api.post('/api/workforce/rosters', { name: 'R', start_date: MONDAY, end_date: '2031-03-09', ...body });
    expect(fields(await post({ end_date: '2031-03-02' }))).toEqual(['end_date']);
    expect(fields(await post({ end_date: '2031-06-30' }))).toEqual(['end_date']);
    expect(fields(await post({ start_date: '2031-02-30' }))).toEqual(['start_date']);
    expect(fields(await post({ member_ids: [randomUUID()] }))).toEqual(['member_ids[0]']);
    expect(fields(await post({ member_ids: ['nope'] }))).toEqual(['member_ids[0]']);
    expect(fields(await post({ shift_type_ids: [randomUUID()] }))).toEqual(['shift_type_ids[0]']);
    expect(fields(await post({ coverage_requirements: [{ shift_type_id: randomUUID(), min_staff: 1 }] }))).toEqual([
      'coverage_requirements[0].shift_type_id',
    ]);
    expect(fields(await post({ name: '' }))).toEqual(['name']);
    expect((await app.api.post('/api/workforce/rosters', { name: 'R', start_date: MONDAY, end_date: MONDAY })).status).toBe(401);
  });

  it('refuses to generate with nothing to cover (409) or while a generation is under way (409)', async () => {
    const w = await ward({ staff: [{}], types: [DAY_SHIFT] });
    const roster = (await w.manager.api.post('/api/workforce/rosters', { name: 'R', start_date: MONDAY, end_date: MONDAY })).body.data;
    const empty = await w.manager.api.post(`/api/workforce/rosters/${roster.id}/generate`);
    expect(empty.status).toBe(409);
    expect(empty.body.error.message).toMatch(/^No coverage requirement applies/);
    const gaps = await w.manager.api.get(`/api/workforce/rosters/${roster.id}/coverage-gaps`);
    expect(gaps.body.data).toEqual([]);
    await w.manager.api.post('/api/workforce/coverage-requirements', {
      shift_type_id: w.shiftTypes.Day,
      roster_id: roster.id,
      min_staff: 1,
    });
    // Draft: every requirement is a gap until generated.
    const draft = await w.manager.api.get(`/api/workforce/rosters/${roster.id}/coverage-gaps`);
    expect(draft.body.data).toEqual([
      expect.objectContaining({ date: MONDAY, required: 1, assigned: 0, missing: 1, reason: 'not_generated' }),
    ]);
    await app.em('org').nativeUpdate(Roster, { id: roster.id }, { generationStatus: GenerationStatus.running });
    const busy = await w.manager.api.post(`/api/workforce/rosters/${roster.id}/generate`);
    expect(busy.status).toBe(409);
    expect((await w.manager.api.post(`/api/workforce/rosters/${roster.id}/approve`)).status).toBe(409);
    await app.em('org').nativeUpdate(Roster, { id: roster.id }, { generationStatus: GenerationStatus.not_started });
    expect((await w.manager.api.post(`/api/workforce/rosters/${roster.id}/approve`)).body.error.message).toBe(
      'Cannot approve a roster that is draft',
    );
    const stranger = await ward({});
    expect((await stranger.manager.api.post(`/api/workforce/rosters/${roster.id}/generate`)).status).toBe(404);
    expect((await stranger.manager.api.get(`/api/workforce/rosters/${roster.id}/coverage-gaps`)).status).toBe(404);
    expect((await w.manager.api.post('/api/workforce/rosters/not-a-uuid/generate')).status).toBe(404);
  });

  it(
    'lists what it could not cover, with the reason, after covering in full all it could',
    async () => {
      // One ICU nurse, working nights only, on 16 hours a week: two nights can have their ICU place filled, five cannot.
      const w = await ward({
        staff: [{ skills: ['icu'], hours: 16 }, {}, {}, {}],
        types: [
          { name: 'Night', start_time: '23:00', end_time: '07:00', min_staff: 2, skill_requirements: [{ skill: 'icu', min_staff: 1 }] },
        ],
      });
      const roster = (await w.manager.api.post('/api/workforce/rosters', { name: 'Nights', start_date: MONDAY, end_date: '2031-03-09' }))
        .body.data;
      const done = await generated(w, roster.id);
      expect(done).toMatchObject({ requirements_total: 7, requirements_met: 2, places_total: 14, places_filled: 14 });
      const gaps = await w.manager.api.get(`/api/workforce/rosters/${roster.id}/coverage-gaps`);
      expect(gaps.body.meta.total).toBe(5);
      expect(gaps.body.data[0]).toMatchObject({
        skill: 'icu',
        required: 1,
        assigned: 0,
        missing: 1,
        reason: 'staff_at_limits',
        message: '0 of 1 with icu on it: every other member with icu who may work it is busy (1 are at their contracted hours that week)',
      });
      const page2 = await w.manager.api.get(`/api/workforce/rosters/${roster.id}/coverage-gaps?limit=2&page=3`);
      expect(page2.body.data).toHaveLength(1);
      expect(fields(await w.manager.api.get(`/api/workforce/rosters/${roster.id}/coverage-gaps?limit=500`))).toEqual(['limit']);
    },
    GENERATION_MS + 60_000,
  );

  it(
    'gives a roster its own requirements, which win over the organization’s',
    async () => {
      const w = await ward({ staff: [{}, {}, {}], types: [{ ...DAY_SHIFT, min_staff: 1 }] });
      const roster = await w.manager.api.post('/api/workforce/rosters', {
        name: 'Busy week',
        start_date: MONDAY,
        end_date: '2031-03-04',
        coverage_requirements: [{ shift_type_id: w.shiftTypes.Day, day_of_week: 'tuesday', min_staff: 3 }],
      });
      expect(roster.status).toBe(201);
      const own = await w.manager.api.get(`/api/workforce/coverage-requirements?roster_id=${roster.body.data.id}`);
      expect(own.body.data).toEqual([expect.objectContaining({ roster_id: roster.body.data.id, day_of_week: 'tuesday', min_staff: 3 })]);
      await generated(w, roster.body.data.id);
      const shifts = await allAssignments(w.manager.api, roster.body.data.id);
      expect(shifts.filter((s) => s.date === MONDAY)).toHaveLength(1);
      expect(shifts.filter((s) => s.date === '2031-03-04')).toHaveLength(3);
    },
    GENERATION_MS + 60_000,
  );
});

describe('shift swaps', () => {
  // Two nurses on a two-day roster of a day and a night shift: the rest rule forces one to work both days and the other
  // both nights. Colleagues off this roster (with and without an account) take shifts from them.
  let w: Ward;
  let rosterId: string;
  let shifts: Awaited<ReturnType<typeof allAssignments>>;
  let dayNurse: SignedUp;
  let nightNurse: SignedUp;
  let dayMember: string;
  let nightMember: string;
  const [colleagueWithAccount, partTimer, noIcu] = [2, 3, 4];

  beforeAll(async () => {
    w = await ward({
      nurses: [{ skills: ['icu'] }, { skills: ['icu'] }, { skills: ['icu'] }],
      staff: [{ hours: 8 }, {}],
      types: [
        { name: 'Day', start_time: '07:00', end_time: '15:00', min_staff: 1 },
        { name: 'Night', start_time: '23:00', end_time: '07:00', min_staff: 1, skill_requirements: [{ skill: 'icu', min_staff: 1 }] },
      ],
    });
    const roster = await w.manager.api.post('/api/workforce/rosters', {
      name: 'Two days',
      start_date: MONDAY,
      end_date: '2031-03-04',
      member_ids: [w.members[0], w.members[1]],
    });
    rosterId = roster.body.data.id;
    await generated(w, rosterId);
    shifts = await allAssignments(w.manager.api, rosterId);
    dayMember = shifts.find((s) => !s.is_night)!.member_id;
    nightMember = shifts.find((s) => s.is_night)!.member_id;
    expect(dayMember).not.toBe(nightMember);
    dayNurse = w.nurses[w.members.indexOf(dayMember)];
    nightNurse = w.nurses[w.members.indexOf(nightMember)];
  }, GENERATION_MS + 60_000);

  const shiftOf = (member: string, night: boolean, date: string) =>
    shifts.find((s) => s.member_id === member && s.is_night === night && s.date === date)!;

  it('is not open to members before the roster is published (they do not see its shifts yet)', async () => {
    const ask = () =>
      dayNurse.api.post('/api/workforce/swaps', {
        assignment_id: shiftOf(dayMember, false, MONDAY).id,
        target_member_id: w.members[partTimer],
      });
    expect((await ask()).status).toBe(404);
    await w.manager.api.post(`/api/workforce/rosters/${rosterId}/approve`);
    expect((await ask()).status).toBe(404);
    await w.manager.api.post(`/api/workforce/rosters/${rosterId}/publish`);
  });

  it('refuses a swap that would break a hard rule, with a 409 naming the rule', async () => {
    // The night nurse would start a day shift the morning their night ends.
    const rest = await dayNurse.api.post('/api/workforce/swaps', {
      assignment_id: shiftOf(dayMember, false, '2031-03-04').id,
      target_member_id: nightMember,
    });
    expect(rest.status).toBe(409);
    expect(rest.body.error.message).toMatch(
      /^The swap breaks the rest rule: .* would have 0 h of rest between Night on 2031-03-03 and Day on 2031-03-04 \(at least 11 h\)$/,
    );
    // The night needs someone with ICU skills.
    const mix = await nightNurse.api.post('/api/workforce/swaps', {
      assignment_id: shiftOf(nightMember, true, MONDAY).id,
      target_member_id: w.members[noIcu],
    });
    expect(mix.status).toBe(409);
    expect(mix.body.error.message).toBe(
      'The swap breaks the skill_mix rule: Night on 2031-03-03 would have 0 of the 1 staff with icu it needs',
    );
    // Over GraphQL the rule broken and a bad field are user errors, the swap request null.
    const ask = `mutation($input: CreateSwapRequestInput!) {
      createSwapRequest(input: $input) { swapRequest { id } userErrors { field message code } }
    }`;
    const input = { assignmentId: shiftOf(nightMember, true, MONDAY).id, targetMemberId: w.members[noIcu] };
    const graph = await nightNurse.api.graphql(ask, { input });
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.createSwapRequest).toEqual({
      swapRequest: null,
      userErrors: [{ field: null, message: mix.body.error.message, code: 'BUSINESS_RULE' }],
    });
    const bad = await nightNurse.api.graphql(ask, { input: { ...input, reason: 'x'.repeat(1001) } });
    expect(bad.body.data.createSwapRequest).toEqual({
      swapRequest: null,
      userErrors: [{ field: ['input', 'reason'], message: expect.any(String), code: 'INVALID' }],
    });
    const self = await nightNurse.api.graphql(ask, { input: { ...input, targetMemberId: nightMember } });
    expect(self.body.data.createSwapRequest.userErrors).toEqual([
      { field: ['input', 'targetMemberId'], message: 'must be a colleague, not the member working the shift', code: 'INVALID' },
    ]);
  });

  it('is asked by the member and accepted by the colleague; the manager sees the change', async () => {
    const colleague = w.nurses[colleagueWithAccount];
    const given = shiftOf(nightMember, true, '2031-03-04');
    const asked = await nightNurse.api.post('/api/workforce/swaps', {
      assignment_id: given.id,
      target_member_id: w.members[colleagueWithAccount],
      reason: 'Exam',
    });
    expect(asked.status).toBe(201);
    expect(asked.body.data).toMatchObject({
      status: 'pending',
      requester_member_id: nightMember,
      target_member_id: w.members[colleagueWithAccount],
      requested_by: nightNurse.user.id,
      target_assignment_id: null,
    });
    const id = asked.body.data.id;
    expect(
      (await nightNurse.api.post('/api/workforce/swaps', { assignment_id: given.id, target_member_id: w.members[colleagueWithAccount] }))
        .status,
    ).toBe(409);
    const pending = await nightNurse.api.graphql(
      'mutation($input: CreateSwapRequestInput!) { createSwapRequest(input: $input) { swapRequest { id } userErrors { field message code } } }',
      { input: { assignmentId: given.id, targetMemberId: w.members[colleagueWithAccount] } },
    );
    expect(pending.body.data.createSwapRequest).toEqual({
      swapRequest: null,
      userErrors: [{ field: null, message: 'A swap of this shift is already pending', code: 'DUPLICATE' }],
    });
    expect((await dayNurse.api.post(`/api/workforce/swaps/${id}/accept`)).status).toBe(404); // not theirs to see
    expect((await w.manager.api.post(`/api/workforce/swaps/${id}/accept`)).status).toBe(403); // the colleague has an account
    expect((await (await ward({})).manager.api.post(`/api/workforce/swaps/${id}/accept`)).status).toBe(404);
    expect((await app.api.post(`/api/workforce/swaps/${id}/accept`)).status).toBe(401);
    expect(ids(await colleague.api.get('/api/workforce/swaps'))).toEqual([id]);
    const accepted = await colleague.api.post(`/api/workforce/swaps/${id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'accepted', decided_by: colleague.user.id });
    expect((await colleague.api.post(`/api/workforce/swaps/${id}/accept`)).status).toBe(409);
    const now = (await allAssignments(w.manager.api, rosterId)).find((s) => s.id === given.id)!;
    expect(now).toMatchObject({ member_id: w.members[colleagueWithAccount], source: 'swap' });
    const seen = await w.manager.api.get('/api/workforce/swaps?status=accepted');
    expect(ids(seen)).toEqual([id]);
    expect(await app.em('org').count(OutboxEvent, { topic: 'svc.workforce.shift_swapped', payload: { swap_request_id: id } })).toBe(1);
  });

  it('applies a swap only if both still keep every rule when it is accepted (409 naming the rule otherwise)', async () => {
    // A colleague without an account on 8 hours a week can take one shift, not two.
    const first = await dayNurse.api.post('/api/workforce/swaps', {
      assignment_id: shiftOf(dayMember, false, MONDAY).id,
      target_member_id: w.members[partTimer],
    });
    const second = await dayNurse.api.post('/api/workforce/swaps', {
      assignment_id: shiftOf(dayMember, false, '2031-03-04').id,
      target_member_id: w.members[partTimer],
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    // The manager answers for staff without an account; nobody else may.
    expect((await dayNurse.api.post(`/api/workforce/swaps/${first.body.data.id}/accept`)).status).toBe(403);
    expect((await w.manager.api.post(`/api/workforce/swaps/${first.body.data.id}/accept`)).status).toBe(200);
    const late = await w.manager.api.post(`/api/workforce/swaps/${second.body.data.id}/accept`);
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(
      /^The swap breaks the contracted_hours rule: Staff 0 would work 16 h in the week from 2031-03-03, over 8 h contracted$/,
    );
    expect((await w.manager.api.get(`/api/workforce/swaps/${second.body.data.id}`)).body.data.status).toBe('pending');
    const cancelled = await dayNurse.api.post(`/api/workforce/swaps/${second.body.data.id}/cancel`);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect((await dayNurse.api.post(`/api/workforce/swaps/${second.body.data.id}/cancel`)).status).toBe(409);
  });

  it('is declined by the colleague (a manager for staff without an account), and checks what it is given', async () => {
    const given = shiftOf(dayMember, false, '2031-03-04');
    const asked = await dayNurse.api.post('/api/workforce/swaps', { assignment_id: given.id, target_member_id: w.members[noIcu] });
    expect(asked.status).toBe(201);
    expect((await dayNurse.api.post(`/api/workforce/swaps/${asked.body.data.id}/reject`)).status).toBe(403);
    expect((await w.manager.api.post(`/api/workforce/swaps/${asked.body.data.id}/reject`)).body.data.status).toBe('rejected');
    expect(
      (await nightNurse.api.post('/api/workforce/swaps', { assignment_id: given.id, target_member_id: w.members[noIcu] })).status,
    ).toBe(403);
    expect(fields(await dayNurse.api.post('/api/workforce/swaps', { assignment_id: given.id, target_member_id: dayMember }))).toEqual([
      'target_member_id',
    ]);
    expect(
      fields(
        await dayNurse.api.post('/api/workforce/swaps', {
          assignment_id: given.id,
          target_member_id: nightMember,
          target_assignment_id: given.id,
        }),
      ),
    ).toEqual(['target_assignment_id']);
    expect((await dayNurse.api.post('/api/workforce/swaps', { assignment_id: randomUUID(), target_member_id: nightMember })).status).toBe(
      404,
    );
    expect((await dayNurse.api.post('/api/workforce/swaps', { assignment_id: given.id, target_member_id: randomUUID() })).status).toBe(404);
    expect(fields(await dayNurse.api.post('/api/workforce/swaps', { assignment_id: given.id }))).toEqual(['target_member_id']);
    expect((await dayNurse.api.get(`/api/workforce/swaps/${randomUUID()}`)).status).toBe(404);
  });
});

describe('the leave webhook', () => {
  const path = '/api/workforce/webhooks/leave-approved';
  const envelope = (payload: Record<string, unknown>) =>
    JSON.stringify({
      id: randomUUID(),
      topic: 'svc.workforce.leave_approved',
      timestamp: new Date().toISOString(),
      source_service: 'org',
      payload,
    });

  it('refuses unsigned and badly signed deliveries (401) and takes a signed one once', async () => {
    const body = envelope({
      leave_request_id: randomUUID(),
      organization_id: randomUUID(),
      member_id: randomUUID(),
      start_date: MONDAY,
      end_date: MONDAY,
      type: 'annual',
    });
    expect((await deliver(app.api, path, body, {})).status).toBe(401);
    expect(
      (await deliver(app.api, path, body, { [INTERNAL_SIGNATURE_HEADER]: `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }))
        .status,
    ).toBe(401);
    const signed = await signInternalWebhook(body);
    expect((await deliver(app.api, path, body + ' ', { [INTERNAL_SIGNATURE_HEADER]: signed })).status).toBe(401);
    const stale = await deliver(app.api, path, body, { [INTERNAL_SIGNATURE_HEADER]: signed.replace(/^t=\d+/, 't=1000') });
    expect(stale.status).toBe(401);
    const first = await deliver(app.api, path, body, { [INTERNAL_SIGNATURE_HEADER]: signed });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ received: true, duplicate: false });
    const again = await deliver(app.api, path, body, { [INTERNAL_SIGNATURE_HEADER]: signed });
    expect(again.body.data).toMatchObject({ received: true, duplicate: true });
    expect((await deliver(app.api, path, body, { [INTERNAL_SIGNATURE_HEADER]: signed }, false)).status).toBe(403);
  });
});

describe('fairness', () => {
  it('is for roster managers, checks its arguments, and counts members without shifts', async () => {
    const w = await ward({ nurses: [{}], staff: [{}] });
    const report = await w.manager.api.get('/api/workforce/fairness');
    expect(report.status).toBe(200);
    expect(report.body.data).toMatchObject({ member_count: 2, mean_hours: 0, gini_hours: 0, roster_id: null });
    expect(report.body.data.members).toHaveLength(2);
    expect((await w.nurses[0].api.get('/api/workforce/fairness')).status).toBe(403);
    expect((await w.nurses[0].api.get('/api/workforce/fairness/gini')).status).toBe(403);
    expect((await app.api.get('/api/workforce/fairness/gini')).status).toBe(401);
    expect((await (await ward({})).manager.api.get(`/api/workforce/fairness?organization_id=${w.orgId}`)).status).toBe(404);
    expect(fields(await w.manager.api.get('/api/workforce/fairness/gini?metric=salary'))).toEqual(['metric']);
    expect(fields(await w.manager.api.get('/api/workforce/fairness?from=2031-03-10&to=2031-03-01'))).toEqual(['to']);
    expect((await w.manager.api.get(`/api/workforce/fairness?roster_id=${randomUUID()}`)).status).toBe(404);
    const gini = await w.manager.api.get('/api/workforce/fairness/gini?metric=contract_share');
    expect(gini.body.data).toMatchObject({ metric: 'contract_share', gini: 0, member_count: 2, total: 0 });
  });
});
