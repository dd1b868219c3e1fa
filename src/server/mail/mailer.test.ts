import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { readOutbox } from '../test/eml';
import { unusedPort } from '../test/ports';
import { createTestApp } from '../test/test-app';
import { eq } from 'drizzle-orm';
import { jobs } from '../jobs/table';
import { createMailer } from './mailer';
import { activationMail } from './templates';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-mail-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A log that keeps what it was told, to check the lines a person reads. */
function recordingLog() {
  const lines: Array<{ level: 'info' | 'error'; fields: object; message: string }> = [];
  return {
    lines,
    info: (fields: object, message: string) => void lines.push({ level: 'info', fields, message }),
    error: (fields: object, message: string) => void lines.push({ level: 'error', fields, message }),
  };
}

describe('mailer', () => {
  it('without SMTP writes a complete .eml into the outbox and logs the link', async () => {
    const dataDir = tempDir();
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Innerwave <no-reply@innerwave.test>',
      dataDir,
      logLinks: true,
    });
    const log = recordingLog();
    const link = 'http://innerwave.test/activation/MQ/abc-def';
    await mailer.send(activationMail('zoe@example.com', link, 3), log as never);

    const files = readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[^.].*\.eml$/);
    const [mail] = await readOutbox(path.join(dataDir, 'outbox'));
    expect(mail).toMatchObject({
      to: 'zoe@example.com',
      from: 'Innerwave <no-reply@innerwave.test>',
      subject: 'Activate your Innerwave account',
    });
    expect(mail!.text).toContain(link);
    expect(mail!.html).toContain(`href="${link}"`);
    expect(log.lines).toEqual([expect.objectContaining({ level: 'info', message: expect.stringContaining(link) })]);
  });

  it('rejects when the mail server cannot be reached', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${await unusedPort()}`,
      from: 'Innerwave <a@b.test>',
      dataDir: tempDir(),
      logLinks: true,
    });
    const log = recordingLog();
    await expect(mailer.send(activationMail('zoe@example.com', 'http://x.test/a', 3), log as never)).rejects.toThrow();
    expect(log.lines).toEqual([]);
  });

  it('answers a signup with 201 while the mail server is down, the mail waiting for a retry', async () => {
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${await unusedPort()}` });
    try {
      const password = 'Quiet-Harbour-58';
      const signup = await t.app.inject({
        method: 'POST',
        url: API.signup,
        payload: { email: 'down@example.com', password, re_password: password, accept_terms: true },
      });
      expect(signup.statusCode).toBe(201);
      await t.ctx.jobs.settled();
      // The mail was written with the account, and waits for its next attempt.
      const [job] = await t.database.db.select().from(jobs);
      expect(job).toMatchObject({ kind: 'mail.activation', status: 'failed', attempts: 1 });
      expect(job!.lastError).toMatch(/ECONNREFUSED|connect/i);
      expect(job!.runAt.getTime()).toBeGreaterThan(Date.now());
      expect(JSON.stringify(job!.payload)).not.toContain('token');
    } finally {
      await t.close();
    }
  });

  it("gives a job's mail one Message-ID, the same when the job runs again after the mail went out", async () => {
    const t = await createTestApp();
    try {
      const password = 'Quiet-Harbour-58';
      const signup = (email: string) =>
        t.app.inject({
          method: 'POST',
          url: API.signup,
          payload: { email, password, re_password: password, accept_terms: true },
        });
      expect((await signup('once@example.com')).statusCode).toBe(201);
      await t.ctx.jobs.settled();
      // The runner stopped after the mail server took the mail and before the job was marked done: its lease
      // runs out and the job runs again.
      const [job] = await t.database.db.select().from(jobs);
      await t.database.db.update(jobs).set({ status: 'queued', runAt: new Date() }).where(eq(jobs.id, job!.id));
      await t.ctx.jobs.settled();
      expect((await signup('other@example.com')).statusCode).toBe(201);
      await t.ctx.jobs.settled();

      const mails = await readOutbox(t.ctx.mailer.outboxDir!);
      const to = (email: string) => mails.filter((mail) => mail.to === email).map((mail) => mail.messageId);
      const [first, again] = to('once@example.com');
      expect(first).toMatch(/^<job-\d+\.[0-9a-z]+@innerwave\.app>$/);
      expect(again).toBe(first);
      expect(to('other@example.com')).toEqual([expect.not.stringMatching(first!)]);
    } finally {
      await t.close();
    }
  });
});
