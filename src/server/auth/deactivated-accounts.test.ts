import { PassThrough, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { runCli } from '../admin/cli';
import { mailJob } from '../jobs/mail-kinds';
import { jobs } from '../jobs/table';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import type { SmtpCapture } from '../test/smtp';
import { testEnv, type TestApp } from '../test/test-app';
import { SELF_SERVICE_MESSAGES } from './self-service';
import {
  activeAccount,
  linkParams,
  loginPair,
  PASSWORD,
  post,
  signupAndReadMail,
  startAccountsApp,
} from './test-helpers';

// An account staff deactivated gets no activation link, no link brings it back (only staff do) and no
// link changes its address (docs/product/accounts.md#inactive-accounts).

const INVALID_TOKEN = { token: ['Invalid token for given user.'] };

describe('accounts deactivated by staff', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let close: () => Promise<void>;
  let staff: SignedInUser;
  beforeAll(async () => {
    ({ t, smtp, close } = await startAccountsApp());
    staff = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
  });
  afterAll(() => close());

  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.toLowerCase().includes(email.toLowerCase()));
  const setActive = async (id: number, isActive: boolean) => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${id}/`,
      headers: staff.headers,
      payload: { is_active: isActive },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const cli = async (...args: string[]) => {
    const io = { stdin: Readable.from(['']), stdout: new PassThrough(), stderr: new PassThrough() };
    const code = await runCli(args, io, { database: t.database, env: testEnv(t.dataDir) });
    expect(code).toBe(0);
  };
  const login = (email: string, password: string) => post(t, API.tokenCreate, { email, password });
  /** Asks for a resend for `email` and for a never-activated control account; answers when both were handled. */
  const resendBesideControl = async (email: string, control: string) => {
    const before = mailsTo(control).length;
    for (const address of [email, control]) {
      const response = await post(t, API.resendActivation, { email: address });
      expect([response.statusCode, response.body]).toEqual([204, '']);
    }
    await t.ctx.jobs.settled();
    await smtp.waitFor(() => mailsTo(control).length > before);
  };

  it('answers a resend for it as for any address, and mails nothing, after a deactivation in the admin or the CLI', async () => {
    await signupAndReadMail(t, smtp, 'waiting-a@example.com');
    const viaAdmin = await activeAccount(t, smtp, 'blocked-a@example.com');
    await setActive(viaAdmin.id, false);
    await activeAccount(t, smtp, 'blocked-a2@example.com');
    await cli('deactivate', 'blocked-a2@example.com');
    const before = { admin: mailsTo('blocked-a@').length, cli: mailsTo('blocked-a2@').length };
    await resendBesideControl('blocked-a@example.com', 'waiting-a@example.com');
    await resendBesideControl('blocked-a2@example.com', 'waiting-a@example.com');
    expect({ admin: mailsTo('blocked-a@').length, cli: mailsTo('blocked-a2@').length }).toEqual(before);
  });

  it('refuses the link it was activated with, as a wrong link, after a deactivation in the admin or the CLI', async () => {
    // Never logged in: without the deactivation in the link's state, the account is as the link found it.
    const viaAdmin = await signupAndReadMail(t, smtp, 'blocked-b@example.com');
    const adminLink = linkParams(viaAdmin.mail, 'activation');
    expect((await post(t, API.activation, adminLink)).statusCode).toBe(204);
    await setActive(viaAdmin.id, false);
    const refused = await post(t, API.activation, adminLink);
    expect([refused.statusCode, refused.json()]).toEqual([400, INVALID_TOKEN]);
    expect((await login('blocked-b@example.com', PASSWORD)).statusCode).toBe(401);

    const viaCli = await signupAndReadMail(t, smtp, 'blocked-c@example.com');
    const cliLink = linkParams(viaCli.mail, 'activation');
    expect((await post(t, API.activation, cliLink)).statusCode).toBe(204);
    await cli('deactivate', 'blocked-c@example.com');
    const refusedToo = await post(t, API.activation, cliLink);
    expect([refusedToo.statusCode, refusedToo.json()]).toEqual([400, INVALID_TOKEN]);
    expect((await login('blocked-c@example.com', PASSWORD)).statusCode).toBe(401);
  });

  it('mails nothing when staff deactivate an account after its activation mail was queued, and kills its link', async () => {
    const { id, mail } = await signupAndReadMail(t, smtp, 'blocked-d@example.com');
    const before = mailsTo('blocked-d@example.com').length;
    const jobId = await t.ctx.jobs.enqueue(t.database.db, {
      ...mailJob({ kind: 'mail.activation', payload: { userId: id } }),
      runAt: new Date(Date.now() + 3_600_000),
    });
    await setActive(id, false);
    // The queued mail falls due now, after the deactivation.
    await t.database.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, jobId!));
    await t.ctx.jobs.settled();
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId!));
    expect(job?.status).toBe('done');
    expect(mailsTo('blocked-d@example.com')).toHaveLength(before);
    // The link of its signup mail no longer activates it either.
    const refused = await post(t, API.activation, linkParams(mail, 'activation'));
    expect([refused.statusCode, refused.json()]).toEqual([400, INVALID_TOKEN]);
  });

  it('keeps its address when a pending e-mail change is confirmed after a deactivation, and after a reactivation', async () => {
    const { id } = await activeAccount(t, smtp, 'blocked-f@example.com');
    const { access } = await loginPair(t, 'blocked-f@example.com');
    const asked = await post(
      t,
      API.setEmail,
      { current_password: PASSWORD, new_email: 'moved-f@example.com' },
      { authorization: `Bearer ${access}` },
    );
    expect(asked.statusCode, asked.body).toBe(204);
    await t.ctx.jobs.settled();
    const link = linkParams(await smtp.waitFor((m) => m.to.includes('moved-f@example.com')), 'email/confirm');

    await setActive(id, false);
    const dead = { token: [SELF_SERVICE_MESSAGES.emailLinkInvalid] };
    const refused = await post(t, API.setEmailConfirm, link);
    expect([refused.statusCode, refused.json()]).toEqual([400, dead]);
    await setActive(id, true);
    const stillRefused = await post(t, API.setEmailConfirm, link);
    expect([stillRefused.statusCode, stillRefused.json()]).toEqual([400, dead]);
    const { access: again } = await loginPair(t, 'blocked-f@example.com');
    // The change was dropped with its link: the profile shows none waiting.
    const waiting = await t.app.inject({
      method: 'GET',
      url: API.setEmail,
      headers: { authorization: `Bearer ${again}` },
    });
    expect(waiting.json()).toEqual({ pending: null });
  });

  it('mails no e-mail change link once staff deactivated the account, even one asked for before', async () => {
    const { id } = await activeAccount(t, smtp, 'blocked-g@example.com');
    await setActive(id, false);
    const payload = { userId: id, newEmail: 'moved-g@example.com' };
    const jobId = await t.ctx.jobs.enqueue(t.database.db, mailJob({ kind: 'mail.email-change', payload }));
    await t.ctx.jobs.settled();
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId!));
    expect(job?.status).toBe('done');
    expect(mailsTo('moved-g@example.com')).toHaveLength(0);
  });

  it('is a normal account again once staff reactivate it, until they deactivate it again', async () => {
    await signupAndReadMail(t, smtp, 'waiting-e@example.com');
    const { id, mail } = await signupAndReadMail(t, smtp, 'blocked-e@example.com');
    const link = linkParams(mail, 'activation');
    expect((await post(t, API.activation, link)).statusCode).toBe(204);

    // A deactivation and a reactivation in the admin, the person never logging in meanwhile: the state
    // the link signed comes back but for the deactivation, so the link is dead, not merely stale.
    await setActive(id, false);
    await setActive(id, true);
    const dead = await post(t, API.activation, link);
    expect([dead.statusCode, dead.json()]).toEqual([400, INVALID_TOKEN]);

    // Deactivated again (in the CLI): the old link and a resend do nothing, the login is refused.
    await cli('deactivate', 'blocked-e@example.com');
    const refused = await post(t, API.activation, link);
    expect([refused.statusCode, refused.json()]).toEqual([400, INVALID_TOKEN]);
    const before = mailsTo('blocked-e@example.com').length;
    await resendBesideControl('blocked-e@example.com', 'waiting-e@example.com');
    expect(mailsTo('blocked-e@example.com')).toHaveLength(before);
    expect((await login('blocked-e@example.com', PASSWORD)).statusCode).toBe(401);

    // Reactivated in the CLI: it signs in.
    await cli('activate', 'blocked-e@example.com');
    expect((await login('blocked-e@example.com', PASSWORD)).statusCode).toBe(200);
  });
});
