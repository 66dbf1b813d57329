import { randomUUID } from 'node:crypto';
import { OutboxEvent } from '../shared/outbox';
import { CmeCredit } from '../subgraphs/org/training/training.entity';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { addMember, createOrganization } from './support/org';

let app: TestApp;
let manager: SignedUp;
let nurse: SignedUp;
let colleague: SignedUp;
let stranger: SignedUp;
let orgId: string;

beforeAll(async () => {
  app = await startApp();
  manager = await signUp(app.api, { registration_role: 'DOCTOR' });
  orgId = (await createOrganization(manager.api)).id; // its creator is ORG:ADMIN
  nurse = await signUp(app.api, { registration_role: 'NURSE' });
  await addMember(app, orgId, nurse.user.id, 'ORG:NURSE');
  colleague = await signUp(app.api, { registration_role: 'NURSE' });
  await addMember(app, orgId, colleague.user.id, 'ORG:NURSE');
  stranger = await signUp(app.api, { registration_role: 'DOCTOR' });
  await createOrganization(stranger.api);
});
afterAll(() => app.close());

const fields = (res: { body: { error: { details?: { field: string }[] } } }) => res.body.error.details?.map((d) => d.field);
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
const thisYear = () => new Date().toISOString().slice(0, 4);

const COURSE = {
  title: 'Neonatal resuscitation',
  provider: 'Kenya Paediatric Association',
  description: 'Helping Babies Breathe, with a skills station',
  modules: [{ title: 'The golden minute', duration_minutes: 60 }, { title: 'Bag and mask ventilation' }],
  cme_credits: 10,
  cme_category: 'category_1',
};

async function course(body: Record<string, unknown> = {}) {
  const res = await manager.api.post('/api/training/courses', { ...COURSE, ...body });
  if (res.status !== 201) throw new Error(`course: ${res.status} ${res.text}`);
  return res.body.data as { id: string };
}

describe('courses', () => {
  it('creates a course with its modules and CME credits, and lists it to every member', async () => {
    const res = await manager.api.post('/api/training/courses', COURSE);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      organization_id: orgId,
      title: 'Neonatal resuscitation',
      provider: 'Kenya Paediatric Association',
      modules: [
        { title: 'The golden minute', duration_minutes: 60 },
        { title: 'Bag and mask ventilation', duration_minutes: null },
      ],
      cme_credits: 10,
      cme_category: 'category_1',
      created_by: manager.user.id,
    });
    const list = await nurse.api.get('/api/training/courses');
    expect(list.status).toBe(200);
    expect(ids(list)).toContain(res.body.data.id);
    expect(list.body.meta).toMatchObject({ page: 1, limit: 20 });
    expect((await nurse.api.get(`/api/training/courses/${res.body.data.id}`)).body.data.title).toBe('Neonatal resuscitation');
    expect(ids(await nurse.api.get('/api/training/courses?category=category_2'))).not.toContain(res.body.data.id);
  });

  it.each([
    [{ cme_credits: 0.3 }, ['cme_credits']],
    [{ cme_credits: -1 }, ['cme_credits']],
    [{ cme_credits: '10' }, ['cme_credits']],
    [{ cme_category: 'category_9' }, ['cme_category']],
    [{ title: ' ' }, ['title']],
    [{ provider: undefined }, ['provider']],
    [{ modules: [{ duration_minutes: 30 }] }, ['modules[0].title']],
    [{ modules: [{ title: 'Intro', duration_minutes: 0 }] }, ['modules.0.duration_minutes']],
  ])('refuses a course with %j (400 naming the field)', async (change, named) => {
    const res = await manager.api.post('/api/training/courses', { ...COURSE, ...change });
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(named);
  });

  it('is written by training managers only, and hidden from other organizations', async () => {
    const { id } = await course();
    expect((await nurse.api.post('/api/training/courses', COURSE)).status).toBe(403);
    expect((await app.api.post('/api/training/courses', COURSE)).status).toBe(401);
    expect((await app.api.get('/api/training/courses')).status).toBe(401);
    expect((await stranger.api.get(`/api/training/courses/${id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/training/courses?organization_id=${orgId}`)).status).toBe(404);
    expect((await nurse.api.get('/api/training/courses/not-a-uuid')).status).toBe(404);
  });
});

describe('enrollments and progress', () => {
  it('enrolls a member once; managers enroll others; the list is one’s own unless one manages training', async () => {
    const { id } = await course({ title: 'Sepsis bundle' });
    const mine = await nurse.api.post(`/api/training/courses/${id}/enroll`);
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject({
      course_id: id,
      user_id: nurse.user.id,
      status: 'enrolled',
      progress: 0,
      enrolled_by: nurse.user.id,
      completed_at: null,
    });
    expect((await nurse.api.post(`/api/training/courses/${id}/enroll`)).status).toBe(409);
    const theirs = await manager.api.post(`/api/training/courses/${id}/enroll`, { user_id: colleague.user.id });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data).toMatchObject({ user_id: colleague.user.id, enrolled_by: manager.user.id });
    expect((await nurse.api.post(`/api/training/courses/${id}/enroll`, { user_id: colleague.user.id })).status).toBe(403);
    expect(fields(await manager.api.post(`/api/training/courses/${id}/enroll`, { user_id: stranger.user.id }))).toEqual(['user_id']);
    expect((await stranger.api.post(`/api/training/courses/${id}/enroll`)).status).toBe(404);
    expect((await nurse.api.post(`/api/training/courses/${randomUUID()}/enroll`)).status).toBe(404);
    expect((await app.api.post(`/api/training/courses/${id}/enroll`)).status).toBe(401);

    const own = await nurse.api.get(`/api/training/enrollments?course_id=${id}`);
    expect(ids(own)).toEqual([mine.body.data.id]);
    expect((await nurse.api.get(`/api/training/enrollments?user_id=${colleague.user.id}`)).status).toBe(403);
    const all = await manager.api.get(`/api/training/enrollments?course_id=${id}`);
    expect(ids(all).sort()).toEqual([mine.body.data.id, theirs.body.data.id].sort());
    expect(ids(await manager.api.get(`/api/training/enrollments?course_id=${id}&user_id=${colleague.user.id}`))).toEqual([
      theirs.body.data.id,
    ]);
    expect((await colleague.api.get(`/api/training/enrollments/${mine.body.data.id}`)).status).toBe(404);
  });

  it('takes progress from 0 to 100; 100 completes the enrollment and awards the credits once', async () => {
    const { id } = await course({ title: 'Malaria case management', cme_credits: 4.5 });
    const enrollment = (await nurse.api.post(`/api/training/courses/${id}/enroll`)).body.data;
    const progress = (value: unknown, who = nurse) =>
      who.api.patch(`/api/training/enrollments/${enrollment.id}/progress`, { progress: value });
    const half = await progress(50);
    expect(half.status).toBe(200);
    expect(half.body.data).toMatchObject({ status: 'in_progress', progress: 50 });
    expect(fields(await progress(150))).toEqual(['progress']);
    expect(fields(await progress(-1))).toEqual(['progress']);
    expect(fields(await progress('90'))).toEqual(['progress']);
    expect(fields(await progress(null))).toEqual(['progress']);
    expect((await progress(70, colleague)).status).toBe(404);
    expect((await progress(70, stranger)).status).toBe(404);
    const done = await nurse.api.post(`/api/training/enrollments/${enrollment.id}/progress`, { progress: 100 });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      status: 'completed',
      progress: 100,
      completed_at: expect.any(String),
      cme_credit_id: expect.any(String),
    });
    const again = await progress(100);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot complete an enrollment that is completed');
    expect((await progress(60)).status).toBe(409);
    expect(await app.em('org').count(CmeCredit, { enrollmentId: enrollment.id })).toBe(1);
    const credits = await nurse.api.get('/api/training/cme-credits');
    expect(credits.body.data).toContainEqual(
      expect.objectContaining({
        id: done.body.data.cme_credit_id,
        credits: 4.5,
        category: 'category_1',
        activity: 'Malaria case management',
        source: 'course_completion',
        enrollment_id: enrollment.id,
        awarded_by: null,
      }),
    );
    expect(
      await app.em('org').count(OutboxEvent, { topic: 'svc.training.enrollment_completed', payload: { enrollment_id: enrollment.id } }),
    ).toBe(1);
  });

  it('awards the credits once when completions arrive together', async () => {
    const { id } = await course({ title: 'Triage', cme_credits: 2 });
    const enrollment = (await colleague.api.post(`/api/training/courses/${id}/enroll`)).body.data;
    const results = await Promise.all(
      [1, 2, 3].map(() => colleague.api.patch(`/api/training/enrollments/${enrollment.id}/progress`, { progress: 100 })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await app.em('org').count(CmeCredit, { enrollmentId: enrollment.id })).toBe(1);
  });

  it('completes a course worth no credits without awarding any', async () => {
    const { id } = await course({ title: 'Fire safety', cme_credits: 0 });
    const enrollment = (await nurse.api.post(`/api/training/courses/${id}/enroll`)).body.data;
    const done = await nurse.api.patch(`/api/training/enrollments/${enrollment.id}/progress`, { progress: 100 });
    expect(done.body.data).toMatchObject({ status: 'completed', cme_credit_id: null });
  });
});

describe('CME credits', () => {
  it('are awarded by training managers, once per reference', async () => {
    const award = (body: Record<string, unknown> = {}, who = manager) =>
      who.api.post('/api/training/cme-credits', {
        user_id: nurse.user.id,
        credits: 5.5,
        category: 'category_2',
        activity: 'East African Nursing Conference',
        provider: 'NNAK',
        activity_date: `${thisYear()}-01-02`,
        reference: 'EANC-2031-0042',
        ...body,
      });
    const res = await award();
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      user_id: nurse.user.id,
      organization_id: orgId,
      credits: 5.5,
      category: 'category_2',
      source: 'award',
      reference: 'EANC-2031-0042',
      awarded_by: manager.user.id,
      enrollment_id: null,
    });
    const twice = await award({ reference: 'eanc-2031-0042', credits: 1 });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('Credits with reference eanc-2031-0042 were already awarded to this member');
    expect((await award({}, nurse)).status).toBe(403);
    expect((await award({ organization_id: orgId }, stranger)).status).toBe(404);
    // In their own organization, the nurse is nobody they can award.
    expect(fields(await award({}, stranger))).toEqual(['user_id']);
    expect(fields(await award({ credits: 0.3, reference: 'x1' }))).toEqual(['credits']);
    expect(fields(await award({ credits: 0, reference: 'x2' }))).toEqual(['credits']);
    expect(fields(await award({ category: 'other', reference: 'x3' }))).toEqual(['category']);
    expect(fields(await award({ activity_date: '2999-01-01', reference: 'x4' }))).toEqual(['activity_date']);
    expect(fields(await award({ activity_date: '2031-13-01', reference: 'x5' }))).toEqual(['activity_date']);
    expect(fields(await award({ user_id: stranger.user.id, reference: 'x6' }))).toEqual(['user_id']);
    expect(fields(await award({ user_id: 'nobody', reference: 'x7' }))).toEqual(['user_id']);
    expect(
      (await app.api.post('/api/training/cme-credits', { user_id: nurse.user.id, credits: 1, category: 'category_1', activity: 'X' }))
        .status,
    ).toBe(401);
    expect(
      await app.em('org').count(OutboxEvent, { topic: 'svc.training.cme_credit_awarded', payload: { cme_credit_id: res.body.data.id } }),
    ).toBe(1);
  });

  it('are listed to their member, and to training managers of the organization', async () => {
    const own = await nurse.api.get('/api/training/cme-credits?category=category_2');
    expect(own.status).toBe(200);
    expect(
      own.body.data.every((c: { user_id: string; category: string }) => c.user_id === nurse.user.id && c.category === 'category_2'),
    ).toBe(true);
    expect(own.body.meta.total).toBeGreaterThanOrEqual(1);
    const seen = await manager.api.get(`/api/training/cme-credits?user_id=${nurse.user.id}`);
    expect(seen.body.meta.total).toBe((await nurse.api.get('/api/training/cme-credits')).body.meta.total);
    expect((await colleague.api.get(`/api/training/cme-credits?user_id=${nurse.user.id}`)).status).toBe(403);
    // Another organization's manager sees what their organization awarded the nurse: nothing.
    expect((await stranger.api.get(`/api/training/cme-credits?user_id=${nurse.user.id}`)).body.data).toEqual([]);
    expect((await stranger.api.get(`/api/training/cme-credits?user_id=${nurse.user.id}&organization_id=${orgId}`)).status).toBe(404);
    expect(
      (await nurse.api.get(`/api/training/cme-credits?from=${thisYear()}-01-03`)).body.data.every(
        (c: { activity_date: string }) => c.activity_date >= `${thisYear()}-01-03`,
      ),
    ).toBe(true);
    expect(fields(await nurse.api.get('/api/training/cme-credits?from=yesterday'))).toEqual(['from']);
  });

  it('sums up a period per category against the credits required', async () => {
    const member = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, orgId, member.user.id, 'ORG:NURSE');
    const { id } = await course({ title: 'Obstetric emergencies', cme_credits: 10 });
    const enrollment = (await member.api.post(`/api/training/courses/${id}/enroll`)).body.data;
    await member.api.patch(`/api/training/enrollments/${enrollment.id}/progress`, { progress: 100 });
    await manager.api.post('/api/training/cme-credits', {
      user_id: member.user.id,
      credits: 5.5,
      category: 'category_2',
      activity: 'Journal club',
      activity_date: `${thisYear()}-01-01`,
    });
    const summary = await member.api.get('/api/training/cme-credits/summary?required_total=20');
    expect(summary.status).toBe(200);
    expect(summary.body.data).toEqual({
      user_id: member.user.id,
      organization_id: null,
      from: `${thisYear()}-01-01`,
      to: `${thisYear()}-12-31`,
      required_total: 20,
      total: 15.5,
      remaining: 4.5,
      met: false,
      by_category: [
        { category: 'category_1', credits: 10, activities: 1 },
        { category: 'category_2', credits: 5.5, activities: 1 },
      ],
    });
    const defaults = await member.api.get('/api/training/cme-credits/summary');
    expect(defaults.body.data).toMatchObject({ required_total: 50, remaining: 34.5, met: false });
    expect((await member.api.get('/api/training/cme-credits/summary?required_total=15')).body.data).toMatchObject({
      met: true,
      remaining: 0,
    });
    const earlier = await member.api.get(
      `/api/training/cme-credits/summary?from=${Number(thisYear()) - 1}-01-01&to=${Number(thisYear()) - 1}-12-31`,
    );
    expect(earlier.body.data).toMatchObject({ total: 0, met: false });
    const byManager = await manager.api.get(`/api/training/cme-credits/summary?user_id=${member.user.id}&required_total=20`);
    expect(byManager.body.data).toMatchObject({ organization_id: orgId, total: 15.5 });
    expect(fields(await member.api.get(`/api/training/cme-credits/summary?from=${thisYear()}-06-01&to=${thisYear()}-01-01`))).toEqual([
      'to',
    ]);
    expect(fields(await member.api.get('/api/training/cme-credits/summary?required_total=-5'))).toEqual(['required_total']);
    expect((await nurse.api.get(`/api/training/cme-credits/summary?user_id=${member.user.id}`)).status).toBe(403);
    expect((await app.api.get('/api/training/cme-credits/summary')).status).toBe(401);
  });
});

describe('assessments', () => {
  const QUESTIONS = [
    {
      prompt: 'First step for a baby not breathing at birth?',
      options: ['Dry and stimulate', 'Give adrenaline', 'Wait'],
      correct_option: 0,
    },
    { prompt: 'Ventilation rate per minute?', options: ['10', '40', '100'], correct_option: 1 },
    { prompt: 'Check the heart rate after how many seconds?', options: ['30', '60'], correct_option: 1 },
    { prompt: 'Is the golden minute one minute?', options: ['Yes', 'No'], correct_option: 0 },
  ];

  it('are written by training managers, with answers hidden from learners, and scored on submission', async () => {
    const { id: courseId } = await course();
    const created = await manager.api.post('/api/training/assessments', {
      course_id: courseId,
      title: 'HBB check',
      passing_score: 75,
      questions: QUESTIONS,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ course_id: courseId, title: 'HBB check', passing_score: 75, question_count: 4 });
    expect(created.body.data.questions[1]).toEqual({
      prompt: 'Ventilation rate per minute?',
      options: ['10', '40', '100'],
      correct_option: 1,
    });
    const id = created.body.data.id;
    const seen = await nurse.api.get(`/api/training/assessments/${id}`);
    expect(seen.body.data.questions.map((q: { correct_option: number | null }) => q.correct_option)).toEqual([null, null, null, null]);
    expect(ids(await nurse.api.get(`/api/training/assessments?course_id=${courseId}`))).toEqual([id]);

    const pass = await nurse.api.post(`/api/training/assessments/${id}/submit`, { answers: [0, 1, 1, 1] });
    expect(pass.status).toBe(201);
    expect(pass.body.data).toMatchObject({
      assessment_id: id,
      user_id: nurse.user.id,
      answers: [0, 1, 1, 1],
      correct_count: 3,
      question_count: 4,
      score: 75,
      passed: true,
    });
    const fail = await nurse.api.post(`/api/training/assessments/${id}/submit`, { answers: [2, 1, 0, 1] });
    expect(fail.body.data).toMatchObject({ correct_count: 1, score: 25, passed: false });
    expect(fields(await nurse.api.post(`/api/training/assessments/${id}/submit`, { answers: [0, 1] }))).toEqual(['answers']);
    expect(fields(await nurse.api.post(`/api/training/assessments/${id}/submit`, { answers: [0, 3, 1, 1] }))).toEqual(['answers[1]']);
    expect(fields(await nurse.api.post(`/api/training/assessments/${id}/submit`, { answers: ['a', 1, 1, 1] }))).toEqual(['answers[0]']);
    expect(fields(await nurse.api.post(`/api/training/assessments/${id}/submit`, {}))).toEqual(['answers']);
    expect((await stranger.api.post(`/api/training/assessments/${id}/submit`, { answers: [0, 1, 1, 1] })).status).toBe(404);
    expect((await app.api.post(`/api/training/assessments/${id}/submit`, { answers: [0, 1, 1, 1] })).status).toBe(401);
  });

  it.each([
    [{ questions: [] }, ['questions']],
    [{ questions: [{ prompt: 'Q', options: ['Only one'], correct_option: 0 }] }, ['questions.0.options']],
    [{ questions: [{ prompt: 'Q', options: ['A', 'B'], correct_option: 2 }] }, ['questions[0].correct_option']],
    [{ questions: [{ prompt: '', options: ['A', 'B'], correct_option: 0 }] }, ['questions.0.prompt']],
    [{ passing_score: 101 }, ['passing_score']],
    [{ title: undefined }, ['title']],
  ])('refuses an assessment with %j (400 naming the field)', async (change, named) => {
    const res = await manager.api.post('/api/training/assessments', { title: 'Check', questions: QUESTIONS, ...change });
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(named);
  });

  it('are created by training managers only, for courses of their organization', async () => {
    expect((await nurse.api.post('/api/training/assessments', { title: 'Check', questions: QUESTIONS })).status).toBe(403);
    expect(
      (await manager.api.post('/api/training/assessments', { title: 'Check', course_id: randomUUID(), questions: QUESTIONS })).status,
    ).toBe(404);
    expect((await app.api.get('/api/training/assessments')).status).toBe(401);
    expect((await stranger.api.get(`/api/training/assessments?organization_id=${orgId}`)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('reaches courses, enrollments with their course, CME summaries and assessments', async () => {
    const { id } = await course({ title: 'Hand hygiene', cme_credits: 1 });
    const enrolled = await colleague.api.graphql(
      'mutation($id: ID!) { enrollInCourse(courseId: $id) { id status course { title cmeCredits } } }',
      { id },
    );
    expect(enrolled.body.data.enrollInCourse).toMatchObject({ status: 'enrolled', course: { title: 'Hand hygiene', cmeCredits: 1 } });
    const done = await colleague.api.graphql(
      'mutation($id: ID!) { updateEnrollmentProgress(id: $id, progress: 100) { status cmeCreditId } }',
      {
        id: enrolled.body.data.enrollInCourse.id,
      },
    );
    expect(done.body.data.updateEnrollmentProgress.status).toBe('completed');
    const summary = await colleague.api.graphql('{ cmeCreditSummary(requiredTotal: 1) { met byCategory { category credits } } }');
    expect(summary.body.data.cmeCreditSummary.met).toBe(true);
    const missing = await colleague.api.graphql('query($id: ID!) { course(id: $id) { id } }', { id: randomUUID() });
    expect(missing.body.data.course).toBeNull();
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
