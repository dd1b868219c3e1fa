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
import { activeAccount, post, signupAndReadMail, startAccountsApp } from './test-helpers';

// An account staff deactivated gets no activation link; only staff bring it back
// (docs/product/accounts.md#inactive-accounts).

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

  it('mails nothing when staff deactivate an account after its activation mail was queued', async () => {
    const { id } = await signupAndReadMail(t, smtp, 'blocked-d@example.com');
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
  });
});
