import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  ACCOUNT_INACTIVE_CODE,
  API,
  MESSAGES,
  NOT_A_SHARE_PAGE,
  TERMS_NOT_ACCEPTED,
  currentUserSchema,
} from '@shared/contract';
import type { TestApp } from '../test/test-app';
import type { SmtpCapture } from '../test/smtp';
import { profiles, users } from '../db/schema';
import { userByEmail } from '../db/user-by-email';
import {
  activeAccount,
  linkParams,
  loginPair,
  PASSWORD,
  post,
  signUp,
  signupAndReadMail,
  startAccountsApp,
} from './test-helpers';

describe('signup, activation and login', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, smtp, close } = await startAccountsApp());
  });
  afterAll(() => close());

  it('signs up an inactive account with its profile and mails an activation link over SMTP', async () => {
    const { id, mail } = await signupAndReadMail(t, smtp, 'Grace.Hopper@Example.com');
    const [user] = await t.database.db.select().from(users).where(eq(users.id, id));
    expect(user).toMatchObject({ email: 'Grace.Hopper@Example.com', isActive: false, isStaff: false });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await t.database.db.select().from(profiles).where(eq(profiles.userId, id))).toHaveLength(1);

    expect(mail.subject).toContain('Innerwave');
    const { uid, token } = linkParams(mail, 'activation');
    expect(mail.text).toContain(`http://innerwave.test/activation/${uid}/${token}`);
    expect(mail.html).toContain(`http://innerwave.test/activation/${uid}/${token}`);
    expect(Buffer.from(uid, 'base64url').toString()).toBe(String(id));

    const beforeActivation = await post(t, API.tokenCreate, { email: 'grace.hopper@example.com', password: PASSWORD });
    expect(beforeActivation.statusCode).toBe(401);
    // The right password learns the account waits for activation; a wrong one learns nothing.
    expect(beforeActivation.json()).toEqual({ detail: MESSAGES.badCredentials, code: ACCOUNT_INACTIVE_CODE });
    const wrongPassword = await post(t, API.tokenCreate, {
      email: 'grace.hopper@example.com',
      password: 'Wrong-one-77',
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ detail: MESSAGES.badCredentials });
  });

  it('carries the share page signed up from into the activation link, and a resend’s too (decision 052)', async () => {
    const redirect = '/s/Ab-c_123xyz';
    const body = { email: 'from.a.share@example.com', password: PASSWORD, re_password: PASSWORD, redirect };
    expect((await post(t, API.signup, body)).statusCode).toBe(201);
    await t.ctx.jobs.settled();
    const mail = await smtp.waitFor((m) => m.to.includes('from.a.share@example.com'));
    const { uid, token } = linkParams(mail, 'activation');
    const link = `http://innerwave.test/activation/${uid}/${token}?redirect=%2Fs%2FAb-c_123xyz`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(link);

    const resent = await post(t, API.resendActivation, { email: 'from.a.share@example.com', redirect });
    expect(resent.statusCode).toBe(204);
    await t.ctx.jobs.settled();
    const again = await smtp.waitFor((m) => m.to.includes('from.a.share@example.com') && m !== mail);
    expect(again.links.some((href) => new URL(href).search === '?redirect=%2Fs%2FAb-c_123xyz')).toBe(true);
  });

  it('refuses a redirect that is not a share page, creating nothing (no link to another site or page)', async () => {
    for (const redirect of [
      '//evil.example',
      'https://evil.example/s/abc',
      '/profile',
      '/s/abc?x=1',
      '/s/abc/../x',
      '/s/',
      7,
    ]) {
      const email = 'open.redirect@example.com';
      const response = await post(t, API.signup, { email, password: PASSWORD, re_password: PASSWORD, redirect });
      expect(response.statusCode, String(redirect)).toBe(400);
      expect(response.json()).toEqual({
        redirect: [typeof redirect === 'string' ? NOT_A_SHARE_PAGE : 'Not a valid string.'],
      });
      const resend = await post(t, API.resendActivation, { email, redirect });
      expect(resend.statusCode).toBe(400);
    }
    expect(await t.database.db.select().from(users).where(eq(users.email, 'open.redirect@example.com'))).toEqual([]);
  });

  it('requires the confirmation of age or consent and of the terms', async () => {
    const refused = await post(t, API.signup, {
      email: 'young@example.com',
      password: PASSWORD,
      re_password: PASSWORD,
      accept_terms: false,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ accept_terms: [TERMS_NOT_ACCEPTED] });
  });

  it('takes the body of djoser’s clients, which send no accept_terms', async () => {
    const created = await post(t, API.signup, {
      email: 'djoser.client@example.com',
      password: PASSWORD,
      re_password: PASSWORD,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: expect.any(Number), email: 'djoser.client@example.com' });
  });

  it('refuses a second account for the address of an active account, in any case', async () => {
    await activeAccount(t, smtp, 'ada@example.com');
    const again = await signUp(t, 'ADA@Example.COM', 'Someone-Else-Typed-64');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ email: ['user with this email already exists.'] });
    await loginPair(t, 'ada@example.com');
  });

  it('refuses a sign-up for the address of an account staff deactivated before it was activated', async () => {
    const { id } = await signupAndReadMail(t, smtp, 'held.by.staff@example.com');
    await t.database.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, id));
    const again = await signUp(t, 'held.by.staff@example.com', 'Someone-Else-Typed-64');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ email: ['user with this email already exists.'] });
  });

  it('lets the owner of an address a stranger signed up with sign up again: their password, their link (decision 106)', async () => {
    const squatter = await signupAndReadMail(t, smtp, 'owner@example.com', 'Squatters-Choice-17');
    smtp.mails.length = 0;
    const owner = await signupAndReadMail(t, smtp, 'Owner@Example.com', 'Owners-Own-Words-38');
    expect(owner.id).toBe(squatter.id);
    expect(await t.database.db.select().from(users).where(eq(users.id, owner.id))).toMatchObject([
      { email: 'Owner@Example.com', isActive: false },
    ]);
    // The link mailed for the stranger's sign-up no longer activates anything; the owner's does.
    const stale = await post(t, API.activation, linkParams(squatter.mail, 'activation'));
    expect([stale.statusCode, stale.json()]).toEqual([400, { token: ['Invalid token for given user.'] }]);
    expect((await post(t, API.activation, linkParams(owner.mail, 'activation'))).statusCode).toBe(204);
    await loginPair(t, 'owner@example.com', 'Owners-Own-Words-38');
    const strangers = await post(t, API.tokenCreate, { email: 'owner@example.com', password: 'Squatters-Choice-17' });
    expect([strangers.statusCode, strangers.json()]).toEqual([401, { detail: MESSAGES.badCredentials }]);
  });

  it('keeps the account and its earlier link when the same password signs up again (a form sent twice)', async () => {
    const first = await signupAndReadMail(t, smtp, 'twice@example.com');
    const hashBefore = (await t.database.db.select().from(users).where(eq(users.id, first.id)))[0]!.passwordHash;
    smtp.mails.length = 0;
    const second = await signupAndReadMail(t, smtp, 'twice@example.com');
    expect(second.id).toBe(first.id);
    expect((await t.database.db.select().from(users).where(eq(users.id, first.id)))[0]!.passwordHash).toBe(hashBefore);
    expect((await post(t, API.activation, linkParams(first.mail, 'activation'))).statusCode).toBe(204);
    expect((await post(t, API.activation, linkParams(second.mail, 'activation'))).statusCode).toBe(403);
  });

  it.each([
    ['12345678', ['This password is too common.', 'This password is entirely numeric.']],
    ['98765432109876', ['This password is entirely numeric.']],
    ['Sh0rt!', ['This password is too short. It must contain at least 8 characters.']],
    ['password1', ['This password is too common.']],
    ['lindqvist-mail', ['The password is too similar to the email address.']],
  ])('applies the password rules to %s', async (password, messages) => {
    const response = await signUp(t, 'lindqvist@mail.example', password);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ password: messages });
  });

  it('checks that both passwords match, and names missing fields', async () => {
    const mismatch = await post(t, API.signup, {
      email: 'mismatch@example.com',
      password: PASSWORD,
      re_password: `${PASSWORD}x`,
      accept_terms: true,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ non_field_errors: ["The two password fields didn't match."] });
    const missing = await post(t, API.signup, { email: 'not-an-address' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      email: [MESSAGES.invalidEmail],
      password: [MESSAGES.required],
      re_password: [MESSAGES.required],
    });
  });

  it('refuses a password of spaces alone as blank (spaces elsewhere count)', async () => {
    const spaces = ' '.repeat(10);
    const response = await signUp(t, 'lindqvist@mail.example', spaces);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      password: ['This field may not be blank.'],
      re_password: ['This field may not be blank.'],
    });
  });

  it('refuses a password over 128 characters', async () => {
    const long = 'Quiet-Harbour-'.padEnd(129, 'x');
    const res = await signUp(t, 'long@example.com', long);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      password: ['Ensure this field has no more than 128 characters.'],
      re_password: ['Ensure this field has no more than 128 characters.'],
    });
  });

  it('gives exactly one account to twenty parallel signups of one address, each answered with it', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signUp(t, i % 2 ? 'race@example.com' : 'RACE@example.com')),
    );
    // The first in makes the account; the others, behind it or beside it, sign up again over it as one after it would.
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const ids = new Set(responses.map((r) => r.json<{ id: number }>().id));
    expect(ids.size).toBe(1);
    expect(await t.database.db.select().from(users).where(userByEmail('race@example.com'))).toHaveLength(1);
  });

  it('activates once: bad uid, bad token, then 204, then stale', async () => {
    const { mail } = await signupAndReadMail(t, smtp, 'lovelace@example.com');
    const { uid, token } = linkParams(mail, 'activation');
    expect((await post(t, API.activation, { uid: 'zzz', token })).json()).toEqual({
      uid: ["Invalid user id or user doesn't exist."],
    });
    expect(
      (await post(t, API.activation, { uid: Buffer.from('999999').toString('base64url'), token })).statusCode,
    ).toBe(400);
    // Another last character (never the one it has: a token ends in 'A' one time in 64).
    const badToken = await post(t, API.activation, {
      uid,
      token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
    });
    expect(badToken.statusCode).toBe(400);
    expect(badToken.json()).toEqual({ token: ['Invalid token for given user.'] });
    expect((await post(t, API.activation, { uid })).json()).toEqual({ token: [MESSAGES.required] });

    const first = await post(t, API.activation, { uid, token });
    expect(first.statusCode).toBe(204);
    expect(first.body).toBe('');
    const second = await post(t, API.activation, { uid, token });
    expect(second.statusCode).toBe(403);
    expect(second.json()).toEqual({ detail: 'Stale token for given user.' });
  });

  it('a link opened again after the person logged in is still stale, not wrong (the page says the account is active)', async () => {
    const { mail } = await signupAndReadMail(t, smtp, 'reopened.link@example.com');
    const { uid, token } = linkParams(mail, 'activation');
    expect((await post(t, API.activation, { uid, token })).statusCode).toBe(204);
    await loginPair(t, 'reopened.link@example.com');
    const again = await post(t, API.activation, { uid, token });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ detail: 'Stale token for given user.' });
    // A wrong token is still wrong.
    const wrong = await post(t, API.activation, {
      uid,
      token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
    });
    expect(wrong.json()).toEqual({ token: ['Invalid token for given user.'] });
  });

  it('logs in regardless of case and answers every failure alike (an inactive account: its code, after the password)', async () => {
    await activeAccount(t, smtp, 'Turing@Example.com');
    const before = Date.now();
    const pair = await loginPair(t, 'turing@example.COM');
    expect(Object.keys(pair).sort()).toEqual(['access', 'refresh']);
    // The login is recorded (a reset link made before it stops working).
    const [row] = await t.database.db
      .select({ lastLogin: users.lastLogin })
      .from(users)
      .where(eq(users.email, 'Turing@Example.com'));
    expect(row!.lastLogin!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    await signupAndReadMail(t, smtp, 'inactive@example.com');
    for (const body of [
      { email: 'turing@example.com', password: 'Wrong-Password-1' },
      { email: 'nobody@example.com', password: PASSWORD },
      { email: 'inactive@example.com', password: 'Wrong-Password-1' },
    ]) {
      const response = await post(t, API.tokenCreate, body);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: MESSAGES.badCredentials });
    }
    const inactive = await post(t, API.tokenCreate, { email: 'inactive@example.com', password: PASSWORD });
    expect(inactive.json()).toEqual({ detail: MESSAGES.badCredentials, code: ACCOUNT_INACTIVE_CODE });
  });

  it('spends as much work refusing an unknown e-mail as a wrong password (no enumeration by timing)', async () => {
    await activeAccount(t, smtp, 'timing@example.com');
    // The process's CPU time (every thread: the hashing ones too), not the clock: on a shared machine
    // the clock also counts waiting for a core, and a wall-clock ratio once reached 2.1 in CI.
    const work = async (email: string) => {
      const start = process.cpuUsage();
      await post(t, API.tokenCreate, { email, password: 'Wrong-Password-1' });
      const spent = process.cpuUsage(start);
      return spent.user + spent.system;
    };
    await work('warm-up@example.com');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 12; i++) {
      known.push(await work('timing@example.com'));
      unknown.push(await work(`unknown-${i}@example.com`));
    }
    // Each kind's least: other threads' use of the caches and memory only ever adds to an attempt's.
    const ratio = Math.min(...unknown) / Math.min(...known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(1.8);
  });

  it('refreshes, answers me, and logs out only the session it was given', async () => {
    const { id } = await activeAccount(t, smtp, 'hamilton@example.com');
    const first = await loginPair(t, 'hamilton@example.com');
    const second = await loginPair(t, 'hamilton@example.com');
    const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

    const me = await t.app.inject({ method: 'GET', url: API.me, headers: bearer(first.access) });
    expect(me.statusCode).toBe(200);
    expect(currentUserSchema.strict().parse(me.json())).toEqual({
      id,
      email: 'hamilton@example.com',
      first_name: '',
      last_name: '',
      is_staff: false,
    });
    expect((await t.app.inject({ method: 'GET', url: API.me })).statusCode).toBe(401);

    const refreshed = await post(t, API.tokenRefresh, { refresh: first.refresh });
    expect(refreshed.statusCode).toBe(200);
    const { access } = refreshed.json<{ access: string }>();
    expect((await t.app.inject({ method: 'GET', url: API.me, headers: bearer(access) })).statusCode).toBe(200);

    // Tokens of one kind are never accepted as the other.
    const accessAsRefresh = await post(t, API.tokenRefresh, { refresh: first.access });
    expect(accessAsRefresh.statusCode).toBe(401);
    expect(accessAsRefresh.json()).toEqual({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' });
    expect((await t.app.inject({ method: 'GET', url: API.me, headers: bearer(first.refresh) })).statusCode).toBe(401);

    // djoser clients post logout with a JSON content type and no body; others send neither.
    const logout = await t.app.inject({
      method: 'POST',
      url: API.logout,
      headers: { ...bearer(first.access), 'content-type': 'application/json' },
    });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
    for (const token of [first.access, access]) {
      expect((await t.app.inject({ method: 'GET', url: API.me, headers: bearer(token) })).statusCode).toBe(401);
    }
    expect((await post(t, API.tokenRefresh, { refresh: first.refresh })).statusCode).toBe(401);

    expect((await t.app.inject({ method: 'GET', url: API.me, headers: bearer(second.access) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: API.logout, headers: bearer(second.access) })).statusCode).toBe(
      204,
    );
    expect((await t.app.inject({ method: 'POST', url: API.logout })).statusCode).toBe(401);
  });

  it('publishes every account call in the OpenAPI description', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: API.openapi })).json<{ paths: Record<string, unknown> }>();
    for (const path of [
      API.signup,
      API.me,
      API.tokenCreate,
      API.tokenRefresh,
      API.logout,
      API.activation,
      API.resetPassword,
      API.resetPasswordConfirm,
      API.resetPasswordCheck,
      API.resendActivation,
      API.setPassword,
      API.setEmail,
      API.setEmailConfirm,
    ]) {
      expect(spec.paths).toHaveProperty([path]);
    }
  });
});
