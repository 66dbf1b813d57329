import { randomUUID } from 'node:crypto';
import { OutboxEvent } from '../shared/outbox';
import { DoctorOrganization } from '../subgraphs/org/doctors/doctor.entity';
import { Organization, OrganizationMember, OrganizationStatus } from '../subgraphs/org/organizations/organization.entity';
import { signInAdmin, signUp, startApp, type Api, type SignedUp, type TestApp } from './support/app';
import { clinic, type Clinic } from './support/clinic';
import { lastMail } from './support/mail';
import { addMember, createOrganization } from './support/org';
import { eventually } from './support/wait';

/** A doctor becomes a member of an organization (as by an invitation they accepted), then `by` links them. */
async function memberJoins(by: Api, orgId: string, d: { id: string; user: SignedUp }, role = 'ORG:DOCTOR') {
  await addMember(app, orgId, d.user.user.id, role);
  return by.post(`/api/doctors/${d.id}/organizations`, { organization_id: orgId });
}

let app: TestApp;
let admin: Api;
let c: Clinic;
let stranger: SignedUp;

beforeAll(async () => {
  app = await startApp();
  admin = await signInAdmin(app.api);
  c = await clinic(app);
  stranger = await signUp(app.api);
});
afterAll(() => app.close());

const tag = () => randomUUID().slice(0, 8);
const license = () => `MD-${randomUUID().slice(0, 12)}`;
const NOBODY = '00000000-0000-4000-8000-000000000000';

const profile = (fields: Record<string, unknown> = {}) => ({
  title: 'Dr',
  specialty: 'Cardiology',
  sub_specialties: ['Interventional cardiology'],
  license_number: license(),
  license_country: 'KE',
  bio: 'Consultant cardiologist.',
  languages: ['English', 'Swahili'],
  years_of_experience: 12,
  consultation_fee: '2500.00',
  currency: 'KES',
  city: 'Nairobi',
  country: 'KE',
  phone: '+254711000111',
  ...fields,
});

interface Doc {
  user: SignedUp;
  id: string;
  body: Record<string, any>;
}

/** A signed-in person (not registered as DOCTOR, so no profile appears by itself) with a doctor profile. */
async function doctor(fields: Record<string, unknown> = {}, signUpFields: Record<string, unknown> = {}): Promise<Doc> {
  const user = await signUp(app.api, signUpFields);
  const res = await user.api.post('/api/doctors', profile(fields));
  if (res.status !== 201) throw new Error(`create doctor: ${res.status} ${res.text}`);
  return { user, id: res.body.data.id, body: res.body.data };
}

async function verify(id: string, decision: 'approve' | 'reject', reason?: string) {
  const res = await admin.post(`/api/doctors/${id}/verify`, { decision, ...(reason ? { reason } : {}) });
  if (res.status !== 200) throw new Error(`verify: ${res.status} ${res.text}`);
  return res.body.data;
}

async function approvedDoctor(fields: Record<string, unknown> = {}, signUpFields: Record<string, unknown> = {}): Promise<Doc> {
  const d = await doctor(fields, signUpFields);
  d.body = await verify(d.id, 'approve');
  return d;
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((d) => d.id);
const fields = (res: { body: { error: { details: { field: string }[] } } }) => res.body.error.details.map((d) => d.field).sort();

async function apiKey(scopes: string[]): Promise<{ headers: Record<string, string> }> {
  const org = await createOrganization(c.doctor.api);
  const res = await c.doctor.api.post('/api/developer/keys', { name: 'Directory sync', scopes, organization_id: org.id });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${res.text}`);
  return { headers: { 'x-api-key': res.body.data.key } };
}

describe('creating a profile', () => {
  it("creates the caller's profile, pending verification, and answers it at /me", async () => {
    const user = await signUp(app.api, { first_name: 'Wanjiru', last_name: 'Kamau' });
    const body = profile({ consultation_fee: 1500.5 });
    const res = await user.api.post('/api/doctors', body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      user_id: user.user.id,
      first_name: 'Wanjiru',
      last_name: 'Kamau',
      title: 'Dr',
      email: user.user.email,
      phone: '+254711000111',
      specialty: 'Cardiology',
      sub_specialties: ['Interventional cardiology'],
      license_number: body.license_number,
      license_country: 'KE',
      languages: ['English', 'Swahili'],
      years_of_experience: 12,
      consultation_fee: '1500.50',
      currency: 'KES',
      city: 'Nairobi',
      country: 'KE',
      verification_status: 'pending',
      verification_reason: null,
      verified_at: null,
      verified_by: null,
      organizations: [],
    });
    const me = await user.api.get('/api/doctors/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: res.body.data.id, license_number: body.license_number });
  });

  it('takes its own names when given and refuses a second profile with 409', async () => {
    const d = await doctor({ first_name: 'Kofi', last_name: 'Boateng' });
    expect(d.body).toMatchObject({ first_name: 'Kofi', last_name: 'Boateng' });
    const again = await d.user.api.post('/api/doctors', profile());
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('answers 404 at /me for someone without a profile', async () => {
    const res = await stranger.api.get('/api/doctors/me');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('requires specialty and license number and names every bad field', async () => {
    const user = await signUp(app.api);
    const missing = await user.api.post('/api/doctors', { title: 'Dr' });
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['license_number', 'specialty']);
    const bad = await user.api.post(
      '/api/doctors',
      profile({
        specialty: ' ',
        license_country: 'Kenya',
        country: 'kenya',
        years_of_experience: 71,
        consultation_fee: '-5',
        currency: 'shillings',
        phone: '0700',
        languages: [' '],
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(bad)).toEqual([
      'consultation_fee',
      'country',
      'currency',
      'languages',
      'license_country',
      'phone',
      'specialty',
      'years_of_experience',
    ]);
    const negative = await user.api.post('/api/doctors', profile({ years_of_experience: -1 }));
    expect(fields(negative)).toEqual(['years_of_experience']);
    const feeWithoutCurrency = await user.api.post('/api/doctors', profile({ currency: undefined }));
    expect(feeWithoutCurrency.status).toBe(400);
    expect(fields(feeWithoutCurrency)).toEqual(['currency']);
    // Nothing was stored by the refused attempts.
    expect((await user.api.get('/api/doctors/me')).status).toBe(404);
  });

  it('accepts the bounds of years of experience', async () => {
    expect((await doctor({ years_of_experience: 0 })).body.years_of_experience).toBe(0);
    expect((await doctor({ years_of_experience: 70 })).body.years_of_experience).toBe(70);
  });

  it("keeps the consultation fee in its currency's decimals", async () => {
    const kwd = await doctor({ consultation_fee: '1.25', currency: 'KWD' });
    expect(kwd.body).toMatchObject({ consultation_fee: '1.250', currency: 'KWD' });
    const ugx = await doctor({ consultation_fee: 50000, currency: 'UGX' });
    expect(ugx.body).toMatchObject({ consultation_fee: '50000', currency: 'UGX' });
    // Read back from the database as written.
    expect((await kwd.user.api.get('/api/doctors/me')).body.data.consultation_fee).toBe('1.250');
    expect((await ugx.user.api.get('/api/doctors/me')).body.data.consultation_fee).toBe('50000');
    const user = await signUp(app.api);
    const bad = await user.api.post('/api/doctors', profile({ consultation_fee: '2500.5', currency: 'RWF' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'consultation_fee', message: 'RWF amounts have no decimals' }]);

    // A fee changed alone is held to the stored currency; a new currency rewrites the fee or, if it does not fit, is refused.
    const fee = await ugx.user.api.patch(`/api/doctors/${ugx.id}`, { consultation_fee: '50000.5' });
    expect(fee.status).toBe(400);
    expect(fee.body.error.details).toEqual([{ field: 'consultation_fee', message: 'UGX amounts have no decimals' }]);
    const kes = await ugx.user.api.patch(`/api/doctors/${ugx.id}`, { currency: 'KES' });
    expect(kes.body.data).toMatchObject({ consultation_fee: '50000.00', currency: 'KES' });
    const cents = await ugx.user.api.patch(`/api/doctors/${ugx.id}`, { consultation_fee: '50000.5' });
    expect(cents.body.data.consultation_fee).toBe('50000.50');
    const back = await ugx.user.api.patch(`/api/doctors/${ugx.id}`, { currency: 'UGX' });
    expect(back.status).toBe(400);
    expect(back.body.error.details).toEqual([{ field: 'currency', message: 'UGX amounts have no decimals' }]);
    expect((await ugx.user.api.get('/api/doctors/me')).body.data).toMatchObject({ consultation_fee: '50000.50', currency: 'KES' });
  });

  it('refuses country codes ISO 3166 does not assign and phone numbers no network does', async () => {
    const user = await signUp(app.api);
    const bad = await user.api.post('/api/doctors', profile({ country: 'ZZ', license_country: 'XK', phone: '+254131234567' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { field: 'license_country', message: 'must be an ISO 3166-1 alpha-2 country code such as KE' },
      { field: 'country', message: 'must be an ISO 3166-1 alpha-2 country code such as KE' },
      { field: 'phone', message: 'must be in international format, for example +254712345678' },
    ]);
    const ok = await user.api.post('/api/doctors', profile({ country: 'GH', license_country: 'GH', phone: '+233241234567' }));
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ country: 'GH', license_country: 'GH', phone: '+233241234567' });
  });

  it('keeps a license number unique within its country, whatever its spacing and letter case', async () => {
    const number = `ke-${tag()}`;
    await doctor({ license_number: number, license_country: 'KE' });
    const user = await signUp(app.api);
    const dup = await user.api.post('/api/doctors', profile({ license_number: ` ${number.toUpperCase()} `, license_country: 'KE' }));
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toMatch(/license number/);
    const elsewhere = await user.api.post('/api/doctors', profile({ license_number: number, license_country: 'UG' }));
    expect(elsewhere.status).toBe(201);
  });

  it('needs a token (401) and a person: API keys get 403', async () => {
    expect((await app.api.post('/api/doctors', profile())).status).toBe(401);
    expect((await app.api.get('/api/doctors/me')).status).toBe(401);
    const key = await apiKey(['organizations:read']);
    const res = await app.api.post('/api/doctors', profile(), key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await app.api.get('/api/doctors/me', key)).status).toBe(403);
  });

  it('lets an administrator create a profile for another user; others may not, unknown users are 404', async () => {
    const user = await signUp(app.api, { first_name: 'Halima', last_name: 'Yusuf' });
    const res = await admin.post('/api/doctors', profile({ user_id: user.user.id }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ user_id: user.user.id, first_name: 'Halima', email: user.user.email });
    expect((await user.api.get('/api/doctors/me')).body.data.id).toBe(res.body.data.id);
    expect((await admin.post('/api/doctors', profile({ user_id: user.user.id }))).status).toBe(409);
    const unknown = await admin.post('/api/doctors', profile({ user_id: NOBODY }));
    expect(unknown.status).toBe(404);
    const other = await signUp(app.api);
    const forbidden = await stranger.api.post('/api/doctors', profile({ user_id: other.user.id }));
    expect(forbidden.status).toBe(403);
    expect((await other.api.get('/api/doctors/me')).status).toBe(404);
  });

  it('still gives a user who registers as DOCTOR a pending profile (svc.auth.user_created), eventually', async () => {
    const user = await signUp(app.api, { registration_role: 'DOCTOR', first_name: 'Adwoa', last_name: 'Mensah' });
    const me = await eventually(async () => {
      const res = await user.api.get('/api/doctors/me');
      return res.status === 200 ? res : null;
    }, 'doctor profile from registration');
    expect(me.body.data).toMatchObject({
      user_id: user.user.id,
      first_name: 'Adwoa',
      last_name: 'Mensah',
      email: user.user.email,
      specialty: null,
      license_number: null,
      verification_status: 'pending',
    });
    // Creating the profile completes the registration stub (same id); once filled in, a second create is a 409.
    const created = await user.api.post('/api/doctors', profile());
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: me.body.data.id, specialty: expect.any(String), verification_status: 'pending' });
    expect((await user.api.post('/api/doctors', profile())).status).toBe(409);
    // PATCH changes it from then on.
    const completed = await user.api.patch(`/api/doctors/${me.body.data.id}`, { specialty: 'Family Medicine', license_number: license() });
    expect(completed.status).toBe(200);
    expect(completed.body.data).toMatchObject({ specialty: 'Family Medicine', verification_status: 'pending' });
  });
});

describe('reading a profile', () => {
  it('shows pending profiles by id (not in search) and hides rejected ones from everyone but their owner and administrators', async () => {
    const pending = await doctor();
    for (const api of [app.api, stranger.api, c.doctor.api]) {
      const res = await api.get(`/api/doctors/${pending.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.verification_status).toBe('pending');
    }
    expect((await pending.user.api.get(`/api/doctors/${pending.id}`)).status).toBe(200);
    expect((await admin.get(`/api/doctors/${pending.id}`)).status).toBe(200);
    await verify(pending.id, 'reject', 'License could not be confirmed');
    expect((await stranger.api.get(`/api/doctors/${pending.id}`)).status).toBe(404);
    expect((await pending.user.api.get(`/api/doctors/${pending.id}`)).body.data).toMatchObject({
      verification_status: 'rejected',
      verification_reason: 'License could not be confirmed',
    });
  });

  it('shows approved profiles to anyone, without contact and license details to strangers', async () => {
    const d = await approvedDoctor();
    const publicView = await app.api.get(`/api/doctors/${d.id}`);
    expect(publicView.status).toBe(200);
    expect(publicView.body.data).toMatchObject({
      id: d.id,
      specialty: 'Cardiology',
      verification_status: 'approved',
      email: null,
      phone: null,
      license_number: null,
      verified_by: null,
      license_country: 'KE',
      consultation_fee: '2500.00',
    });
    expect((await stranger.api.get(`/api/doctors/${d.id}`)).body.data).toMatchObject({ email: null, phone: null, license_number: null });
    for (const api of [d.user.api, admin]) {
      expect((await api.get(`/api/doctors/${d.id}`)).body.data).toMatchObject({
        email: d.user.user.email,
        phone: '+254711000111',
        license_number: d.body.license_number,
      });
    }
  });

  it('shows contact and license details to members of an organization the doctor is linked to', async () => {
    const d = await approvedDoctor();
    expect((await c.nurse.api.get(`/api/doctors/${d.id}`)).body.data.email).toBeNull();
    const joined = await memberJoins(admin, c.orgId, d);
    expect(joined.status).toBe(201);
    const seen = await c.nurse.api.get(`/api/doctors/${d.id}`);
    expect(seen.body.data).toMatchObject({ email: d.user.user.email, phone: '+254711000111', license_number: d.body.license_number });
    expect((await stranger.api.get(`/api/doctors/${d.id}`)).body.data.email).toBeNull();
  });

  it('answers 404 for unknown and malformed ids', async () => {
    expect((await app.api.get(`/api/doctors/${NOBODY}`)).status).toBe(404);
    const malformed = await app.api.get('/api/doctors/not-a-uuid');
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe('NOT_FOUND');
  });
});

describe('GET /api/doctors/search', () => {
  it('lists only approved doctors, by name, with filters', async () => {
    const t = tag();
    const specialty = `Neurology ${t}`;
    const city = `Kisumu ${t}`;
    const a = await approvedDoctor({ first_name: 'Amani', last_name: `Otieno${t}`, specialty, city, country: 'KE' });
    const b = await approvedDoctor({ first_name: 'Baraka', last_name: `Achieng${t}`, specialty: 'Dermatology', city, country: 'TZ' });
    const pending = await doctor({ first_name: 'Chausiku', last_name: `Otieno${t}`, specialty, city });
    const rejected = await doctor({ first_name: 'Dalia', last_name: `Otieno${t}`, specialty, city });
    await verify(rejected.id, 'reject', 'Incomplete');

    const byName = await app.api.get(`/api/doctors/search?name=otieno${t.toUpperCase()}`);
    expect(byName.status).toBe(200);
    expect(ids(byName)).toEqual([a.id]);
    expect(byName.body.meta).toEqual({ page: 1, limit: 20, total: 1 });
    // Every word of q matches a first or last name; order is by last name, then first name.
    expect(ids(await app.api.get(`/api/doctors/search?q=${t}`))).toEqual([b.id, a.id]);
    expect(ids(await app.api.get(`/api/doctors/search?q=amani%20otieno${t}`))).toEqual([a.id]);
    expect(ids(await app.api.get(`/api/doctors/search?q=baraka%20otieno${t}`))).toEqual([]);
    expect(ids(await stranger.api.get(`/api/doctors/search?specialty=${encodeURIComponent(`  NEUROLOGY   ${t.toUpperCase()}`)}`))).toEqual([
      a.id,
    ]);
    expect(ids(await app.api.get(`/api/doctors/search?city=${encodeURIComponent(city.toLowerCase())}`))).toEqual([b.id, a.id]);
    expect(ids(await app.api.get(`/api/doctors/search?city=${encodeURIComponent(city)}&country=TZ`))).toEqual([b.id]);
    const page2 = await app.api.get(`/api/doctors/search?q=${t}&limit=1&page=2`);
    expect(ids(page2)).toEqual([a.id]);
    expect(page2.body.meta).toEqual({ page: 2, limit: 1, total: 2 });
    const everything = await admin.get(`/api/doctors/search?q=${t}&limit=100`);
    expect(ids(everything)).not.toContain(pending.id);
    expect(ids(everything)).not.toContain(rejected.id);
  });

  it('filters by organization', async () => {
    const t = tag();
    const member = await approvedDoctor({ last_name: `Mwangi${t}` });
    await approvedDoctor({ last_name: `Mwangi${t}` });
    const org = await createOrganization(c.doctor.api);
    expect((await memberJoins(c.doctor.api, org.id, member)).status).toBe(201);
    expect(ids(await app.api.get(`/api/doctors/search?q=${t}&organization_id=${org.id}`))).toEqual([member.id]);
    expect(ids(await app.api.get(`/api/doctors/search?organization_id=${NOBODY}`))).toEqual([]);
    const bad = await app.api.get('/api/doctors/search?organization_id=nope');
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['organization_id']);
  });

  it('filters by organization (id or part of its name) and by location (city, country, or where they work)', async () => {
    const t = tag();
    const inTown = await approvedDoctor({ last_name: `Wanjiru${t}`, city: `Eldoret ${t}`, country: 'KE' });
    const atClinic = await approvedDoctor({ last_name: `Kamau${t}`, city: null, country: 'UG' });
    const org = await createOrganization(c.doctor.api, {
      name: `Lakeside Clinic ${t}`,
      city: `Mbale ${t}`,
      address: `12 Hospital Road ${t}`,
    });
    expect((await memberJoins(c.doctor.api, org.id, atClinic)).status).toBe(201);
    const found = (query: string) => app.api.get(`/api/doctors/search?q=${t}&${query}`).then(ids);
    expect(await found(`organization=${encodeURIComponent(`lakeside clinic ${t}`.toUpperCase())}`)).toEqual([atClinic.id]);
    expect(await found(`organization=${org.id}`)).toEqual([atClinic.id]);
    // Working in two matching organizations still lists a doctor once.
    const second = await createOrganization(c.doctor.api, { name: `Lakeside Clinic ${t} Annex`, city: `Mbale ${t}` });
    expect((await memberJoins(c.doctor.api, second.id, atClinic)).status).toBe(201);
    const twice = await app.api.get(`/api/doctors/search?q=${t}&organization=lakeside&location=mbale`);
    expect(ids(twice)).toEqual([atClinic.id]);
    expect(twice.body.meta.total).toBe(1);
    expect(await found('organization=Nowhere%20Hospital')).toEqual([]);
    expect(await found(`location=${encodeURIComponent(`eldoret ${t}`)}`)).toEqual([inTown.id]);
    expect(await found(`location=${encodeURIComponent(`MBALE ${t}`)}`)).toEqual([atClinic.id]);
    expect(await found(`location=${encodeURIComponent(`hospital road ${t}`)}`)).toEqual([atClinic.id]);
    expect(await found('location=ke')).toEqual([inTown.id]);
    expect(await found(`location=${encodeURIComponent(`eldoret ${t}`)}&organization=${org.id}`)).toEqual([]);
    const graph = await app.api.graphql('query($q: String, $l: String) { doctors(q: $q, location: $l) { items { id } total } }', {
      q: t,
      l: `Mbale ${t}`,
    });
    expect(graph.body.data.doctors).toEqual({ items: [{ id: atClinic.id }], total: 1 });
  });

  it('ignores blank filters', async () => {
    const all = await app.api.get('/api/doctors/search?limit=1');
    const blank = await app.api.get('/api/doctors/search?limit=1&q=&name=%20&specialty=%20&city=&organization_id=');
    expect(blank.status).toBe(200);
    expect(blank.body.meta.total).toBe(all.body.meta.total);
    expect(all.body.meta.total).toBeGreaterThan(0);
  });

  it('rejects bad pagination and filters with a 400 naming them', async () => {
    expect(fields(await app.api.get('/api/doctors/search?limit=101'))).toEqual(['limit']);
    expect(fields(await app.api.get('/api/doctors/search?country=Kenya'))).toEqual(['country']);
  });
});

describe('PATCH /api/doctors/:id', () => {
  it('lets the owner change their profile (PUT too); null clears optional fields', async () => {
    const d = await approvedDoctor();
    const res = await d.user.api.patch(`/api/doctors/${d.id}`, {
      bio: 'Now at the referral hospital.',
      phone: null,
      languages: ['French'],
      years_of_experience: 13,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      bio: 'Now at the referral hospital.',
      phone: null,
      languages: ['French'],
      years_of_experience: 13,
      verification_status: 'approved',
    });
    const put = await d.user.api.request('PUT', `/api/doctors/${d.id}`, { city: 'Mombasa' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ city: 'Mombasa', bio: 'Now at the referral hospital.' });
    const cleared = await d.user.api.patch(`/api/doctors/${d.id}`, { first_name: null, license_number: null });
    expect(cleared.status).toBe(400);
    expect(fields(cleared)).toEqual(['first_name', 'license_number']);
    const fee = await d.user.api.patch(`/api/doctors/${d.id}`, { currency: null });
    expect(fields(fee)).toEqual(['currency']);
  });

  it('answers 403 to others who can see the profile, 404 to those who cannot, 401 without a token', async () => {
    const approved = await approvedDoctor();
    const forbidden = await stranger.api.patch(`/api/doctors/${approved.id}`, { bio: 'hijacked' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
    const rejected = await doctor();
    await verify(rejected.id, 'reject', 'Unreadable license');
    expect((await stranger.api.patch(`/api/doctors/${rejected.id}`, { bio: 'hijacked' })).status).toBe(404);
    expect((await app.api.patch(`/api/doctors/${approved.id}`, { bio: 'hijacked' })).status).toBe(401);
    expect((await stranger.api.patch(`/api/doctors/${NOBODY}`, { bio: 'x' })).status).toBe(404);
    expect((await approved.user.api.get(`/api/doctors/${approved.id}`)).body.data.bio).toBe('Consultant cardiologist.');
  });

  it("lets an administrator change anyone's profile", async () => {
    const d = await doctor();
    const res = await admin.patch(`/api/doctors/${d.id}`, { specialty: 'Oncology' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ specialty: 'Oncology', verification_status: 'pending' });
  });

  it('resubmits a rejected profile when its owner changes it', async () => {
    const d = await doctor();
    await verify(d.id, 'reject', 'License expired');
    // An administrator's correction does not resubmit it.
    expect((await admin.patch(`/api/doctors/${d.id}`, { title: 'Dr.' })).body.data.verification_status).toBe('rejected');
    const res = await d.user.api.patch(`/api/doctors/${d.id}`, { license_number: license() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      verification_status: 'pending',
      verification_reason: null,
      verified_at: null,
      verified_by: null,
    });
    expect(ids(await admin.get('/api/doctors/pending?limit=100'))).toContain(d.id);
  });

  it('sends an approved profile back to pending when its license changes, not for other changes', async () => {
    const d = await approvedDoctor();
    const same = await d.user.api.patch(`/api/doctors/${d.id}`, {
      license_number: ` ${d.body.license_number.toLowerCase()} `,
      city: 'Eldoret',
    });
    expect(same.body.data).toMatchObject({ verification_status: 'approved', city: 'Eldoret' });
    const taken = (await doctor()).body.license_number;
    const duplicate = await d.user.api.patch(`/api/doctors/${d.id}`, { license_number: taken });
    expect(duplicate.status).toBe(409);
    const changed = await d.user.api.patch(`/api/doctors/${d.id}`, { license_number: license() });
    expect(changed.body.data.verification_status).toBe('pending');
    expect((await app.api.get(`/api/doctors/${d.id}`)).body.data.verification_status).toBe('pending');
    const country = await approvedDoctor();
    expect((await country.user.api.patch(`/api/doctors/${country.id}`, { license_country: 'UG' })).body.data.verification_status).toBe(
      'pending',
    );
  });
});

describe('verification', () => {
  it('takes the decision as status or approved too', async () => {
    const one = await doctor();
    const byStatus = await admin.post(`/api/doctors/${one.id}/verify`, { status: 'approved' });
    expect(byStatus.status).toBe(200);
    expect(byStatus.body.data.verification_status).toBe('approved');
    const two = await doctor();
    expect(fields(await admin.post(`/api/doctors/${two.id}/verify`, { approved: false }))).toEqual(['reason']);
    const rejected = await admin.post(`/api/doctors/${two.id}/verify`, { approved: false, reason: 'License expired' });
    expect(rejected.body.data.verification_status).toBe('rejected');
    expect(fields(await admin.post(`/api/doctors/${(await doctor()).id}/verify`, {}))).toEqual(['decision']);
  });

  it('approves a pending profile, recording who and when, and mails the doctor', async () => {
    const d = await doctor();
    const res = await admin.post(`/api/doctors/${d.id}/verify`, { decision: 'approve' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ verification_status: 'approved', verification_reason: null, verified_by: expect.any(String) });
    expect(Date.parse(res.body.data.verified_at)).not.toBeNaN();
    expect((await lastMail(d.user.user.email, 'doctor_verification')).data).toMatchObject({ decision: 'approve' });
    const twice = await admin.post(`/api/doctors/${d.id}/verify`, { decision: 'approve' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('Cannot approve a doctor profile that is approved');
    expect((await admin.post(`/api/doctors/${d.id}/verify`, { decision: 'reject', reason: 'Changed my mind' })).status).toBe(409);
  });

  it('rejects with a reason, which is required', async () => {
    const d = await doctor();
    const noReason = await admin.post(`/api/doctors/${d.id}/verify`, { decision: 'reject' });
    expect(noReason.status).toBe(400);
    expect(fields(noReason)).toEqual(['reason']);
    expect(fields(await admin.post(`/api/doctors/${d.id}/verify`, { decision: 'reject', reason: '  ' }))).toEqual(['reason']);
    const res = await admin.post(`/api/doctors/${d.id}/verify`, { decision: 'reject', reason: 'Registration number not on the register' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      verification_status: 'rejected',
      verification_reason: 'Registration number not on the register',
    });
    expect((await lastMail(d.user.user.email, 'doctor_verification')).data).toMatchObject({ decision: 'reject' });
    expect((await admin.post(`/api/doctors/${d.id}/verify`, { decision: 'approve' })).status).toBe(409);
  });

  it('is for administrators only: 401 without a token, 403 otherwise; bad decision 400, unknown id 404', async () => {
    const d = await doctor();
    expect((await app.api.post(`/api/doctors/${d.id}/verify`, { decision: 'approve' })).status).toBe(401);
    expect((await d.user.api.post(`/api/doctors/${d.id}/verify`, { decision: 'approve' })).status).toBe(403);
    expect((await c.doctor.api.post(`/api/doctors/${d.id}/verify`, { decision: 'approve' })).status).toBe(403);
    expect(fields(await admin.post(`/api/doctors/${d.id}/verify`, { decision: 'maybe' }))).toEqual(['decision']);
    expect(fields(await admin.post(`/api/doctors/${d.id}/verify`, {}))).toEqual(['decision']);
    expect((await admin.post(`/api/doctors/${NOBODY}/verify`, { decision: 'approve' })).status).toBe(404);
    expect((await d.user.api.get(`/api/doctors/${d.id}`)).body.data.verification_status).toBe('pending');
  });

  it('lists pending profiles newest first for administrators only', async () => {
    const first = await doctor();
    const second = await doctor();
    const approved = await approvedDoctor();
    const res = await admin.get('/api/doctors/pending?limit=100');
    expect(res.status).toBe(200);
    const list = ids(res);
    expect(list.indexOf(second.id)).toBeGreaterThanOrEqual(0);
    expect(list.indexOf(second.id)).toBeLessThan(list.indexOf(first.id));
    expect(list).not.toContain(approved.id);
    expect(res.body.data.every((d: { verification_status: string }) => d.verification_status === 'pending')).toBe(true);
    expect(res.body.meta).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
    expect((await admin.get('/api/doctors/pending?limit=1')).body.data).toHaveLength(1);
    expect((await app.api.get('/api/doctors/pending')).status).toBe(401);
    expect((await first.user.api.get('/api/doctors/pending')).status).toBe(403);
  });
});

describe('joining and leaving organizations', () => {
  it("refuses to attach a doctor who is not a member: joining is the doctor's act or an invitation they accept", async () => {
    const orgAdmin = await signUp(app.api);
    const org = await createOrganization(orgAdmin.api);
    const d = await approvedDoctor();
    const res = await orgAdmin.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/invite them/);
    // Nothing changed, and the administrator learned none of the doctor's private fields.
    expect(await app.em('org').count(OrganizationMember, { organization: org.id, user: d.user.user.id })).toBe(0);
    expect(await app.em('org').count(DoctorOrganization, { organization: org.id })).toBe(0);
    expect(
      await app
        .em('org')
        .count(OutboxEvent, { topic: 'svc.organization.member_added', payload: { organization_id: org.id, user_id: d.user.user.id } }),
    ).toBe(0);
    expect((await orgAdmin.api.get(`/api/doctors/${d.id}`)).body.data).toMatchObject({ email: null, phone: null, license_number: null });
    // A platform administrator cannot either.
    expect((await admin.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id })).status).toBe(403);
  });

  it("lets the organization's ORG:ADMIN link a doctor who is a member, with the membership's role, once", async () => {
    const orgAdmin = await signUp(app.api);
    const org = await createOrganization(orgAdmin.api);
    const d = await approvedDoctor();
    const res = await memberJoins(orgAdmin.api, org.id, d);
    expect(res.status).toBe(201);
    expect(res.body.data.organizations).toEqual([{ id: org.id, name: org.name }]);
    const links = await app.em('org').find(DoctorOrganization, { organization: org.id });
    expect(links.map((l) => [l.doctor.id, l.role])).toEqual([[d.id, 'ORG:DOCTOR']]);
    const again = await orgAdmin.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id });
    expect(again.status).toBe(409);
  });

  it('validates the role a client still sends, and links with the role of the membership', async () => {
    const org = await createOrganization(c.doctor.api);
    const d = await approvedDoctor();
    expect(fields(await c.doctor.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id, role: 'ORG:WIZARD' }))).toEqual([
      'role',
    ]);
    expect(fields(await c.doctor.api.post(`/api/doctors/${d.id}/organizations`, {}))).toEqual(['organization_id']);
    await addMember(app, org.id, d.user.user.id, 'ORG:NURSE');
    const res = await admin.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id, role: 'ORG:ADMIN' });
    expect(res.status).toBe(201);
    expect((await app.em('org').findOneOrFail(OrganizationMember, { organization: org.id, user: d.user.user.id })).role).toBe('ORG:NURSE');
    expect((await app.em('org').findOneOrFail(DoctorOrganization, { organization: org.id, doctor: d.id })).role).toBe('ORG:NURSE');
  });

  it('lets a doctor link themselves only to an organization they are a member of', async () => {
    const d = await approvedDoctor();
    const org = await createOrganization(c.doctor.api);
    const notMember = await d.user.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id });
    expect(notMember.status).toBe(403);
    expect(await app.em('org').count(OrganizationMember, { organization: org.id, user: d.user.user.id })).toBe(0);
    await addMember(app, org.id, d.user.user.id, 'ORG:STAFF');
    const res = await d.user.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id });
    expect(res.status).toBe(201);
    // The existing membership is kept as it is; no new member event.
    expect((await app.em('org').findOneOrFail(DoctorOrganization, { organization: org.id, doctor: d.id })).role).toBe('ORG:STAFF');
    expect(
      await app
        .em('org')
        .count(OutboxEvent, { topic: 'svc.organization.member_added', payload: { organization_id: org.id, user_id: d.user.user.id } }),
    ).toBe(0);
  });

  it('refuses others (403), hidden organizations (404), rejected doctors (409) and API keys', async () => {
    const d = await approvedDoctor();
    const org = await createOrganization(c.doctor.api);
    // A member without members:manage, and a signed-in stranger (the organization is in the public directory).
    expect((await c.nurse.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: c.orgId })).status).toBe(403);
    expect((await stranger.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id })).status).toBe(403);
    expect((await app.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id })).status).toBe(401);
    const key = await apiKey(['organizations:read', 'organizations:write']);
    expect((await app.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id }, key)).status).toBe(403);

    await app.em('org').nativeUpdate(Organization, { id: org.id }, { status: OrganizationStatus.suspended });
    expect((await stranger.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: org.id })).status).toBe(404);
    expect((await stranger.api.post(`/api/doctors/${d.id}/organizations`, { organization_id: NOBODY })).status).toBe(404);
    expect((await c.doctor.api.post(`/api/doctors/${NOBODY}/organizations`, { organization_id: c.orgId })).status).toBe(404);

    // A pending doctor may join (as by invitation); a rejected one may not (below).
    const rejected = await doctor();
    await verify(rejected.id, 'reject', 'No');
    const refused = await memberJoins(admin, c.orgId, rejected);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/rejected/);
    expect(await app.em('org').count(DoctorOrganization, { organization: c.orgId, doctor: rejected.id })).toBe(0);
  });

  it('lets the doctor leave: the link and an ORG:DOCTOR membership end', async () => {
    const d = await approvedDoctor();
    const org = await createOrganization(c.doctor.api);
    await memberJoins(c.doctor.api, org.id, d);
    expect((await d.user.api.get('/api/organizations/me')).body.data).toHaveLength(1);
    const res = await d.user.api.delete(`/api/doctors/${d.id}/organizations/${org.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: d.id, organizations: [] });
    expect(await app.em('org').count(DoctorOrganization, { organization: org.id, doctor: d.id })).toBe(0);
    expect(await app.em('org').count(OrganizationMember, { organization: org.id, user: d.user.user.id })).toBe(0);
    expect((await d.user.api.get('/api/organizations/me')).body.data).toHaveLength(0);
    const again = await d.user.api.delete(`/api/doctors/${d.id}/organizations/${org.id}`);
    expect(again.status).toBe(404);
  });

  it('links a profile holder who creates an organization, and keeps their ORG:ADMIN membership when they leave', async () => {
    const owner = await approvedDoctor({}, { registration_role: 'STAFF' });
    const org = await createOrganization(owner.user.api);
    // Creating it made them a member (svc.organization.member_added), which links a profile holder.
    await eventually(() => app.em('org').findOne(DoctorOrganization, { organization: org.id, doctor: owner.id }), 'creator linked');
    expect((await owner.user.api.post(`/api/doctors/${owner.id}/organizations`, { organization_id: org.id })).status).toBe(409);
    expect((await owner.user.api.delete(`/api/doctors/${owner.id}/organizations/${org.id}`)).status).toBe(200);
    expect(await app.em('org').count(DoctorOrganization, { organization: org.id })).toBe(0);
    expect((await app.em('org').findOneOrFail(OrganizationMember, { organization: org.id, user: owner.user.user.id })).role).toBe(
      'ORG:ADMIN',
    );
  });

  it("lets the organization's ORG:ADMIN or an administrator remove a doctor; members 403, outsiders 404", async () => {
    const orgAdmin = await signUp(app.api);
    const org = await createOrganization(orgAdmin.api);
    const nurse = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, org.id, nurse.user.id, 'ORG:NURSE');
    const d = await approvedDoctor();
    await memberJoins(orgAdmin.api, org.id, d);
    expect((await nurse.api.delete(`/api/doctors/${d.id}/organizations/${org.id}`)).status).toBe(403);
    expect((await stranger.api.delete(`/api/doctors/${d.id}/organizations/${org.id}`)).status).toBe(404);
    expect((await app.api.delete(`/api/doctors/${d.id}/organizations/${org.id}`)).status).toBe(401);
    expect((await orgAdmin.api.delete(`/api/doctors/${d.id}/organizations/${org.id}`)).status).toBe(200);
    expect(await app.em('org').count(DoctorOrganization, { organization: org.id })).toBe(0);

    await memberJoins(orgAdmin.api, org.id, d);
    expect((await admin.delete(`/api/doctors/${d.id}/organizations/${org.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/doctors/${d.id}/organizations/${c.orgId}`)).status).toBe(404);
    expect((await orgAdmin.api.delete(`/api/doctors/${NOBODY}/organizations/${org.id}`)).status).toBe(404);
  });

  it("lets the organization's ORG:ADMIN remove a linked doctor who is not approved, whom outsiders cannot see", async () => {
    const orgAdmin = await signUp(app.api);
    const org = await createOrganization(orgAdmin.api);
    const pending = await doctor();
    // Linked as the member_added consumer links a member with a profile, whatever its verification status.
    await addMember(app, org.id, pending.user.user.id, 'ORG:DOCTOR');
    const em = app.em('org');
    em.create(DoctorOrganization, { doctor: pending.id, organization: org.id, role: 'ORG:DOCTOR' });
    await em.flush();
    expect(ids(await orgAdmin.api.get(`/api/organizations/${org.id}/doctors`))).toEqual([pending.id]);
    const hidden = await stranger.api.delete(`/api/doctors/${pending.id}/organizations/${org.id}`);
    expect(hidden.status).toBe(404);
    const res = await orgAdmin.api.delete(`/api/doctors/${pending.id}/organizations/${org.id}`);
    expect(res.status).toBe(200);
    expect(await app.em('org').count(OrganizationMember, { organization: org.id, user: pending.user.user.id })).toBe(0);
    expect(ids(await orgAdmin.api.get(`/api/organizations/${org.id}/doctors`))).toEqual([]);
  });
});

describe('GET /api/organizations/:org_id/doctors', () => {
  it('shows members every verification status and everyone else the approved doctors of an active organization', async () => {
    const orgAdmin = await signUp(app.api, { registration_role: 'DOCTOR', last_name: 'Zulu' });
    const org = await createOrganization(orgAdmin.api);
    // The creator registered as DOCTOR: svc.organization.member_added links their (pending) profile.
    const own = await eventually(
      () => app.em('org').findOne(DoctorOrganization, { organization: org.id }, { populate: ['doctor'] }),
      'creator linked',
    );
    const approved = await approvedDoctor({ last_name: 'Abara' });
    await memberJoins(orgAdmin.api, org.id, approved);

    const members = await orgAdmin.api.get(`/api/organizations/${org.id}/doctors`);
    expect(members.status).toBe(200);
    expect(ids(members)).toEqual([approved.id, own.doctor.id]);
    expect(members.body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    expect(members.body.data[0]).toMatchObject({ email: approved.user.user.email, license_number: approved.body.license_number });
    expect(ids(await orgAdmin.api.get(`/api/organizations/${org.id}/doctors?verification_status=pending`))).toEqual([own.doctor.id]);

    for (const api of [app.api, stranger.api]) {
      const res = await api.get(`/api/organizations/${org.id}/doctors`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([approved.id]);
      expect(res.body.data[0]).toMatchObject({ email: null, license_number: null });
    }
    expect(ids(await app.api.get(`/api/organizations/${org.id}/doctors?verification_status=pending`))).toEqual([]);

    await app.em('org').nativeUpdate(Organization, { id: org.id }, { status: OrganizationStatus.suspended });
    expect((await app.api.get(`/api/organizations/${org.id}/doctors`)).status).toBe(404);
    expect((await stranger.api.get(`/api/organizations/${org.id}/doctors`)).status).toBe(404);
    expect((await orgAdmin.api.get(`/api/organizations/${org.id}/doctors`)).status).toBe(200);
    expect((await admin.get(`/api/organizations/${org.id}/doctors`)).status).toBe(200);
    // A suspended organization is not listed on the doctor's public profile either.
    expect((await app.api.get(`/api/doctors/${approved.id}`)).body.data.organizations).toEqual([]);
    expect((await app.api.get(`/api/organizations/${NOBODY}/doctors`)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  const DOCTOR = `fragment D on Doctor { id firstName specialty verificationStatus email licenseNumber organizations { id name viewerRole } }`;

  it('creates, reads, searches and verifies through the graph', async () => {
    const user = await signUp(app.api);
    const t = tag();
    const create = `mutation($input: CreateDoctorInput!) {
      createDoctorProfile(input: $input) { doctor { ...D } userErrors { field message code } }
    } ${DOCTOR}`;
    const input = { specialty: 'Radiology', licenseNumber: license(), lastName: `Graph${t}`, consultationFee: 900, currency: 'GHS' };
    const created = await user.api.graphql(create, { input });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createDoctorProfile.userErrors).toEqual([]);
    const id = created.body.data.createDoctorProfile.doctor.id;
    expect(created.body.data.createDoctorProfile.doctor).toMatchObject({
      specialty: 'Radiology',
      verificationStatus: 'pending',
      email: user.user.email,
    });
    // A license number taken and a bad field are the user's to fix: userErrors, the profile null.
    const other = await signUp(app.api);
    const taken = await other.api.graphql(create, { input: { ...input, lastName: `Other${t}` } });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.createDoctorProfile).toEqual({
      doctor: null,
      userErrors: [
        { field: null, message: 'A doctor profile with this license number is already registered for this country', code: 'DUPLICATE' },
      ],
    });
    const noCurrency = await other.api.graphql(create, { input: { ...input, licenseNumber: license(), currency: undefined } });
    expect(noCurrency.body.data.createDoctorProfile).toEqual({
      doctor: null,
      userErrors: [{ field: ['input', 'currency'], message: 'is required with a consultation fee', code: 'INVALID' }],
    });
    const update = `mutation($id: ID!, $input: UpdateDoctorInput!) {
      updateDoctorProfile(id: $id, input: $input) { doctor { specialty } userErrors { field message code } }
    }`;
    const changed = await user.api.graphql(update, { id, input: { specialty: 'Cardiology' } });
    expect(changed.body.data.updateDoctorProfile).toEqual({ doctor: { specialty: 'Cardiology' }, userErrors: [] });

    const mine = await user.api.graphql(`{ myDoctorProfile { id } }`);
    expect(mine.body.data.myDoctorProfile.id).toBe(id);
    const pending = await admin.graphql(`{ pendingDoctors(limit: 100) { items { id } total } }`);
    expect(pending.body.data.pendingDoctors.items.map((d: { id: string }) => d.id)).toContain(id);
    const denied = await user.api.graphql(`{ pendingDoctors { total } }`);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');

    const verified = await admin.graphql(
      `mutation($id: ID!) { verifyDoctor(id: $id, input: { decision: approve }) { verificationStatus } }`,
      { id },
    );
    expect(verified.body.data.verifyDoctor.verificationStatus).toBe('approved');
    const joinedOrg = (await createOrganization(c.doctor.api)).id;
    await addMember(app, joinedOrg, user.user.id, 'ORG:DOCTOR');
    const joined = await c.doctor.api.graphql(
      `mutation($id: ID!, $org: ID!) { addDoctorToOrganization(id: $id, input: { organizationId: $org }) { doctor { ...D } userErrors { field message code } } } ${DOCTOR}`,
      { id, org: joinedOrg },
    );
    expect(joined.body.errors).toBeUndefined();
    expect(joined.body.data.addDoctorToOrganization.userErrors).toEqual([]);
    expect(joined.body.data.addDoctorToOrganization.doctor.organizations).toEqual([expect.objectContaining({ viewerRole: 'ORG:ADMIN' })]);
    // A doctor already linked and a bad field are user errors, the doctor null.
    const join = `mutation($id: ID!, $input: JoinOrganizationInput!) {
      addDoctorToOrganization(id: $id, input: $input) { doctor { id } userErrors { field message code } }
    }`;
    const again = await c.doctor.api.graphql(join, { id, input: { organizationId: joinedOrg } });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.addDoctorToOrganization).toEqual({
      doctor: null,
      userErrors: [{ field: null, message: 'This doctor is already linked to the organization', code: 'DUPLICATE' }],
    });
    const bad = await c.doctor.api.graphql(join, { id, input: { organizationId: joinedOrg, role: 'ORG:NOPE' } });
    expect(bad.body.data.addDoctorToOrganization).toEqual({
      doctor: null,
      userErrors: [{ field: ['input', 'role'], message: expect.any(String), code: 'INVALID' }],
    });

    const search = await app.api.graphql(`query($q: String) { doctors(q: $q) { items { ...D } total } } ${DOCTOR}`, { q: `graph${t}` });
    expect(search.body.data.doctors).toMatchObject({
      total: 1,
      items: [{ id, email: null, licenseNumber: null, organizations: [expect.any(Object)] }],
    });
    const one = await stranger.api.graphql(`query($id: ID!) { doctor(id: $id) { ...D } } ${DOCTOR}`, { id });
    expect(one.body.data.doctor).toMatchObject({ id, email: null });
    const missing = await app.api.graphql(`query($id: ID!) { doctor(id: $id) { id } }`, { id: NOBODY });
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('loads the organizations of a page of doctors in one batch', async () => {
    const t = tag();
    const org = await createOrganization(c.doctor.api);
    for (let i = 0; i < 3; i++) {
      const d = await approvedDoctor({ last_name: `Batch${t}${i}` });
      await memberJoins(c.doctor.api, org.id, d);
    }
    const connection = app.platform.runtimes.get('org')!.orm.em.getConnection();
    const original = connection.execute.bind(connection);
    const linkReads: string[] = [];
    // Only the reads of links by doctor: bus consumers running meanwhile look links up by doctor and organization.
    (connection as unknown as { execute: typeof original }).execute = ((...args: Parameters<typeof original>) => {
      const sql = String(args[0]);
      if (/^\s*select/i.test(sql) && /"doctor_organizations".*"doctor_id" in/s.test(sql)) linkReads.push(sql);
      return original(...args);
    }) as typeof original;
    try {
      const res = await app.api.graphql(`query($q: String) { doctors(q: $q) { items { lastName organizations { id } } } }`, {
        q: `batch${t}`,
      });
      expect(
        res.body.data.doctors.items.map((d: { lastName: string; organizations: { id: string }[] }) => [d.lastName, d.organizations]),
      ).toEqual([0, 1, 2].map((i) => [`Batch${t}${i}`, [{ id: org.id }]]));
      expect(linkReads).toHaveLength(1);
    } finally {
      (connection as unknown as { execute: typeof original }).execute = original;
    }
  });
});
