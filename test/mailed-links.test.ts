import { createServer } from 'node:net';
import { sandboxMailbox, type SentMail } from '../shared/adapters/mailer';
import { config, resetConfig } from '../shared/config';
import { User } from '../subgraphs/org/users/user.entity';
import { PASSWORD, signUp, startApp, uniqueEmail, type TestApp } from './support/app';
import { browserIt, withPage } from './support/browser';
import { createOrganization } from './support/org';
import { lastMail } from './support/mail';
import { at, dayAhead, EVERY_DAY, schedulingClinic } from './support/scheduling';
import { eventually } from './support/wait';

/**
 * Every link the platform mails opens something that works on the platform itself: the test reads the sandbox
 * mailbox, follows each link, and completes in headless Chromium the action each page performs. The platform runs
 * on a port of its own with PUBLIC_URL unset, so the links name this platform (http://localhost:<port>).
 */
let app: TestApp;
let port: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: picked } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return picked;
}

const saved = { PORT: process.env.PORT, PUBLIC_URL: process.env.PUBLIC_URL };

beforeAll(async () => {
  port = await freePort();
  process.env.PORT = String(port);
  delete process.env.PUBLIC_URL;
  resetConfig();
  app = await startApp({ port });
});
afterAll(async () => {
  await app.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
});

const origin = () => `http://localhost:${port}`;
const LINK = /https?:\/\/[^\s<>"')]+/g;
const linksOf = (mail: SentMail) => [...new Set([...mail.text.matchAll(LINK)].map((m) => m[0]))];

/** Every link of a mail answers 200 with a page on this platform; answers the links. */
async function followLinks(mail: SentMail): Promise<string[]> {
  const links = linksOf(mail);
  for (const link of links) {
    expect(link.startsWith(`${origin()}/`)).toBe(true);
    const res = await fetch(link, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect([link, res.status]).toEqual([link, 200]);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    // The page's own script and style are served too.
    for (const asset of [...page.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1])) {
      expect([asset, (await fetch(new URL(asset, origin()))).status]).toEqual([asset, 200]);
    }
  }
  return links;
}

const emailVerified = async (id: string) => (await app.em('org').findOneOrFail(User, { id })).emailVerifiedAt ?? null;

describe('links in the mail the platform sends', () => {
  it('point at this platform (PUBLIC_URL defaults to localhost on PORT) and open a page, each one', async () => {
    expect(config().PUBLIC_URL).toBe(origin());
    const user = await signUp(app.api);
    const [verify] = await followLinks(await lastMail(user.user.email, 'verify_email'));
    expect(verify).toMatch(new RegExp(`^${origin()}/verify-email\\?token=`));
    await app.api.post('/api/auth/forgot-password', { email: user.user.email });
    const [reset] = await followLinks(await lastMail(user.user.email, 'reset_password'));
    expect(reset).toMatch(new RegExp(`^${origin()}/reset-password\\?token=`));
    const owner = await signUp(app.api);
    const org = await createOrganization(owner.api);
    const invitee = uniqueEmail('invitee');
    expect((await owner.api.post(`/api/organizations/${org.id}/invitations`, { email: invitee, role: 'ORG:NURSE' })).status).toBe(201);
    const [accept] = await followLinks(await lastMail(invitee, 'organization_invitation'));
    expect(accept).toMatch(new RegExp(`^${origin()}/invitations/accept\\?token=`));
    // A page opened without its token says so instead of failing.
    expect((await fetch(`${origin()}/verify-email`)).status).toBe(200);
  });

  it('booking confirmations and cancellations carry no link, and the platform mails nothing about payments', async () => {
    const c = await schedulingClinic(app);
    const resource = await c.receptionist.api.post('/api/resources', {
      organization_id: c.orgId,
      type: 'doctor',
      name: 'Dr. Links',
      doctor_id: c.doctorProfileId,
    });
    await c.receptionist.api.post('/api/schedules', {
      resource_id: resource.body.data.id,
      days_of_week: EVERY_DAY,
      start_time: '08:00',
      end_time: '17:00',
    });
    const email = uniqueEmail('booking');
    const date = dayAhead(3);
    const booked = await app.api.post('/api/appointments', {
      resource_id: resource.body.data.id,
      patient_name: 'Kwame Asante',
      patient_email: email,
      patient_phone: '+233201234567',
      start_time: at(date, '09:00'),
      end_time: at(date, '09:30'),
    });
    expect(booked.status).toBe(201);
    expect((await c.receptionist.api.post(`/api/appointments/${booked.body.data.id}/cancel`, { reason: 'Clinic closed' })).status).toBe(
      200,
    );
    const mails = await eventually(async () => {
      const all = await sandboxMailbox(email);
      return all.some((m) => m.template === 'appointment_cancelled') && all.some((m) => m.template === 'appointment_booked') ? all : null;
    }, 'booking mails');
    for (const mail of mails) expect(await followLinks(mail)).toEqual([]);
    const templates = new Set((await sandboxMailbox()).map((m) => m.template));
    expect([...templates].filter((t) => /payment|invoice|receipt/.test(t))).toEqual([]);
  });

  browserIt('the verification link confirms the address', async () => {
    const user = await signUp(app.api);
    expect(await emailVerified(user.user.id)).toBeNull();
    const [link] = linksOf(await lastMail(user.user.email, 'verify_email'));
    await withPage(origin(), async ({ page, problems }) => {
      await page.goto(link);
      await page.locator('.message.done').waitFor({ timeout: 15_000 });
      expect(await page.locator('#message').innerText()).toMatch(/Email address verified/);
      expect(problems).toEqual([]);
      // The link works once: opened again, the page says why it cannot.
      await page.goto(link);
      await page.locator('.message.error').waitFor({ timeout: 15_000 });
      expect(await page.locator('#message').innerText()).toMatch(/token is invalid, expired or already used/);
    });
    expect(await emailVerified(user.user.id)).toBeInstanceOf(Date);
  });

  browserIt('the password reset link sets a new password', async () => {
    const user = await signUp(app.api);
    await app.api.post('/api/auth/forgot-password', { email: user.user.email });
    const [link] = linksOf(await lastMail(user.user.email, 'reset_password'));
    const fresh = 'N3w-passw0rd-for-links';
    await withPage(origin(), async ({ page, problems }) => {
      await page.goto(link);
      await page.getByLabel('New password').fill(fresh);
      await page.getByLabel('Repeat it').fill('something else');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      expect(await page.locator('.message.error').innerText()).toMatch(/differ/);
      await page.getByLabel('Repeat it').fill(fresh);
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.locator('.message.done').waitFor({ timeout: 15_000 });
      expect(await page.locator('#message').innerText()).toMatch(/Password changed/);
      expect(problems).toEqual([]);
    });
    expect((await app.api.post('/api/auth/login', { email: user.user.email, password: fresh })).status).toBe(200);
    expect((await app.api.post('/api/auth/login', { email: user.user.email, password: PASSWORD })).status).toBe(401);
  });

  browserIt('the invitation link signs the invitee in and makes them a member', async () => {
    const owner = await signUp(app.api);
    const org = await createOrganization(owner.api);
    const email = uniqueEmail('invitee');
    await owner.api.post(`/api/organizations/${org.id}/invitations`, { email, role: 'ORG:NURSE' });
    const [link] = linksOf(await lastMail(email, 'organization_invitation'));
    const invitee = await signUp(app.api, { email });
    await withPage(origin(), async ({ page, problems }) => {
      await page.goto(link);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('wrong-Passw0rd');
      await page.getByRole('button', { name: 'Sign in and accept' }).click();
      await page.locator('.message.error').waitFor({ timeout: 15_000 });
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in and accept' }).click();
      await page.locator('.message.done').waitFor({ timeout: 15_000 });
      expect(await page.locator('#message').innerText()).toMatch(/member, as ORG:NURSE/);
      // The failed sign-in is a console error of the page (HTTP 401), nothing else is.
      expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    });
    const mine = await invitee.api.get('/api/organizations/me');
    expect(mine.body.data.map((o: { id: string }) => o.id)).toContain(org.id);
  });
});
