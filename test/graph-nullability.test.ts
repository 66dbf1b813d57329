import { randomUUID } from 'node:crypto';
import { startApp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

/** docs/graphql.md "Nullability": a miss costs its own field, never the rest of the screen; REST keeps its 404. */
let app: TestApp;
let c: Clinic;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
});
afterAll(() => app.close());

const notFoundAt = (path: string) => ({ message: expect.stringMatching(/not found/), path: [path], extensions: { code: 'NOT_FOUND' } });

describe('root lookups by id', () => {
  it('answer null with NOT_FOUND for a missing id while the rest of the query answers', async () => {
    const res = await c.doctor.api.graphql('query($id: ID!) { me { id } patient(id: $id) { id } }', { id: randomUUID() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ me: { id: c.doctor.user.id }, patient: null });
    expect(res.body.errors).toEqual([expect.objectContaining(notFoundAt('patient'))]);
  });

  it('do so in every subgraph, each miss at its own path beside a hit', async () => {
    const missing = randomUUID();
    const res = await c.doctor.api.graphql(
      `query($id: ID!, $missing: ID!) {
        patient(id: $id) { id }
        appointment(id: $missing) { id }
        organization(id: $missing) { id }
        vital(id: $missing) { id }
        labOrder(id: $missing) { id }
        schedule(id: $missing) { id }
        myPatientProfile { id }
      }`,
      { id: c.patientId, missing },
    );
    expect(res.body.data).toEqual({
      patient: { id: c.patientId },
      appointment: null,
      organization: null,
      vital: null,
      labOrder: null,
      schedule: null,
      myPatientProfile: null,
    });
    const codes = Object.fromEntries(
      (res.body.errors as { path: string[]; extensions: { code: string } }[]).map((e) => [e.path[0], e.extensions.code]),
    );
    expect(codes).toEqual({
      appointment: 'NOT_FOUND',
      organization: 'NOT_FOUND',
      vital: 'NOT_FOUND',
      labOrder: 'NOT_FOUND',
      schedule: 'NOT_FOUND',
      myPatientProfile: 'NOT_FOUND',
    });
  });

  it("treat another organization's record as missing, not as an error that blanks the answer", async () => {
    const stranger = await outsider(app);
    const res = await stranger.api.graphql('query($id: ID!) { me { id } patient(id: $id) { id } }', { id: c.patientId });
    expect(res.body.data).toEqual({ me: { id: stranger.user.id }, patient: null });
    expect(res.body.errors).toEqual([expect.objectContaining(notFoundAt('patient'))]);
  });

  it('keep same-subgraph links non-null and answered', async () => {
    const res = await c.doctor.api.graphql(
      'query($org: ID!) { organizationMembers(organizationId: $org, page: 1, limit: 5) { items { organization { id } } } }',
      { org: c.orgId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.organizationMembers.items[0].organization).toEqual({ id: c.orgId });
  });
});

describe('REST over nullable roots', () => {
  it.each(['/api/patients/%s', '/api/organizations/%s', '/api/appointments/%s', '/api/vitals/%s'])(
    'still answers 404 with the error envelope for a missing record: GET %s',
    async (path) => {
      const res = await c.doctor.api.get(path.replace('%s', randomUUID()));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.stringMatching(/not found/) } });
    },
  );

  it("answers 404 for another organization's patient and for a caller with no patient profile", async () => {
    const stranger = await outsider(app);
    expect((await stranger.api.get(`/api/patients/${c.patientId}`)).status).toBe(404);
    const mine = await c.doctor.api.get('/api/patients/me');
    expect(mine.status).toBe(404);
    expect(mine.body.success).toBe(false);
    expect(mine.body.error.code).toBe('NOT_FOUND');
  });
});
