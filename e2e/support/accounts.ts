import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../../playwright.config';
import { readOutbox, type ParsedMail } from '../../src/server/test/eml';
import { untilAppStarted } from './test';

// Accounts for end-to-end tests: real signups through the API, activated with the link of the
// mail the server wrote to its outbox, and a real login through the /login page.

export type { ParsedMail };

const OUTBOX = path.join(E2E.dataDir, 'outbox');

/**
 * For a step that waits on an argon2id hash (sign-up, login, a password change): deliberately costly,
 * and run at a lower CPU priority, it can take seconds on a CI machine busy with two browsers.
 */
export const AFTER_HASHING = { timeout: 20_000 };

/** A fresh address no other test uses. */
export const uniqueEmail = (label = 'user') =>
  `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.com`;

/** A password the server's rules accept. */
export const strongPassword = () => `Calm-River-${randomBytes(4).toString('hex')}`;

/** Waits for the newest mail to `to` (whose subject contains `subjectIncludes`, when given). */
export async function readLatestMail(to: string, subjectIncludes?: string): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await readOutbox(OUTBOX)).filter(
          (mail) =>
            mail.to.toLowerCase().includes(to.toLowerCase()) &&
            (!subjectIncludes || mail.subject.includes(subjectIncludes)),
        );
        found = mails.at(-1);
        return found !== undefined;
      },
      {
        message: `a mail to ${to}${subjectIncludes ? ` about "${subjectIncludes}"` : ''} in ${OUTBOX}`,
        timeout: 10_000,
      },
    )
    .toBe(true);
  return found!;
}

/** The `{uid, token}` of an activation or password-reset link. */
export function linkParams(link: string): { uid: string; token: string } {
  const [uid, token] = new URL(link).pathname.split('/').filter(Boolean).slice(-2);
  if (!uid || !token) throw new Error(`not an account link: ${link}`);
  return { uid, token };
}

export function linkOf(mail: ParsedMail, route: 'activation' | 'password-reset'): string {
  const link = mail.links.find((candidate) => new URL(candidate).pathname.startsWith(`/${route}/`));
  if (!link) throw new Error(`no /${route}/ link in the mail "${mail.subject}"`);
  return link;
}

/** Signs up through the API and activates through the API with the link of the activation mail. */
export async function createActiveUser(
  request: APIRequestContext,
  options: { email?: string; password?: string } = {},
): Promise<{ email: string; password: string }> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? strongPassword();
  const signup = await request.post('/api/users/', {
    data: { email, password, re_password: password, accept_terms: true },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const mail = await readLatestMail(email, 'Activate');
  const activation = await request.post('/api/users/activation/', { data: linkParams(linkOf(mail, 'activation')) });
  expect(activation.status(), await activation.text()).toBe(204);
  return { email, password };
}

/** A new active account and the headers of its API calls (a login through the API, no page). */
export async function activeUserWithToken(
  request: APIRequestContext,
): Promise<{ account: { email: string; password: string }; headers: { Authorization: string } }> {
  const account = await createActiveUser(request);
  const login = await request.post('/api/jwt/create/', { data: account });
  expect(login.status(), await login.text()).toBe(200);
  return { account, headers: { Authorization: `Bearer ${((await login.json()) as { access: string }).access}` } };
}

/** A new active account, logged in through the real /login page; resolves once signed in. */
export async function signInAsNewUser(
  page: Page,
  options: { email?: string; password?: string } = {},
): Promise<{ email: string; password: string }> {
  const account = await createActiveUser(page.request, options);
  await signIn(page, account);
  return account;
}

/** Calls the API as the person signed in on the page. */
export async function asSignedIn(page: Page, method: 'POST', url: string, data?: object) {
  const access = await page.evaluate(() => localStorage.getItem('user.access'));
  const response = await page.request.fetch(url, { method, data, headers: { authorization: `Bearer ${access}` } });
  expect(response.ok(), `${method} ${url}: ${response.status()}`).toBe(true);
}

/** Day 1 of Seven Nights of Rest finished and recorded in the history: its program offers Reset progress, the practice
 * Delete history. */
export async function finishDayOneAndRecordIt(page: Page) {
  await asSignedIn(page, 'POST', '/api/user/programs/seven-nights-of-rest/days/1/complete/');
  await asSignedIn(page, 'POST', '/api/user/history/', {
    kind: 'program',
    ref: 'program:seven-nights-of-rest/1',
    title: 'Seven Nights of Rest · Day 1',
    seconds: 600,
    finished: true,
    started_at: new Date(Date.now() - 3_600_000).toISOString(),
  });
}

/** Logs in through the real /login page; resolves once signed in. */
export async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  // The login page hands over to the app, which starts as after a document load.
  await untilAppStarted(page);
  expect(await page.evaluate(() => localStorage.getItem('user.access'))).not.toBeNull();
}

/**
 * Moves an account to a plan as an operator does, through the staff API (the staff account is made
 * by scripts/e2e.mjs with the admin CLI).
 */
export async function setPlanAsStaff(
  request: APIRequestContext,
  email: string,
  plan: 'basic' | 'intermediate' | 'pro',
): Promise<void> {
  const login = await request.post('/api/jwt/create/', {
    data: { email: process.env.E2E_STAFF_EMAIL, password: process.env.E2E_STAFF_PASSWORD },
  });
  expect(login.status(), await login.text()).toBe(200);
  const headers = { Authorization: `Bearer ${((await login.json()) as { access: string }).access}` };
  const found = await request.get(`/api/admin/users/?search=${encodeURIComponent(email)}`, { headers });
  const { results } = (await found.json()) as { results: { id: number; email: string }[] };
  const user = results.find((candidate) => candidate.email === email);
  if (!user) throw new Error(`no user ${email}`);
  const changed = await request.patch(`/api/admin/users/${user.id}/`, { headers, data: { subscription_plan: plan } });
  expect(changed.status(), await changed.text()).toBe(200);
}

/**
 * A saved subliminal named `name` (one library message, and `sound` when given: the API's saved sound) of the member
 * whose access token `headers` carry: its id.
 */
export async function saveSubliminal(
  request: APIRequestContext,
  headers: { Authorization: string },
  name: string,
  sound?: object,
): Promise<number> {
  const saved = await request.post('/api/user/subliminals/', {
    headers,
    data: {
      name,
      playlist: [{ message_text: 'I am calm', source: 'library', message_id: 1 }],
      settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20, theme: 'classic' },
      sound,
    },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  return ((await saved.json()) as { id: number }).id;
}

/** A new Intermediate member's saved subliminal named `name` (with `sound`), shared through the API: its public page's path. */
export async function sharedSubliminalPath(request: APIRequestContext, name: string, sound?: object): Promise<string> {
  const sharer = await createActiveUser(request);
  await setPlanAsStaff(request, sharer.email, 'intermediate');
  const login = await request.post('/api/jwt/create/', { data: sharer });
  const headers = { Authorization: `Bearer ${((await login.json()) as { access: string }).access}` };
  const id = await saveSubliminal(request, headers, name, sound);
  const shared = await request.post(`/api/user/subliminals/${id}/share/`, { headers });
  expect(shared.status(), await shared.text()).toBe(201);
  return new URL(((await shared.json()) as { url: string }).url).pathname;
}
