import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API } from '@shared/contract';
import type { TestApp } from '../test/test-app';
import type { SmtpCapture } from '../test/smtp';
import { profiles, users } from '../db/schema';
import { jobs } from '../jobs/table';
import { createServerJobRunner, WAITING_ACCOUNT_PURGE_EVERY_MS, WAITING_ACCOUNT_PURGE_JOB } from '../jobs/server-jobs';
import { encodeUid } from './account-tokens';
import { ACCOUNT_MESSAGES } from './accounts';
import {
  accountRow,
  activeAccount,
  linkParams,
  post,
  signUp,
  signupAndReadMail,
  startAccountsApp,
} from './test-helpers';

// An account never activated goes a day after its last activation link expired, with its rows, by the server's hourly
// job; accounts active, deactivated by staff or with a link still working stay
// (docs/decisions/110-an-account-waiting-for-its-link-gives-way-and-ends.md).

const HOUR = 60 * 60_000;

let t: TestApp;
let smtp: SmtpCapture;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, smtp, close } = await startAccountsApp());
});
afterAll(() => close());

const profileRow = async (id: number) =>
  (await t.database.db.select().from(profiles).where(eq(profiles.userId, id)))[0];
/** Makes the account's last activation link one asked for `ago` ms before now, and any other change of it too. */
const lastAskedAgo = (id: number, ago: number, also: Partial<typeof users.$inferInsert> = {}) =>
  t.database.db
    .update(users)
    .set({ createdAt: new Date(Date.now() - ago), updatedAt: new Date(Date.now() - ago), ...also })
    .where(eq(users.id, id));

/** Runs the server's jobs as a primary does at its start: the purge is due at once. */
async function primaryStarts() {
  const ran: string[] = [];
  const log = {
    info: (fields: { kind?: string }, message: string) => {
      if (message === 'job done' && fields.kind) ran.push(fields.kind);
    },
    error: () => undefined,
  } as never;
  const { runner, close: closeRunner } = createServerJobRunner({
    config: t.ctx.config,
    db: t.database.db,
    files: t.ctx.mediaFiles,
    notices: t.ctx.notices,
    log,
  });
  await runner.settled();
  await runner.stop(0);
  closeRunner();
  return ran;
}

describe('accounts never activated', () => {
  it('go a day after their last link expired, with their rows; the others stay, and the address is free', async () => {
    const linkLifetime = t.ctx.config.tokens.activationTtlSeconds * 1000;
    const expired = await signupAndReadMail(t, smtp, 'long.gone@example.com');
    await lastAskedAgo(expired.id, linkLifetime + 25 * HOUR);
    const justExpired = await signupAndReadMail(t, smtp, 'just.expired@example.com');
    await lastAskedAgo(justExpired.id, linkLifetime + 23 * HOUR);
    const fresh = await signupAndReadMail(t, smtp, 'fresh@example.com');
    // Signed up long ago, and a new link asked for today: it works through the purge.
    const resent = await signupAndReadMail(t, smtp, 'resent@example.com');
    await lastAskedAgo(resent.id, linkLifetime + 25 * HOUR);
    expect((await post(t, API.resendActivation, { email: 'resent@example.com' })).statusCode).toBe(204);
    await t.ctx.jobs.settled();
    const resentMail = await smtp.waitFor(
      (m) => m.to.includes('resent@example.com') && m.subject.includes('Activate') && m !== resent.mail,
    );
    const active = await activeAccount(t, smtp, 'active@example.com');
    await lastAskedAgo(active.id, linkLifetime + 25 * HOUR);
    const deactivated = await signupAndReadMail(t, smtp, 'deactivated@example.com');
    await lastAskedAgo(deactivated.id, linkLifetime + 25 * HOUR, { deactivatedAt: new Date(Date.now() - 30 * HOUR) });
    // Inactive and never deactivated, yet logged in once: it was active, so it is not one that waits.
    const loggedInOnce = await signupAndReadMail(t, smtp, 'logged.in.once@example.com');
    await lastAskedAgo(loggedInOnce.id, linkLifetime + 25 * HOUR, { lastLogin: new Date(Date.now() - 30 * HOUR) });

    const purgedAt = Date.now();
    expect(await primaryStarts()).toContain(WAITING_ACCOUNT_PURGE_JOB);

    expect(await accountRow(t, expired.id)).toBeUndefined();
    expect(await profileRow(expired.id)).toBeUndefined();
    for (const kept of [justExpired, fresh, resent, active, deactivated, loggedInOnce])
      expect(await accountRow(t, kept.id), String(kept.id)).toBeDefined();
    expect((await post(t, API.activation, linkParams(resentMail, 'activation'))).statusCode).toBe(204);
    expect((await post(t, API.activation, linkParams(expired.mail, 'activation'))).json()).toEqual({
      uid: [ACCOUNT_MESSAGES.invalidUid],
    });

    // An ordinary sign-up: a new account, with its profile and its activation mail.
    const again = await signUp(t, 'Long.Gone@example.com', 'Brand-New-Lantern-61');
    expect(again.statusCode).toBe(201);
    const newId = again.json<{ id: number }>().id;
    expect(newId).not.toBe(expired.id);
    expect(await profileRow(newId)).toMatchObject({ subscriptionPlan: 'basic' });
    await t.ctx.jobs.settled();
    const newLink = await smtp.waitFor((m) => m.text.includes(`/activation/${encodeUid(newId)}/`));
    expect((await post(t, API.activation, linkParams(newLink, 'activation'))).statusCode).toBe(204);

    // The next purge is an hour after this one: the job stays, queued.
    const [job, ...more] = await t.database.db.select().from(jobs).where(eq(jobs.kind, WAITING_ACCOUNT_PURGE_JOB));
    expect(more).toEqual([]);
    expect(job).toMatchObject({ status: 'queued', attempts: 0 });
    expect(job!.runAt.getTime()).toBeGreaterThanOrEqual(purgedAt + WAITING_ACCOUNT_PURGE_EVERY_MS);
  });
});
