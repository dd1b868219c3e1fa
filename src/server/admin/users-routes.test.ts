import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { profiles, sessions, users } from '../db/schema';
import { multipartBody } from '../test/multipart';
import { API } from '@shared/contract';
import type { SmtpCapture } from '../test/smtp';
import { SELF_SERVICE_MESSAGES } from '../auth/self-service';
import { activeAccount, linkParams, loginPair, PASSWORD, post, startAccountsApp } from '../auth/test-helpers';
import { waitingOnLocks } from '../test/database';

describe('admin users API', () => {
  let t: TestApp;
  let staff: SignedInUser;
  let member: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
    member = await signedInUser(t.ctx, { email: 'Member.One@Example.com' });
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/admin/users/'],
    ['PATCH', '/api/admin/users/1/'],
    ['GET', '/api/admin/message-categories/'],
    ['POST', '/api/admin/message-categories/import/'],
    ['GET', '/api/admin/audio/bonus/'],
    ['POST', '/api/admin/audio/bonus/'],
    ['DELETE', '/api/admin/applications/1/'],
    ['POST', '/api/admin/applications/'],
  ] as const)('%s %s answers 401 without a token and 403 for a normal user', async (method, url) => {
    const anonymous = await t.app.inject({ method, url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const bad = await t.app.inject({ method, url, headers: { authorization: 'Bearer nonsense' } });
    expect(bad.statusCode).toBe(401);
    const normal = await t.app.inject({ method, url, headers: member.headers });
    expect(normal.statusCode).toBe(403);
    expect(normal.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('lists users and searches by e-mail, any case', async () => {
    const all = await t.app.inject({ method: 'GET', url: '/api/admin/users/', headers: staff.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBe(2);
    const found = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users/?search=member.ONE',
      headers: staff.headers,
    });
    expect(found.json()).toMatchObject({
      count: 1,
      results: [
        {
          id: member.id,
          email: 'Member.One@Example.com',
          is_active: true,
          is_staff: false,
          subscription_plan: 'basic',
          deactivated_at: null,
        },
      ],
    });
    const wildcard = await t.app.inject({ method: 'GET', url: '/api/admin/users/?search=%25', headers: staff.headers });
    expect(wildcard.json().count).toBe(0);
  });

  it('sets the plan, creating the profile when it is missing', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: { subscription_plan: 'pro' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription_plan).toBe('pro');
    const [profile] = await t.database.db.select().from(profiles).where(eq(profiles.userId, member.id));
    expect(profile?.subscriptionPlan).toBe('pro');
  });

  it('deactivates a user, who is then refused, and activates them again without reviving old sessions', async () => {
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: { is_active: false },
    });
    // The deactivation's time tells it from an account never activated, and stays through a reactivation.
    const before = Date.now();
    expect(off.json().is_active).toBe(false);
    const deactivatedAt = Date.parse(off.json().deactivated_at);
    expect(deactivatedAt).toBeGreaterThan(before - 60_000);
    expect(deactivatedAt).toBeLessThanOrEqual(Date.now());
    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/users/', headers: member.headers });
    expect(refused.statusCode).toBe(401);
    const on = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: { is_active: true },
    });
    expect(on.json()).toMatchObject({ is_active: true, deactivated_at: off.json().deactivated_at });
    // The tokens of before stay dead; the user signs in again.
    const oldAccess = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: member.headers });
    expect(oldAccess.statusCode).toBe(401);
    const oldRefresh = await t.app.inject({
      method: 'POST',
      url: '/api/jwt/refresh/',
      payload: { refresh: member.refresh },
    });
    expect(oldRefresh.statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/jwt/create/',
      payload: { email: member.email, password: member.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('rejects a bad plan, an empty update, self-deactivation and an unknown user', async () => {
    const plan = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: { subscription_plan: 'gold' },
    });
    expect(plan.statusCode).toBe(400);
    expect(plan.json()).toHaveProperty('subscription_plan');
    const empty = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/`,
      headers: staff.headers,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    const self = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${staff.id}/`,
      headers: staff.headers,
      payload: { is_active: false },
    });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ is_active: ['You cannot deactivate your own account.'] });
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/users/99999/',
      headers: staff.headers,
      payload: { is_active: true },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe("admin users API: a person's waiting change of e-mail address", () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let close: () => Promise<void>;
  let staff: SignedInUser;
  beforeAll(async () => {
    ({ t, smtp, close } = await startAccountsApp());
    staff = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
  });
  afterAll(() => close());

  const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
  const adminUser = (id: number) =>
    t.app.inject({ method: 'GET', url: `/api/admin/users/${id}/`, headers: staff.headers });
  const cancelAsStaff = (id: number | string, headers = staff.headers) =>
    t.app.inject({ method: 'DELETE', url: `/api/admin/users/${id}/email-change/`, headers });
  /** The confirmation links mailed to `email` so far, oldest first. */
  const linksTo = async (email: string) => {
    await t.ctx.jobs.settled();
    return smtp.mails
      .filter((m) => m.to.toLowerCase().includes(email.toLowerCase()) && m.subject.includes('Confirm your new'))
      .map((m) => linkParams(m, 'email/confirm'));
  };

  it('shows the address asked for and since when, in the list and the user, and null when none waits', async () => {
    const { id } = await activeAccount(t, smtp, 'ada@example.com');
    const { access } = await loginPair(t, 'ada@example.com');
    expect((await adminUser(id)).json().pending_email_change).toBeNull();

    const before = Date.now();
    const asked = await post(
      t,
      API.setEmail,
      { current_password: PASSWORD, new_email: 'Ada.New@example.com' },
      bearer(access),
    );
    expect(asked.statusCode).toBe(204);
    const waiting = (await adminUser(id)).json().pending_email_change;
    expect(waiting).toEqual({ new_email: 'Ada.New@example.com', requested_at: expect.any(String) });
    expect(Date.parse(waiting.requested_at)).toBeGreaterThanOrEqual(before - 1000);
    // The person's own view and staff's agree.
    const own = await t.app.inject({ method: 'GET', url: API.setEmail, headers: bearer(access) });
    expect(own.json()).toEqual({ pending: waiting });
    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/users/?search=ada@', headers: staff.headers });
    expect(listed.json().results).toMatchObject([{ id, pending_email_change: waiting }]);
  });

  it('is cancelled by staff as by its owner: the link mailed is refused, the address stays, the user is answered', async () => {
    const { id } = await activeAccount(t, smtp, 'grace@example.com');
    const { access } = await loginPair(t, 'grace@example.com');
    await post(t, API.setEmail, { current_password: PASSWORD, new_email: 'grace.new@example.com' }, bearer(access));
    const [link] = await linksTo('grace.new@example.com');

    const cancelled = await cancelAsStaff(id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ id, email: 'grace@example.com', pending_email_change: null });
    const own = await t.app.inject({ method: 'GET', url: API.setEmail, headers: bearer(access) });
    expect(own.json()).toEqual({ pending: null });
    const refused = await post(t, API.setEmailConfirm, link);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ token: [SELF_SERVICE_MESSAGES.emailLinkInvalid] });
    expect((await adminUser(id)).json().email).toBe('grace@example.com');
    // Nothing waiting is no error, as the person's own cancel.
    expect((await cancelAsStaff(id)).statusCode).toBe(200);
  });

  it('is staff only, and an unknown or malformed user is 404', async () => {
    const { id } = await activeAccount(t, smtp, 'hedy@example.com');
    const { access } = await loginPair(t, 'hedy@example.com');
    await post(t, API.setEmail, { current_password: PASSWORD, new_email: 'hedy.new@example.com' }, bearer(access));
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${id}/email-change/` })).statusCode).toBe(
      401,
    );
    const own = await cancelAsStaff(id, bearer(access));
    expect(own.statusCode).toBe(403);
    expect((await adminUser(id)).json().pending_email_change).toMatchObject({ new_email: 'hedy.new@example.com' });
    expect((await cancelAsStaff(99999)).statusCode).toBe(404);
    expect((await cancelAsStaff('abc')).statusCode).toBe(404);
    expect((await cancelAsStaff('9999999999')).statusCode).toBe(404);
  });
});

// PGlite runs one transaction at a time: two of them cannot each hold a row the other waits for.
describe.runIf(inject('dbKind') === 'postgres')('staff changing a user while the person saves their profile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('deactivates and sets the plan while the names are saved, each answered, neither waiting on the other', async () => {
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const member = await signedInUser(t.ctx);
    // Their profile's row is made on its first read.
    expect((await t.app.inject({ method: 'GET', url: API.profile, headers: member.headers })).statusCode).toBe(200);
    const form = multipartBody({ first_name: 'Ada', last_name: 'Lovelace' });
    let change: Promise<LightMyRequestResponse> | undefined;
    let save: Promise<LightMyRequestResponse> | undefined;
    await t.database.db.transaction(async (tx) => {
      // Staff's change is held where it ends the person's sessions, with the rows it has locked before.
      await tx.select().from(sessions).where(eq(sessions.userId, member.id)).for('update');
      // inject() sends the request once awaited; then() sends it now.
      change = t.app
        .inject({
          method: 'PATCH',
          url: `/api/admin/users/${member.id}/`,
          headers: staff.headers,
          payload: { is_active: false, subscription_plan: 'pro' },
        })
        .then((response) => response);
      await waitingOnLocks(t.database, 1);
      save = t.app
        .inject({
          method: 'PUT',
          url: API.profileUpdate,
          headers: { ...member.headers, ...form.headers },
          payload: form.payload,
        })
        .then((response) => response);
      await waitingOnLocks(t.database, 2);
    });
    const [changed, saved] = await Promise.all([change!, save!]);
    expect([changed.statusCode, changed.json()]).toMatchObject([200, { is_active: false, subscription_plan: 'pro' }]);
    // The save waited for the deactivation and then asks its session, as an upload does: ended, it keeps nothing.
    expect([saved.statusCode, saved.json()]).toEqual([
      401,
      { detail: 'Given token not valid for any token type', code: 'token_not_valid' },
    ]);
    const [names] = await t.database.db.select().from(users).where(eq(users.id, member.id));
    expect([names?.firstName, names?.lastName]).not.toEqual(['Ada', 'Lovelace']);
  });
});
