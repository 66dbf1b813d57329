import { clock } from '../shared/clock';
import { AuditEvent } from '../shared/audit/audit-event.entity';
import { PASSWORD, SAMPLE_PATIENT, startApp, type Api, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

let app: TestApp;
let c: Clinic;

beforeAll(async () => {
  clock.reset();
  app = await startApp();
  c = await clinic(app);
});
afterEach(() => clock.reset());
afterAll(() => app.close());

const DAY = 24 * 3600 * 1000;
const daysAgo = (n: number) => new Date(clock.nowMs() - n * DAY).toISOString().slice(0, 10);

type Dose = { id: string; vaccine: string; dose_number: number; status: string; due_date: string; latest_date: string | null };
const find = (doses: Dose[], vaccine: string, dose = 1) => doses.find((d) => d.vaccine === vaccine && d.dose_number === dose)!;
const fields = (res: { body: { error: { details: { field: string }[] } } }) => res.body.error.details.map((d) => d.field);

/** A child of the clinic born `ageDays` ago. */
async function child(ageDays: number): Promise<string> {
  const res = await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, {
    ...SAMPLE_PATIENT,
    first_name: 'Baby',
    date_of_birth: daysAgo(ageDays),
  });
  if (res.status !== 201) throw new Error(`patient: ${res.status} ${res.text}`);
  return res.body.data.id;
}

/** A fresh token for `email`, signed at the (moved) platform time. */
async function signIn(email: string): Promise<Api> {
  const res = await app.api.post('/api/auth/login', { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.text}`);
  return app.api.as(res.body.data.token);
}

const opv = { vaccine: 'opv', lot_number: 'BOPV-2291', site: 'oral' };

describe('immunization schedule', () => {
  it('generates the WHO routine schedule from the date of birth, with statuses relative to today', async () => {
    const id = await child(56); // 8 weeks old
    const res = await c.nurse.api.post(`/api/patients/${id}/immunizations/generate`, {});
    expect(res.status).toBe(201);
    const s = res.body.data;
    expect(s).toMatchObject({ patient_id: id, date_of_birth: daysAgo(56), as_of: daysAgo(0), missed_after_days: 28, created: 17 });
    expect(s.source).toMatch(/WHO recommendations for routine immunization/);
    expect(new Set(s.doses.map((d: Dose) => d.vaccine))).toEqual(
      new Set(['bcg', 'hepb_birth', 'opv', 'ipv', 'dtp_hib_hepb', 'pcv', 'rota', 'mcv']),
    );
    expect(find(s.doses, 'bcg')).toMatchObject({ due_date: daysAgo(56), status: 'missed', vaccine_name: 'BCG' });
    expect(find(s.doses, 'hepb_birth')).toMatchObject({ status: 'not_applicable', latest_date: daysAgo(14) });
    expect(find(s.doses, 'opv')).toMatchObject({ due_date: daysAgo(14), earliest_date: daysAgo(14), status: 'overdue' });
    expect(find(s.doses, 'opv', 2)).toMatchObject({ due_date: daysAgo(-14), status: 'due' });
    expect(find(s.doses, 'mcv').status).toBe('due');
    // Ordered by due date.
    const due = s.doses.map((d: Dose) => d.due_date);
    expect(due).toEqual([...due].sort());

    const read = await c.doctor.api.get(`/api/patients/${id}/immunizations`);
    expect(read.status).toBe(200);
    expect(read.body.data.doses).toEqual(s.doses);
    expect(read.body.data.created).toBeNull();
  });

  it('is idempotent: a second generation adds only what is missing and leaves given doses alone', async () => {
    const id = await child(50);
    expect((await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`)).body.data.created).toBe(17);
    const given = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, { ...opv, administered_on: daysAgo(3) });
    expect(given.status).toBe(201);

    const again = await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`, {});
    expect(again.status).toBe(201);
    expect(again.body.data.created).toBe(0);
    expect(again.body.data.doses).toHaveLength(17);
    expect(find(again.body.data.doses, 'opv')).toEqual(given.body.data);

    const more = await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`, { include: ['yellow_fever', 'td'] });
    expect(more.body.data.created).toBe(4);
    expect(find(more.body.data.doses, 'yellow_fever')).toMatchObject({ status: 'due' });
    // Optional vaccines once added stay in the schedule.
    expect((await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`)).body.data.doses).toHaveLength(21);

    const bad = await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`, { include: ['bcg', 'smallpox'] });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['include']);
  });

  it('moves the later doses of a series started late instead of marking them missed', async () => {
    const id = await child(200);
    await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`);
    expect((await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, { ...opv, administered_on: daysAgo(10) })).status).toBe(
      201,
    );
    const opv2 = find((await c.doctor.api.get(`/api/patients/${id}/immunizations`)).body.data.doses, 'opv', 2);
    expect(opv2).toMatchObject({ due_date: daysAgo(10 - 28), earliest_date: daysAgo(10 - 28), status: 'due' });
  });
});

describe('administering a dose', () => {
  it('records lot, site, date and who gave it, the next dose by default', async () => {
    const id = await child(60);
    const res = await c.nurse.api.post(`/api/patients/${id}/immunizations/administer`, {
      ...opv,
      administered_on: daysAgo(1),
      notes: 'No reaction at 15 min',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      patient_id: id,
      organization_id: c.orgId,
      vaccine: 'opv',
      dose_number: 1,
      status: 'administered',
      administered_on: daysAgo(1),
      lot_number: 'BOPV-2291',
      site: 'oral',
      notes: 'No reaction at 15 min',
      administered_by: c.nurse.user.id,
      flagged: false,
      flags: [],
      override_reason: null,
    });
    // Without a date: today. Recorded in the audit trail.
    const today = await c.nurse.api.post(`/api/patients/${id}/immunizations/administer`, {
      vaccine: 'bcg',
      lot_number: 'BCG-7',
      site: 'left_arm',
    });
    expect(today.body.data).toMatchObject({ dose_number: 1, administered_on: daysAgo(0) });
    const audit = await app.em('clinical').find(AuditEvent, { resourceType: 'immunization', resourceId: today.body.data.id });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([['administer', c.nurse.user.id]]);
  });

  it('refuses a dose given out of order, or the same dose twice', async () => {
    const id = await child(120);
    const skip = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, { ...opv, dose_number: 2 });
    expect(skip.status).toBe(409);
    expect(skip.body.error.message).toMatch(/Dose 1 of opv has not been given/);
    expect((await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, { ...opv, administered_on: daysAgo(50) })).status).toBe(
      201,
    );
    const before = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, {
      ...opv,
      dose_number: 2,
      administered_on: daysAgo(60),
    });
    expect(before.status).toBe(409);
    expect(before.body.error.message).toMatch(/doses are given in order/);
    const twice = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, {
      ...opv,
      dose_number: 1,
      override_reason: 'again',
    });
    expect(twice.status).toBe(409);
    expect(
      (
        await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, {
          vaccine: 'bcg',
          lot_number: 'B',
          site: 'left_arm',
          administered_on: daysAgo(100),
        })
      ).status,
    ).toBe(201);
    const all = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, {
      vaccine: 'bcg',
      lot_number: 'B',
      site: 'left_arm',
    });
    expect(all.status).toBe(409);
  });

  it('records one dose when two people record it at the same time', async () => {
    for (const generated of [true, false]) {
      const id = await child(70);
      if (generated) await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`);
      const both = await Promise.all(
        [c.doctor.api, c.nurse.api].map((api) => api.post(`/api/patients/${id}/immunizations/administer`, { ...opv, dose_number: 1 })),
      );
      expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    }
  });

  it('refuses a dose that is too early unless overridden, then keeps it flagged with the reason', async () => {
    const id = await child(56);
    await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`);
    expect((await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, { ...opv, administered_on: daysAgo(14) })).status).toBe(
      201,
    );

    // Dose 2 a week after dose 1, at 7 weeks: before both the 4-week interval and the 10-week minimum age.
    const early = { ...opv, administered_on: daysAgo(7) };
    const refused = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, early);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/before the minimum age of 10 weeks/);
    expect(refused.body.error.message).toMatch(/less than 4 weeks after dose 1/);
    const mcv = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, {
      vaccine: 'mcv',
      lot_number: 'MR-1',
      site: 'right_arm',
    });
    expect(mcv.status).toBe(409);
    expect(mcv.body.error.message).toMatch(/minimum age of 9 months/);

    const kept = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, {
      ...early,
      override_reason: 'Campaign day; family moving away',
    });
    expect(kept.status).toBe(201);
    expect(kept.body.data).toMatchObject({
      dose_number: 2,
      status: 'administered',
      flagged: true,
      flags: ['before_minimum_age', 'before_minimum_interval'],
      override_reason: 'Campaign day; family moving away',
    });

    // Past its latest age (BCG after 12 months) is refused the same way.
    const older = await child(400);
    const late = await c.doctor.api.post(`/api/patients/${older}/immunizations/administer`, {
      vaccine: 'bcg',
      lot_number: 'B',
      site: 'left_arm',
    });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/past the latest age of 12 months/);
  });

  it('validates the dose, the site for the vaccine and the date', async () => {
    const id = await child(90);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...opv, vaccine: 'smallpox' }, 'vaccine'],
      [{ ...opv, site: 'left_arm' }, 'site'],
      [{ vaccine: 'pcv', lot_number: 'P', site: 'oral' }, 'site'],
      [{ ...opv, site: 'elbow' }, 'site'],
      [{ ...opv, dose_number: 4 }, 'dose_number'],
      [{ ...opv, dose_number: 0 }, 'dose_number'],
      [{ ...opv, administered_on: daysAgo(-1) }, 'administered_on'],
      [{ ...opv, administered_on: daysAgo(91) }, 'administered_on'],
      [{ ...opv, administered_on: '2025-02-30' }, 'administered_on'],
      [{ ...opv, lot_number: ' ' }, 'lot_number'],
      [{ vaccine: 'opv', site: 'oral' }, 'lot_number'],
    ];
    for (const [body, field] of cases) {
      const res = await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, body);
      expect([res.status, fields(res)]).toEqual([400, [field]]);
    }
  });
});

describe('missed doses', () => {
  it('lists doses more than 28 days past due, relative to the moving clock', async () => {
    const id = await child(1);
    await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`);
    const missed = async () => {
      const res = await (await signIn(c.nurse.user.email)).get(`/api/patients/${id}/immunizations/missed`);
      expect(res.status).toBe(200);
      return res.body.data.map((d: Dose) => `${d.vaccine}:${d.dose_number}:${d.status}`);
    };
    expect(await missed()).toEqual([]);

    clock.advance(27 * DAY); // 28 days past due: still overdue
    expect(await missed()).toEqual([]);
    clock.advance(3 * DAY); // 31 days old: the birth doses are 31 days past due, within their latest age
    expect(await missed()).toEqual(['bcg:1:missed', 'hepb_birth:1:missed']);

    clock.advance(60 * DAY); // 91 days: the hepatitis B birth dose is no longer given; the 6-week doses are missed
    const list = await missed();
    expect(list).toEqual(['bcg:1:missed', 'dtp_hib_hepb:1:missed', 'opv:1:missed', 'pcv:1:missed', 'rota:1:missed']);
    const schedule = await (await signIn(c.doctor.user.email)).get(`/api/patients/${id}/immunizations`);
    expect(find(schedule.body.data.doses, 'hepb_birth').status).toBe('not_applicable');
    expect(find(schedule.body.data.doses, 'opv', 2).status).toBe('overdue');

    // Given today: no longer missed.
    const doctor = await signIn(c.doctor.user.email);
    expect(
      (await doctor.post(`/api/patients/${id}/immunizations/administer`, { vaccine: 'bcg', lot_number: 'B', site: 'left_arm' })).status,
    ).toBe(201);
    const page = await doctor.get(`/api/patients/${id}/immunizations/missed?limit=2`);
    expect(page.body.meta).toEqual({ page: 1, limit: 2, total: 4 });
  });
});

describe('adverse events following immunization', () => {
  it('reports one against a dose or a vaccine, shown with the schedule', async () => {
    const id = await child(70);
    const dose = (
      await c.nurse.api.post(`/api/patients/${id}/immunizations/administer`, {
        vaccine: 'pcv',
        lot_number: 'PCV-3',
        site: 'left_thigh',
        administered_on: daysAgo(3),
      })
    ).body.data;
    const res = await c.nurse.api.post(`/api/patients/${id}/immunizations/aefi`, {
      immunization_id: dose.id,
      onset_date: daysAgo(2),
      description: 'Fever 39.2 C and swelling at the injection site',
      severity: 'moderate',
      serious: false,
      outcome: 'recovering',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      patient_id: id,
      organization_id: c.orgId,
      immunization_id: dose.id,
      vaccine: 'pcv',
      severity: 'moderate',
      serious: false,
      outcome: 'recovering',
      reported_by: c.nurse.user.id,
    });
    const byVaccine = await c.doctor.api.post(`/api/patients/${id}/immunizations/aefi`, {
      vaccine: 'bcg',
      onset_date: daysAgo(1),
      description: 'Abscess at the BCG site',
      severity: 'severe',
      serious: true,
    });
    expect(byVaccine.status).toBe(201);
    expect(byVaccine.body.data).toMatchObject({ immunization_id: null, vaccine: 'bcg', outcome: null });
    const schedule = await c.doctor.api.get(`/api/patients/${id}/immunizations`);
    expect(schedule.body.data.adverse_events.map((e: { id: string }) => e.id)).toEqual([byVaccine.body.data.id, res.body.data.id]);
  });

  it('takes a report without `serious`: false, unless the outcome makes it serious under the WHO definition', async () => {
    const id = await child(70);
    const report = (fields: Record<string, unknown>) =>
      c.nurse.api.post(`/api/patients/${id}/immunizations/aefi`, {
        vaccine: 'opv',
        onset_date: daysAgo(1),
        description: 'Rash',
        severity: 'severe',
        ...fields,
      });
    const plain = await report({});
    expect(plain.status).toBe(201);
    expect(plain.body.data.serious).toBe(false);
    expect((await report({ outcome: 'recovered_with_sequelae' })).body.data.serious).toBe(true);
    expect((await report({ outcome: 'died' })).body.data.serious).toBe(true);
    expect((await report({ outcome: 'died', serious: false })).status).toBe(400);
  });

  it('validates the report', async () => {
    const id = await child(70);
    const dose = (await c.nurse.api.post(`/api/patients/${id}/immunizations/administer`, { ...opv, administered_on: daysAgo(3) })).body
      .data;
    const other = await child(70);
    const strange = (await c.nurse.api.post(`/api/patients/${other}/immunizations/administer`, { ...opv })).body.data;
    const base = { immunization_id: dose.id, onset_date: daysAgo(1), description: 'Vomiting', severity: 'mild', serious: false };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, immunization_id: undefined }, 'immunization_id'],
      [{ ...base, immunization_id: strange.id }, 'immunization_id'],
      [{ ...base, immunization_id: 'not-an-id' }, 'immunization_id'],
      [{ ...base, vaccine: 'bcg' }, 'vaccine'],
      [{ ...base, severity: 'catastrophic' }, 'severity'],
      [{ ...base, serious: 'no' }, 'serious'],
      [{ ...base, outcome: 'died' }, 'serious'],
      [{ ...base, outcome: 'fine' }, 'outcome'],
      [{ ...base, onset_date: daysAgo(4) }, 'onset_date'],
      [{ ...base, onset_date: daysAgo(-1) }, 'onset_date'],
      [{ ...base, description: '' }, 'description'],
    ];
    for (const [body, field] of cases) {
      const res = await c.nurse.api.post(`/api/patients/${id}/immunizations/aefi`, body);
      expect([res.status, fields(res)]).toEqual([400, [field]]);
    }
    expect((await c.doctor.api.get(`/api/patients/${id}/immunizations`)).body.data.adverse_events).toEqual([]);
  });
});

describe('access', () => {
  it("hides another organization's patient and refuses members without clinical roles", async () => {
    const id = await child(70);
    await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`);
    const stranger = await outsider(app);
    const calls = (api: Api) => [
      api.get(`/api/patients/${id}/immunizations`),
      api.get(`/api/patients/${id}/immunizations/missed`),
      api.post(`/api/patients/${id}/immunizations/generate`),
      api.post(`/api/patients/${id}/immunizations/administer`, opv),
      api.post(`/api/patients/${id}/immunizations/aefi`, {
        vaccine: 'opv',
        onset_date: daysAgo(0),
        description: 'x',
        severity: 'mild',
        serious: false,
      }),
    ];
    expect((await Promise.all(calls(stranger.api))).map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect((await Promise.all(calls(c.billing.api))).map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect((await Promise.all(calls(app.api))).map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect((await c.doctor.api.get('/api/patients/00000000-0000-4000-8000-000000000000/immunizations')).status).toBe(404);
  });

  it('shows the doses given on the patient graph', async () => {
    const id = await child(70);
    await c.doctor.api.post(`/api/patients/${id}/immunizations/generate`);
    await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, {
      vaccine: 'bcg',
      lot_number: 'B',
      site: 'left_arm',
      administered_on: daysAgo(69),
    });
    await c.doctor.api.post(`/api/patients/${id}/immunizations/administer`, { ...opv, administered_on: daysAgo(28) });
    const res = await c.doctor.api.graphql(
      'query($id: ID!) { patient(id: $id) { immunizations(first: 5) { nodes { vaccine doseNumber status administeredOn dueDate } } } }',
      { id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.patient.immunizations.nodes).toEqual([
      { vaccine: 'opv', doseNumber: 1, status: 'administered', administeredOn: daysAgo(28), dueDate: daysAgo(28) },
      { vaccine: 'bcg', doseNumber: 1, status: 'administered', administeredOn: daysAgo(69), dueDate: daysAgo(70) },
    ]);
  });
});
