import { existsSync } from 'node:fs';
import path from 'node:path';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MESSAGES, SESSIONS_ENDED_HEADER, userExportSchema } from '@shared/contract';
import {
  billingAccounts,
  duplicateSubscriptions,
  listeningHistory,
  ownCategories,
  ownMessages,
  ownTracks,
  removedOwnTracks,
  playerStates,
  profiles,
  savedSubliminals,
  sessions,
  users,
  voiceRecordings,
} from '../db/schema';
import { mediaDir } from '../paths';
import type { SmtpCapture } from '../test/smtp';
import type { TestApp } from '../test/test-app';
import { mailJob } from '../jobs/mail-kinds';
import { jobs } from '../jobs/table';
import { SUBLIMINALS_PER_READ } from '../own/subliminals';
import { EXPORT_UNDER_WAY_TEXT, EXPORTS_AT_ONCE, exportUserJson, ROWS_PER_READ } from '../profile/export';
import { createProfileReader } from '../profile/service';
import { SELF_SERVICE_MESSAGES } from './self-service';
import { hashToken } from './sessions';
import {
  activeAccount,
  linkParams,
  loginPair,
  PASSWORD,
  post,
  signupAndReadMail,
  startAccountsApp,
} from './test-helpers';

const NEW_PASSWORD = 'Silver-Lantern-73';
const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

describe('account self-service', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, smtp, close } = await startAccountsApp());
  });
  afterAll(() => close());

  const me = (access: string) => t.app.inject({ method: 'GET', url: API.me, headers: bearer(access) });
  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.toLowerCase().includes(email.toLowerCase()));
  const settled = () => t.ctx.jobs.settled();

  describe('POST resend_activation', () => {
    it('answers 204 for any address, mails a working link only to an inactive account, and tells a free address to sign up', async () => {
      await signupAndReadMail(t, smtp, 'pending@example.com');
      await activeAccount(t, smtp, 'already@example.com');
      const before = { pending: mailsTo('pending@example.com').length, already: mailsTo('already@example.com').length };
      for (const email of ['PENDING@example.com', 'already@example.com', 'nobody@example.com']) {
        const response = await post(t, API.resendActivation, { email });
        expect(response.statusCode).toBe(204);
        expect(response.body).toBe('');
      }
      await settled();
      expect(mailsTo('already@example.com')).toHaveLength(before.already);
      // No account holds it (one never activated may have been removed): its mailbox is told so (decision 118).
      expect(mailsTo('nobody@example.com').map((mail) => [mail.subject, mail.links])).toEqual([
        ['Sign up again for Innerwave', [`${t.ctx.config.publicUrl}/signup`]],
      ]);
      const resent = mailsTo('pending@example.com');
      expect(resent).toHaveLength(before.pending + 1);
      const activation = await post(t, API.activation, linkParams(resent.at(-1)!, 'activation'));
      expect(activation.statusCode).toBe(204);
      await loginPair(t, 'pending@example.com');
    });

    it('names a bad address', async () => {
      const response = await post(t, API.resendActivation, { email: 'not-an-address' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ email: [MESSAGES.invalidEmail] });
    });
  });

  describe('POST set_password', () => {
    const setPassword = (access: string, body: object) => post(t, API.setPassword, body, bearer(access));

    it('needs a signed-in user', async () => {
      const response = await post(t, API.setPassword, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
        re_new_password: NEW_PASSWORD,
      });
      expect(response.statusCode).toBe(401);
    });

    it('refuses a wrong current password, a weak or mismatched new one, and changes nothing', async () => {
      await activeAccount(t, smtp, 'hypatia@example.com');
      const { access } = await loginPair(t, 'hypatia@example.com');
      const wrong = await setPassword(access, {
        current_password: 'Not-My-Password-1',
        new_password: NEW_PASSWORD,
        re_new_password: NEW_PASSWORD,
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ current_password: [SELF_SERVICE_MESSAGES.invalidPassword] });
      const weak = await setPassword(access, {
        current_password: PASSWORD,
        new_password: '12345678',
        re_new_password: '12345678',
      });
      expect(weak.json()).toEqual({
        new_password: ['This password is too common.', 'This password is entirely numeric.'],
      });
      const mismatch = await setPassword(access, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
        re_new_password: `${NEW_PASSWORD}x`,
      });
      expect(mismatch.json()).toEqual({ non_field_errors: ["The two password fields didn't match."] });
      const missing = await setPassword(access, { new_password: NEW_PASSWORD });
      expect(missing.json()).toEqual({ current_password: [MESSAGES.required], re_new_password: [MESSAGES.required] });
      await loginPair(t, 'hypatia@example.com', PASSWORD);
    });

    it('changes it, keeps this session, ends the others, leaves other people alone and sends a notice', async () => {
      await activeAccount(t, smtp, 'franklin@example.com');
      await activeAccount(t, smtp, 'bystander@example.com');
      const bystander = await loginPair(t, 'bystander@example.com');
      const here = await loginPair(t, 'franklin@example.com');
      const elsewhere = await loginPair(t, 'franklin@example.com');

      const done = await setPassword(here.access, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
        re_new_password: NEW_PASSWORD,
      });
      expect(done.statusCode).toBe(204);
      // djoser's 204 with no body; the header says how many sessions ended, for the toast.
      expect(done.body).toBe('');
      expect(done.headers[SESSIONS_ENDED_HEADER.toLowerCase()]).toBe('1');
      expect((await me(here.access)).statusCode).toBe(200);
      expect((await post(t, API.tokenRefresh, { refresh: here.refresh })).statusCode).toBe(200);
      expect((await me(elsewhere.access)).statusCode).toBe(401);
      expect((await post(t, API.tokenRefresh, { refresh: elsewhere.refresh })).statusCode).toBe(401);
      expect((await me(bystander.access)).statusCode).toBe(200);

      expect((await post(t, API.tokenCreate, { email: 'franklin@example.com', password: PASSWORD })).statusCode).toBe(
        401,
      );
      await loginPair(t, 'franklin@example.com', NEW_PASSWORD);
      await settled();
      const notice = await smtp.waitFor(
        (m) => m.to.includes('franklin@example.com') && m.subject.includes('password was changed'),
      );
      expect(notice.text).toContain('your other devices were signed out');
    });

    it('signed in only here, signs out nobody and says so: the header 0, the notice no other device', async () => {
      await activeAccount(t, smtp, 'solitary@example.com');
      const here = await loginPair(t, 'solitary@example.com');
      const done = await setPassword(here.access, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
        re_new_password: NEW_PASSWORD,
      });
      expect(done.statusCode).toBe(204);
      expect(done.headers[SESSIONS_ENDED_HEADER.toLowerCase()]).toBe('0');
      expect((await me(here.access)).statusCode).toBe(200);
      await settled();
      const notice = await smtp.waitFor(
        (m) => m.to.includes('solitary@example.com') && m.subject.includes('password was changed'),
      );
      expect(notice.text).toContain('was just changed. No other device was signed in.');
      expect(notice.text).not.toContain('signed out');
    });
  });

  describe('POST logout/others and GET sessions', () => {
    const signOutOthers = (access: string, body: object) => post(t, API.logoutOthers, body, bearer(access));
    const others = async (access: string) => {
      const answer = await t.app.inject({ method: 'GET', url: API.sessions, headers: bearer(access) });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ count: number; latest_sign_in: string | null }>();
    };

    it('needs a signed-in user and the current password, and ends nothing without them', async () => {
      await activeAccount(t, smtp, 'lovelace@example.com');
      const here = await loginPair(t, 'lovelace@example.com');
      const elsewhere = await loginPair(t, 'lovelace@example.com');
      expect((await post(t, API.logoutOthers, { current_password: PASSWORD })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: API.sessions })).statusCode).toBe(401);
      const wrong = await signOutOthers(here.access, { current_password: 'Not-The-Password-1' });
      expect([wrong.statusCode, wrong.json()]).toEqual([
        400,
        { current_password: [SELF_SERVICE_MESSAGES.invalidPassword] },
      ]);
      const missing = await signOutOthers(here.access, {});
      expect([missing.statusCode, missing.json()]).toEqual([400, { current_password: [MESSAGES.required] }]);
      expect((await me(elsewhere.access)).statusCode).toBe(200);
      expect((await others(here.access)).count).toBe(1);
    });

    it("ends every other session of the person at once, keeps this one and nobody else's", async () => {
      await activeAccount(t, smtp, 'hopper@example.com');
      await activeAccount(t, smtp, 'onlooker@example.com');
      const onlooker = await loginPair(t, 'onlooker@example.com');
      const phone = await loginPair(t, 'hopper@example.com');
      const laptop = await loginPair(t, 'hopper@example.com');
      const here = await loginPair(t, 'hopper@example.com');
      // Logged out already: not counted, not ended again.
      const gone = await loginPair(t, 'hopper@example.com');
      expect((await post(t, API.logout, undefined, bearer(gone.access))).statusCode).toBe(204);
      // Each worker keeps a session it has seen for 30 s: they are read once before, so they are cached.
      for (const pair of [phone, laptop]) expect((await me(pair.access)).statusCode).toBe(200);

      const before = await others(here.access);
      expect(before.count).toBe(2);
      const [latest] = await t.ctx.database.db
        .select({ createdAt: sessions.createdAt })
        .from(sessions)
        .where(eq(sessions.refreshTokenHash, hashToken(laptop.refresh)));
      expect(before.latest_sign_in).toBe(latest!.createdAt.toISOString());

      const done = await signOutOthers(here.access, { current_password: PASSWORD });
      expect([done.statusCode, done.json()]).toEqual([200, { ended: 2 }]);
      for (const pair of [phone, laptop]) {
        expect((await me(pair.access)).statusCode).toBe(401);
        expect((await post(t, API.tokenRefresh, { refresh: pair.refresh })).statusCode).toBe(401);
      }
      expect((await me(here.access)).statusCode).toBe(200);
      expect((await post(t, API.tokenRefresh, { refresh: here.refresh })).statusCode).toBe(200);
      expect((await me(onlooker.access)).statusCode).toBe(200);
      expect(await others(here.access)).toEqual({ count: 0, latest_sign_in: null });
      // Nothing else to end: it says so, and the password still works for a new login.
      expect((await signOutOthers(here.access, { current_password: PASSWORD })).json()).toEqual({ ended: 0 });
      await loginPair(t, 'hopper@example.com');
    });
  });

  describe('POST set_email and set_email_confirm', () => {
    const setEmail = (access: string, body: object) => post(t, API.setEmail, body, bearer(access));
    const confirmMailTo = (email: string) =>
      smtp.waitFor((m) => m.to.includes(email) && m.subject.includes('Confirm your new'));

    it('needs a signed-in user', async () => {
      const response = await post(t, API.setEmail, { current_password: PASSWORD, new_email: 'x@example.com' });
      expect(response.statusCode).toBe(401);
    });

    it('refuses a wrong password, a bad, the same or a taken address, and mails nothing', async () => {
      await activeAccount(t, smtp, 'rosalind@example.com');
      await activeAccount(t, smtp, 'taken@example.com');
      const { access } = await loginPair(t, 'rosalind@example.com');
      const sent = smtp.mails.length;
      const cases: Array<[object, object]> = [
        [
          { current_password: 'Wrong-Password-1', new_email: 'new@example.com' },
          { current_password: [SELF_SERVICE_MESSAGES.invalidPassword] },
        ],
        [{ current_password: PASSWORD, new_email: 'nope' }, { new_email: [MESSAGES.invalidEmail] }],
        [
          { current_password: PASSWORD, new_email: 'ROSALIND@example.com' },
          { new_email: [SELF_SERVICE_MESSAGES.sameEmail] },
        ],
        [
          { current_password: PASSWORD, new_email: 'Taken@example.com' },
          { new_email: ['user with this email already exists.'] },
        ],
      ];
      for (const [body, errors] of cases) {
        const response = await setEmail(access, body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(errors);
      }
      await settled();
      expect(smtp.mails.length).toBe(sent);
    });

    it('changes the address only when the link to the new one is opened, once, and tells the old one', async () => {
      await activeAccount(t, smtp, 'marie@example.com');
      const { access } = await loginPair(t, 'marie@example.com');
      expect(
        (await setEmail(access, { current_password: PASSWORD, new_email: 'Marie.New@example.com' })).statusCode,
      ).toBe(204);
      await settled();
      const mail = await confirmMailTo('Marie.New@example.com');
      expect(mail.text).toMatch(/http:\/\/innerwave\.test\/email\/confirm\/[\w-]+\/[\w~-]+$/m);
      expect((await me(access)).json()).toMatchObject({ email: 'marie@example.com' });

      const link = linkParams(mail, 'email/confirm');
      expect((await post(t, API.setEmailConfirm, { ...link, token: `${link.token}x` })).statusCode).toBe(400);
      const confirmed = await post(t, API.setEmailConfirm, link);
      expect(confirmed.statusCode).toBe(204);
      expect((await me(access)).json()).toMatchObject({ email: 'Marie.New@example.com' });
      await loginPair(t, 'marie.new@example.com');
      expect((await post(t, API.tokenCreate, { email: 'marie@example.com', password: PASSWORD })).statusCode).toBe(401);
      await settled();
      const notice = await smtp.waitFor((m) => m.to.includes('marie@example.com') && m.subject.includes('was changed'));
      expect(notice.text).toContain('Marie.New@example.com');
      // Whoever changed it may now hold the account: the old address is pointed to support's mailbox, not a page.
      expect(notice.text).toContain(`write to us right away at ${t.ctx.config.supportEmail}`);
      expect(notice.replyTo).toBe(t.ctx.config.supportEmail);

      const again = await post(t, API.setEmailConfirm, link);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ token: [SELF_SERVICE_MESSAGES.emailLinkInvalid] });
    });

    it('kills the link when the password changes, and refuses an address taken meanwhile', async () => {
      await activeAccount(t, smtp, 'emmy@example.com');
      const { access } = await loginPair(t, 'emmy@example.com');
      await setEmail(access, { current_password: PASSWORD, new_email: 'emmy.first@example.com' });
      await settled();
      const first = linkParams(await confirmMailTo('emmy.first@example.com'), 'email/confirm');
      await post(
        t,
        API.setPassword,
        { current_password: PASSWORD, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD },
        bearer(access),
      );
      expect((await post(t, API.setEmailConfirm, first)).json()).toEqual({
        token: [SELF_SERVICE_MESSAGES.emailLinkInvalid],
      });

      await setEmail(access, { current_password: NEW_PASSWORD, new_email: 'emmy.second@example.com' });
      await settled();
      const second = linkParams(await confirmMailTo('emmy.second@example.com'), 'email/confirm');
      await activeAccount(t, smtp, 'emmy.second@example.com');
      const taken = await post(t, API.setEmailConfirm, second);
      expect(taken.statusCode).toBe(400);
      expect(taken.json()).toEqual({ new_email: ['user with this email already exists.'] });
      expect((await me(access)).json()).toMatchObject({ email: 'emmy@example.com' });
    });
  });

  describe('the change of e-mail address waiting for its link', () => {
    const setEmail = (access: string, newEmail: string, password = PASSWORD) =>
      post(t, API.setEmail, { current_password: password, new_email: newEmail }, bearer(access));
    const pending = async (access: string) =>
      (await t.app.inject({ method: 'GET', url: API.setEmail, headers: bearer(access) })).json<{
        pending: { new_email: string; requested_at: string } | null;
      }>().pending;
    const cancel = (access: string) => t.app.inject({ method: 'DELETE', url: API.setEmail, headers: bearer(access) });
    const resend = (access: string) => post(t, API.setEmailResend, undefined, bearer(access));
    const exported = async (access: string) =>
      userExportSchema.parse(
        (await t.app.inject({ method: 'GET', url: API.userExport, headers: bearer(access) })).json(),
      ).account.pending_email_change;
    /** The links mailed to `email` so far, oldest first. */
    const linksTo = async (email: string) => {
      await settled();
      return mailsTo(email)
        .filter((m) => m.subject.includes('Confirm your new'))
        .map((m) => linkParams(m, 'email/confirm'));
    };

    it('needs a signed-in user for each of its calls', async () => {
      expect((await t.app.inject({ method: 'GET', url: API.setEmail })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'DELETE', url: API.setEmail })).statusCode).toBe(401);
      expect((await post(t, API.setEmailResend, undefined)).statusCode).toBe(401);
    });

    it('is shown and exported from the request until the link is opened, which clears it', async () => {
      await activeAccount(t, smtp, 'lise@example.com');
      const { access } = await loginPair(t, 'lise@example.com');
      expect(await pending(access)).toBeNull();
      expect(await exported(access)).toBeNull();

      const before = Date.now();
      expect((await setEmail(access, 'Lise.New@example.com')).statusCode).toBe(204);
      const waiting = await pending(access);
      expect(waiting).toEqual({ new_email: 'Lise.New@example.com', requested_at: expect.any(String) });
      expect(Date.parse(waiting!.requested_at)).toBeGreaterThanOrEqual(before);
      expect(await exported(access)).toEqual(waiting);

      const [link] = await linksTo('Lise.New@example.com');
      expect((await post(t, API.setEmailConfirm, link)).statusCode).toBe(204);
      expect((await me(access)).json()).toMatchObject({ email: 'Lise.New@example.com' });
      expect(await pending(access)).toBeNull();
      expect(await exported(access)).toBeNull();
    });

    it('is cancelled: its link is refused from then on, and a cancel with nothing waiting is no error', async () => {
      await activeAccount(t, smtp, 'chien@example.com');
      const { access } = await loginPair(t, 'chien@example.com');
      await setEmail(access, 'chien.new@example.com');
      const [link] = await linksTo('chien.new@example.com');

      expect((await cancel(access)).statusCode).toBe(204);
      expect(await pending(access)).toBeNull();
      const refused = await post(t, API.setEmailConfirm, link);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ token: [SELF_SERVICE_MESSAGES.emailLinkInvalid] });
      expect((await me(access)).json()).toMatchObject({ email: 'chien@example.com' });
      expect((await cancel(access)).statusCode).toBe(204);

      // Asked again for the same address: the link from before the cancel stays refused, the new one works.
      await setEmail(access, 'chien.new@example.com');
      const [, again] = await linksTo('chien.new@example.com');
      expect((await post(t, API.setEmailConfirm, link)).statusCode).toBe(400);
      expect((await post(t, API.setEmailConfirm, again)).statusCode).toBe(204);
    });

    it('is replaced by a second request: the older link is refused, the newer one changes the address', async () => {
      await activeAccount(t, smtp, 'noether@example.com');
      const { access } = await loginPair(t, 'noether@example.com');
      await setEmail(access, 'noether.first@example.com');
      const [first] = await linksTo('noether.first@example.com');
      await setEmail(access, 'noether.second@example.com');
      expect(await pending(access)).toMatchObject({ new_email: 'noether.second@example.com' });
      const [second] = await linksTo('noether.second@example.com');

      expect((await post(t, API.setEmailConfirm, first)).json()).toEqual({
        token: [SELF_SERVICE_MESSAGES.emailLinkInvalid],
      });
      expect((await post(t, API.setEmailConfirm, second)).statusCode).toBe(204);
      expect((await me(access)).json()).toMatchObject({ email: 'noether.second@example.com' });
    });

    it('is sent again with a new link, the earlier one still working; nothing waiting is refused', async () => {
      await activeAccount(t, smtp, 'resent.ada@example.com');
      const { access } = await loginPair(t, 'resent.ada@example.com');
      const none = await resend(access);
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual({ non_field_errors: [SELF_SERVICE_MESSAGES.noEmailChange] });

      await setEmail(access, 'resent.ada.new@example.com');
      const requested = await pending(access);
      expect((await resend(access)).statusCode).toBe(204);
      const [first, second] = await linksTo('resent.ada.new@example.com');
      // A second mail (its link differs from the first once a second has passed: a link's time is in seconds).
      expect(second).toBeDefined();
      // The same request: it keeps its time, and the first mail's link opens it.
      expect(await pending(access)).toEqual(requested);
      expect((await post(t, API.setEmailConfirm, first)).statusCode).toBe(204);
      expect((await post(t, API.setEmailConfirm, second)).statusCode).toBe(400);
    });

    it('refuses a resend to an address taken meanwhile, and mails nothing', async () => {
      await activeAccount(t, smtp, 'sophie@example.com');
      const { access } = await loginPair(t, 'sophie@example.com');
      await setEmail(access, 'sophie.new@example.com');
      await linksTo('sophie.new@example.com');
      await activeAccount(t, smtp, 'sophie.new@example.com');
      const sent = mailsTo('sophie.new@example.com').length;
      const taken = await resend(access);
      expect(taken.statusCode).toBe(400);
      expect(taken.json()).toEqual({ new_email: ['user with this email already exists.'] });
      await settled();
      expect(mailsTo('sophie.new@example.com').length).toBe(sent);
    });

    it('mails no link for a change no longer waiting: cancelled, or replaced by another', async () => {
      const { id } = await activeAccount(t, smtp, 'gertrude@example.com');
      const { access } = await loginPair(t, 'gertrude@example.com');
      await setEmail(access, 'gertrude.second@example.com');
      await settled();
      // A mail job of the first request still queued when the second was asked for, and one after a cancel.
      const late = (newEmail: string) =>
        t.ctx.jobs.enqueue(t.database.db, mailJob({ kind: 'mail.email-change', payload: { userId: id, newEmail } }));
      const jobId = await late('gertrude.first@example.com');
      await settled();
      expect(mailsTo('gertrude.first@example.com')).toHaveLength(0);
      // Done, as a mail not needed any more is, not failed and tried again.
      const [job] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId!));
      expect(job?.status).toBe('done');
      await cancel(access);
      await late('gertrude.second@example.com');
      await settled();
      expect(mailsTo('gertrude.second@example.com')).toHaveLength(1);
    });

    it('is dropped by a password change, whose new hash the link no longer matches', async () => {
      await activeAccount(t, smtp, 'maryam@example.com');
      const { access } = await loginPair(t, 'maryam@example.com');
      await setEmail(access, 'maryam.new@example.com');
      const change = { current_password: PASSWORD, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD };
      expect((await post(t, API.setPassword, change, bearer(access))).statusCode).toBe(204);
      expect(await pending(access)).toBeNull();
      expect((await resend(access)).statusCode).toBe(400);
    });
  });

  describe('DELETE /api/users/me/ and GET /api/user/export/', () => {
    const remove = (access: string | undefined, body: object) =>
      t.app.inject({ method: 'DELETE', url: API.me, payload: body, headers: access ? bearer(access) : {} });

    async function withContent(email: string) {
      const { id } = await activeAccount(t, smtp, email);
      const { db } = t.database;
      const [category] = await db
        .insert(ownCategories)
        .values({ userId: id, name: `${email} words` })
        .returning();
      await db.insert(ownMessages).values({ userId: id, categoryId: category!.id, messageText: 'I am calm' });
      await db.insert(playerStates).values({
        userId: id,
        playlist: [{ message_text: 'I am calm', source: 'own', message_id: 1 }],
        settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20, theme: 'classic' },
      });
      await db.insert(savedSubliminals).values({
        userId: id,
        name: `${email} evening`,
        playlist: [{ message_text: 'I rest deeply', source: 'library', message_id: 1 }],
        settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20, theme: 'classic' },
        shareToken: `${id}`.padStart(22, 'x'),
      });
      await db.insert(ownTracks).values({ userId: id, name: 'Rain', audioFile: `own-music/${id}/a.mp3`, bytes: 9 });
      await db.insert(removedOwnTracks).values({ id: 900_000 + id, userId: id, name: 'Old sea' });
      await db
        .insert(voiceRecordings)
        .values({ userId: id, text: 'I am calm', audioFile: `own-voice/${id}/a.wav`, bytes: 99, durationMs: 1200 });
      await db.insert(billingAccounts).values({
        userId: id,
        stripeCustomerId: `cus_${id}`,
        stripeSubscriptionId: `sub_${id}`,
        subscriptionStatus: 'active',
        subscriptionPriceId: 'price_pro',
        currentPeriodEnd: new Date('2027-01-04T00:00:00Z'),
      });
      await db.insert(duplicateSubscriptions).values({
        subscriptionId: `sub_second_${id}`,
        userId: id,
        keptSubscriptionId: `sub_${id}`,
        settledAt: new Date('2026-12-04T10:00:00Z'),
        refundId: `re_${id}`,
        refundedAmount: 5600,
        currency: 'usd',
      });
      return { id, ...(await loginPair(t, email)) };
    }

    it('exports everything of the user and nothing of anyone else, as a download', async () => {
      const ada = await withContent('export-ada@example.com');
      await withContent('export-eve@example.com');
      expect((await t.app.inject({ method: 'GET', url: API.userExport })).statusCode).toBe(401);
      const response = await t.app.inject({ method: 'GET', url: API.userExport, headers: bearer(ada.access) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="innerwave-data-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      const data = userExportSchema.parse(response.json());
      expect(data.account).toMatchObject({ id: ada.id, email: 'export-ada@example.com', is_active: true });
      expect(data.profile).toMatchObject({ user_email: 'export-ada@example.com', subscription_plan: 'basic' });
      expect(data.own_categories.map((c) => c.name)).toEqual(['export-ada@example.com words']);
      expect(data.own_categories[0]!.messages.map((m) => m.message_text)).toEqual(['I am calm']);
      expect(data.player.playlist).toHaveLength(1);
      expect(data.saved_subliminals).toEqual([
        expect.objectContaining({
          name: 'export-ada@example.com evening',
          playlist: [{ message_text: 'I rest deeply', source: 'library', message_id: 1 }],
          share: expect.objectContaining({ token: `${ada.id}`.padStart(22, 'x') }),
        }),
      ]);
      expect(data.own_music).toEqual([{ name: 'Rain', bytes: 9, created_at: expect.any(String) }]);
      expect(data.deleted_own_music).toEqual([{ name: 'Old sea', deleted_at: expect.any(String) }]);
      expect(data.voice_recordings).toEqual([
        { text: 'I am calm', duration_ms: 1200, bytes: 99, created_at: expect.any(String) },
      ]);
      expect(data.billing).toEqual({
        stripe_customer_id: `cus_${ada.id}`,
        subscription: {
          id: `sub_${ada.id}`,
          status: 'active',
          price_id: 'price_pro',
          current_period_end: '2027-01-04T00:00:00.000Z',
          cancel_at_period_end: false,
          cancel_at: null,
        },
        second_subscriptions: [
          {
            id: `sub_second_${ada.id}`,
            kept_subscription_id: `sub_${ada.id}`,
            found_at: expect.any(String),
            settled_at: '2026-12-04T10:00:00.000Z',
            refund_id: `re_${ada.id}`,
            refunded_amount: 5600,
            currency: 'usd',
          },
        ],
      });
      expect(response.body).not.toContain('export-eve');
      expect(response.body).not.toContain('password');
    });

    it('sends the saved subliminals a few rows at a time, oldest first, in a file laid out to be read', async () => {
      const ada = await withContent('export-many@example.com');
      const names = Array.from({ length: SUBLIMINALS_PER_READ * 2 + 1 }, (_, index) => `evening ${index}`);
      await t.database.db.insert(savedSubliminals).values(
        names.map((name) => ({
          userId: ada.id,
          name,
          playlist: [{ message_text: name, source: 'library' as const, message_id: 1 }],
          settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20, theme: 'classic' },
        })),
      );
      const response = await t.app.inject({ method: 'GET', url: API.userExport, headers: bearer(ada.access) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe(JSON.stringify(JSON.parse(response.body), null, 2));
      const data = userExportSchema.parse(response.json());
      expect(data.saved_subliminals.map((subliminal) => subliminal.name)).toEqual([
        'export-many@example.com evening',
        ...names,
      ]);
      expect(data.saved_subliminals.at(-1)!.playlist).toEqual([
        { message_text: names.at(-1), source: 'library', message_id: 1 },
      ]);
      expect(Object.keys(data)).toEqual(Object.keys(userExportSchema.shape));
    });

    it('sends the history, the deleted tracks and the support requests a page at a time, whole and in order', async () => {
      const ada = await withContent('export-pages@example.com');
      const { db } = t.database;
      const rows = ROWS_PER_READ * 2 + 1;
      // Times out of id order, three rows alike in each (a page's edge falls within such a three), to the
      // microsecond: the order is the time's, then the id's, with no row twice or left out.
      const time = (n: string) =>
        `timestamptz '2026-11-01T00:00:00Z' + ((${n} * 7919) % ${rows} / 3) * interval '1001 microseconds'`;
      await db.execute(
        sql.raw(`insert into listening_history (user_id, kind, title, seconds, finished, started_at)
          select ${ada.id}, 'subliminal', 'Session ' || n, 60, true, ${time('n')} from generate_series(1, ${rows}) n`),
      );
      await db.execute(
        sql.raw(`insert into removed_own_tracks (id, user_id, name, removed_at)
          select 800000 + n, ${ada.id}, 'Gone ' || n, ${time('n')} from generate_series(1, ${rows}) n`),
      );
      await db.execute(
        sql.raw(`insert into support_requests (user_id, email, plan, subject, message, priority)
          select ${ada.id}, 'export-pages@example.com', 'basic', 'Help ' || n, 'Please', false
          from generate_series(1, ${rows}) n`),
      );
      const response = await t.app.inject({ method: 'GET', url: API.userExport, headers: bearer(ada.access) });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(JSON.stringify(JSON.parse(response.body), null, 2));
      const data = userExportSchema.parse(response.json());
      const history = await db
        .select({ id: listeningHistory.id })
        .from(listeningHistory)
        .where(eq(listeningHistory.userId, ada.id))
        .orderBy(desc(listeningHistory.startedAt), desc(listeningHistory.id));
      expect(data.guidance.listening_history.map((entry) => entry.id)).toEqual(history.map((row) => row.id));
      const deleted = await db
        .select({ name: removedOwnTracks.name })
        .from(removedOwnTracks)
        .where(eq(removedOwnTracks.userId, ada.id))
        .orderBy(asc(removedOwnTracks.removedAt), asc(removedOwnTracks.id));
      expect(data.deleted_own_music.map((track) => track.name)).toEqual(deleted.map((row) => row.name));
      expect(deleted).toHaveLength(rows + 1);
      expect(data.support_requests.map((request) => request.subject)).toEqual(
        Array.from({ length: rows }, (_, index) => `Help ${index + 1}`),
      );
    });

    it('gives its first piece to the socket before the history’s last page is read', async () => {
      const ada = await withContent('export-first-byte@example.com');
      const { db } = t.database;
      const rows = ROWS_PER_READ * 2 + 1;
      await db.execute(
        sql.raw(`insert into listening_history (user_id, kind, title, seconds, finished, started_at)
          select ${ada.id}, 'music', 'Session ' || n, 60, true, now() - n * interval '1 hour'
          from generate_series(1, ${rows}) n`),
      );
      // The pieces the route streams (GET /api/user/export/), taken one at a time as a socket takes them: the
      // buffers between the route and a client hold some, so a test over HTTP would depend on their sizes.
      const pieces = await exportUserJson(
        { db, readProfile: createProfileReader(db, t.ctx.media, t.ctx.notices), publicUrl: t.ctx.config.publicUrl },
        ada.id,
      );
      let text = String((await pieces.next()).value);
      expect(text).toBe('{\n  "exported_at": ');
      // A session recorded now, begun before all the others: it is the history's last, and in the file only when
      // the last page is read after the first piece went out.
      await db.insert(listeningHistory).values({
        userId: ada.id,
        kind: 'music',
        title: 'Recorded while the file went out',
        seconds: 60,
        finished: true,
        startedAt: new Date('2001-01-01T00:00:00Z'),
      });
      for await (const piece of pieces) text += piece;
      const history = userExportSchema.parse(JSON.parse(text)).guidance.listening_history;
      expect(history).toHaveLength(rows + 1);
      expect(history.at(-1)!.title).toBe('Recorded while the file went out');
    });

    it('sends a person one export at a time, and a worker two at once, each place given back as its file ends', async () => {
      // Files larger than the buffers between the route and an answer no one reads yet: held open until read.
      const withLargeFile = async (email: string) => {
        const person = await withContent(email);
        await t.database.db.insert(savedSubliminals).values(
          Array.from({ length: 30 }, (_, index) => ({
            userId: person.id,
            name: `${email} ${index}`,
            playlist: Array.from({ length: 100 }, (_, message) => ({
              message_text: `I breathe slowly and my shoulders soften, ${index}.${message}`,
              source: 'library' as const,
              message_id: 1,
            })),
            settings: {
              flashSpeed: 100,
              displayInterval: 2000,
              messageColor: '#00DC82',
              fontSize: 20,
              theme: 'classic',
            },
          })),
        );
        return person;
      };
      const exportOf = (access: string, payloadAsStream = false) =>
        t.app.inject({ method: 'GET', url: API.userExport, headers: bearer(access), payloadAsStream });
      const readWhole = async (stream: NodeJS.ReadableStream) => {
        let text = '';
        for await (const chunk of stream) text += String(chunk);
        return text;
      };
      expect(EXPORTS_AT_ONCE).toBe(2);
      const [ada, bob, eve] = [
        await withLargeFile('export-held-ada@example.com'),
        await withLargeFile('export-held-bob@example.com'),
        await withContent('export-held-eve@example.com'),
      ];

      const adaFirst = await exportOf(ada.access, true);
      expect(adaFirst.statusCode).toBe(200);
      const adaAgain = await exportOf(ada.access);
      expect(adaAgain.statusCode).toBe(429);
      expect(adaAgain.json()).toEqual({ detail: EXPORT_UNDER_WAY_TEXT });
      // Eve's small file is sent whole at once, and its place is free again for Bob.
      expect((await exportOf(eve.access)).statusCode).toBe(200);
      const bobFirst = await exportOf(bob.access, true);
      expect(bobFirst.statusCode).toBe(200);
      const eveBusy = await exportOf(eve.access);
      expect(eveBusy.statusCode).toBe(503);
      expect(eveBusy.headers['retry-after']).toBe('30');

      const adaFile = userExportSchema.parse(JSON.parse(await readWhole(adaFirst.stream())));
      expect(adaFile.saved_subliminals).toHaveLength(31);
      expect((await exportOf(eve.access)).statusCode).toBe(200);
      expect((await exportOf(ada.access)).statusCode).toBe(200);
      await readWhole(bobFirst.stream());
    });

    it('exports no saved subliminals as an empty list', async () => {
      await activeAccount(t, smtp, 'export-none@example.com');
      const { access } = await loginPair(t, 'export-none@example.com');
      const response = await t.app.inject({ method: 'GET', url: API.userExport, headers: bearer(access) });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('"saved_subliminals": []');
      expect(userExportSchema.parse(response.json()).saved_subliminals).toEqual([]);
    });

    it('deletes the account with its rows and image only after the password, and leaves others alone', async () => {
      const ada = await withContent('delete-ada@example.com');
      const eve = await withContent('delete-eve@example.com');
      const { db } = t.database;
      const image = 'profile-images/delete-ada.jpg';
      const imagePath = path.join(mediaDir(t.dataDir), image);
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(path.dirname(imagePath), { recursive: true });
      await writeFile(imagePath, 'jpeg');
      await db.update(profiles).set({ profileImage: image }).where(eq(profiles.userId, ada.id));

      expect((await remove(undefined, { current_password: PASSWORD })).statusCode).toBe(401);
      const wrong = await remove(ada.access, { current_password: 'Wrong-Password-1' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ current_password: [SELF_SERVICE_MESSAGES.invalidPassword] });
      expect((await remove(ada.access, {})).json()).toEqual({ current_password: [MESSAGES.required] });
      expect((await me(ada.access)).statusCode).toBe(200);

      const done = await remove(ada.access, { current_password: PASSWORD });
      expect(done.statusCode).toBe(204);
      expect((await me(ada.access)).statusCode).toBe(401);
      expect((await post(t, API.tokenCreate, { email: 'delete-ada@example.com', password: PASSWORD })).statusCode).toBe(
        401,
      );
      for (const table of [profiles, ownCategories, ownMessages, playerStates, savedSubliminals, sessions]) {
        expect(await db.select().from(table).where(eq(table.userId, ada.id))).toEqual([]);
        expect((await db.select().from(table).where(eq(table.userId, eve.id))).length).toBeGreaterThan(0);
      }
      expect(await db.select().from(users).where(eq(users.id, ada.id))).toEqual([]);
      expect(existsSync(imagePath)).toBe(false);
      expect((await me(eve.access)).statusCode).toBe(200);
    });
  });
});

describe('self-service limits', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, smtp, close } = await startAccountsApp({ AUTH_RATE_LIMIT_PER_EMAIL: '3' }));
  });
  afterAll(() => close());

  it('limits the resends of a change of e-mail address with its requests, per address asked for', async () => {
    await activeAccount(t, smtp, 'resender@example.com');
    const { access } = await loginPair(t, 'resender@example.com');
    const ask = { current_password: PASSWORD, new_email: 'resent-to@example.com' };
    const statuses = [(await post(t, API.setEmail, ask, bearer(access))).statusCode];
    for (let i = 0; i < 3; i++)
      statuses.push((await post(t, API.setEmailResend, undefined, bearer(access))).statusCode);
    // The request and two resends made three mails to the address: a new request for it is over the limit too.
    statuses.push((await post(t, API.setEmail, ask, bearer(access))).statusCode);
    expect(statuses).toEqual([204, 204, 204, 429, 429]);
  });

  it('limits resends per address, as the other account mails', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await post(t, API.resendActivation, { email: 'flood@example.com' })).statusCode);
    expect(statuses).toEqual([204, 204, 204, 429]);
  });

  it("answers a reset request as djoser does whoever else asked for the address, and mails it at most the limit's number of links", async () => {
    await activeAccount(t, smtp, 'inbox@example.com');
    const ask = (email: string, remoteAddress: string) =>
      t.app
        .inject({ method: 'POST', url: API.resetPassword, payload: { email }, remoteAddress })
        .then((response) => response.statusCode);
    const clients = ['203.0.113.1', '203.0.113.1', '198.51.100.2', '203.0.113.1', '203.0.113.1', '198.51.100.2'];
    const statuses: Record<string, number[]> = { 'inbox@example.com': [], 'no-account@example.com': [] };
    for (const [email, answers] of Object.entries(statuses))
      for (const client of clients) answers.push(await ask(email, client));
    // Only the client that asked too often is refused; the person asking from elsewhere is answered 204, as
    // for an address with no account.
    expect(statuses).toEqual({
      'inbox@example.com': [204, 204, 204, 204, 429, 204],
      'no-account@example.com': [204, 204, 204, 204, 429, 204],
    });
    await t.ctx.jobs.settled();
    const resets = smtp.mails.filter(
      (mail) => mail.to.includes('inbox@example.com') && mail.subject.includes('password'),
    );
    expect(resets).toHaveLength(3);
  });

  it("mails a new address asked for by several accounts at most the limit's number of times, refusing the rest", async () => {
    const statuses: number[] = [];
    for (const [i, client] of ['203.0.113.3', '198.51.100.4'].entries()) {
      await activeAccount(t, smtp, `mover-${i}@example.com`);
      const { access } = await loginPair(t, `mover-${i}@example.com`);
      for (let j = 0; j < 2; j++)
        statuses.push(
          (
            await t.app.inject({
              method: 'POST',
              url: API.setEmail,
              payload: { current_password: PASSWORD, new_email: 'wanted@example.com' },
              headers: bearer(access),
              remoteAddress: client,
            })
          ).statusCode,
        );
    }
    expect(statuses).toEqual([204, 204, 204, 429]);
  });

  it("counts only wrong links against their account, so no one can spend a person's attempts and refuse their own link", async () => {
    const { mail } = await signupAndReadMail(t, smtp, 'linked@example.com');
    const link = linkParams(mail, 'activation');
    const wrong = { uid: link.uid, token: `${link.token.slice(0, -1)}${link.token.endsWith('A') ? 'B' : 'A'}` };
    const statuses: number[] = [];
    // A stranger sends wrong tokens with the person's uid (ids are sequential): three are answered 400, then 429.
    for (let i = 0; i < 4; i++) statuses.push((await post(t, API.activation, wrong)).statusCode);
    // The person's own link still works, and a right one is never counted.
    statuses.push((await post(t, API.activation, link)).statusCode);
    const resetAsked = await post(t, API.resetPassword, { email: 'linked@example.com' });
    expect(resetAsked.statusCode).toBe(204);
    await t.ctx.jobs.settled();
    const reset = linkParams(
      await smtp.waitFor((m) => m.to.includes('linked@example.com') && m.subject.includes('password')),
      'password-reset',
    );
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await post(t, API.resetPasswordConfirm, {
            ...reset,
            token: wrong.token,
            new_password: NEW_PASSWORD,
            re_new_password: NEW_PASSWORD,
          })
        ).statusCode,
      );
    const confirmed = { ...reset, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD };
    statuses.push((await post(t, API.resetPasswordConfirm, confirmed)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429, 204, 400, 400, 400, 429, 204]);
  });

  it('limits guesses of the current password per account, across the calls that check it', async () => {
    await activeAccount(t, smtp, 'guessed@example.com');
    const { access } = await loginPair(t, 'guessed@example.com');
    const guess = { current_password: 'Guess-Number-1' };
    const statuses = [
      (
        await post(
          t,
          API.setPassword,
          { ...guess, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD },
          bearer(access),
        )
      ).statusCode,
      (await post(t, API.setEmail, { ...guess, new_email: 'other@example.com' }, bearer(access))).statusCode,
      (await t.app.inject({ method: 'DELETE', url: API.me, payload: guess, headers: bearer(access) })).statusCode,
    ];
    const last = await t.app.inject({ method: 'DELETE', url: API.me, payload: guess, headers: bearer(access) });
    expect([...statuses, last.statusCode]).toEqual([400, 400, 400, 429]);
    expect(last.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('lets the person sign out everywhere else while a stolen session elsewhere has spent its guesses', async () => {
    await activeAccount(t, smtp, 'stolen@example.com');
    const thief = await loginPair(t, 'stolen@example.com');
    const own = await loginPair(t, 'stolen@example.com');
    const signOutOthers = (access: string, current_password: string, remoteAddress: string) =>
      t.app
        .inject({
          method: 'POST',
          url: API.logoutOthers,
          payload: { current_password },
          headers: bearer(access),
          remoteAddress,
        })
        .then((response) => response.statusCode);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await signOutOthers(thief.access, `Guess-Number-${i}`, '203.0.113.5'));
    statuses.push(await signOutOthers(own.access, PASSWORD, '198.51.100.6'));
    expect(statuses).toEqual([400, 400, 400, 429, 200]);
  });

  it('counts wrong passwords to sign out everywhere else with the same guesses, and the right one not at all', async () => {
    await activeAccount(t, smtp, 'signedout@example.com');
    const { access } = await loginPair(t, 'signedout@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await post(t, API.logoutOthers, { current_password: PASSWORD }, bearer(access))).statusCode);
    for (const guess of ['Guess-Number-1', 'Guess-Number-2', 'Guess-Number-3', PASSWORD])
      statuses.push((await post(t, API.logoutOthers, { current_password: guess }, bearer(access))).statusCode);
    // Another call that checks the password is locked as well.
    const change = { current_password: PASSWORD, new_email: 'signedout-2@example.com' };
    statuses.push((await post(t, API.setEmail, change, bearer(access))).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 400, 400, 400, 429, 429]);
  });

  it('counts only wrong guesses: changes made with the right password never lock the account', async () => {
    await activeAccount(t, smtp, 'changer@example.com');
    const { access } = await loginPair(t, 'changer@example.com');
    const passwords = [PASSWORD, NEW_PASSWORD];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [current, next] = [passwords[i % 2]!, passwords[(i + 1) % 2]!];
      const change = { current_password: current, new_password: next, re_new_password: next };
      statuses.push((await post(t, API.setPassword, change, bearer(access))).statusCode);
    }
    for (let i = 0; i < 2; i++) {
      const ask = { current_password: PASSWORD, new_email: `changer-${i}@example.com` };
      statuses.push((await post(t, API.setEmail, ask, bearer(access))).statusCode);
    }
    const wrong = { current_password: 'Guess-Number-1', new_email: 'changer-9@example.com' };
    statuses.push((await post(t, API.setEmail, wrong, bearer(access))).statusCode);
    expect(statuses).toEqual([204, 204, 204, 204, 204, 204, 400]);
  });

  it('counts no change refused for another reason than the password: the person is not locked out', async () => {
    await activeAccount(t, smtp, 'picky@example.com');
    const { access } = await loginPair(t, 'picky@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const common = { current_password: PASSWORD, new_password: 'password', re_new_password: 'password' };
      statuses.push((await post(t, API.setPassword, common, bearer(access))).statusCode);
      const same = { current_password: PASSWORD, new_email: 'picky@example.com' };
      statuses.push((await post(t, API.setEmail, same, bearer(access))).statusCode);
    }
    const change = { current_password: PASSWORD, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD };
    statuses.push((await post(t, API.setPassword, change, bearer(access))).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 204]);
  });
});
