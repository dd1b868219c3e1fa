import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { waitingOnLocks } from '../test/database';
import { insertJob } from '../jobs/queue';
import { mailJob } from '../jobs/mail-kinds';
import { API } from '@shared/contract';
import type { TestApp } from '../test/test-app';
import type { SmtpCapture } from '../test/smtp';
import { profiles, users } from '../db/schema';
import { jobs } from '../jobs/table';
import { createServerJobRunner, WAITING_ACCOUNT_PURGE_EVERY_MS, WAITING_ACCOUNT_PURGE_JOB } from '../jobs/server-jobs';
import { encodeUid } from './account-tokens';
import { ACCOUNT_MESSAGES } from './accounts';
import { purgeWaitingAccounts, removeWaitingAccount } from './waiting-accounts';
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
// (docs/decisions/110-an-account-waiting-for-its-link-gives-way-and-ends.md); a resend at the purge's moment ends
// with a link or a mail saying to sign up again, and the purge lets the server's other work go between its steps
// (docs/decisions/118-a-resend-meets-the-purge-and-the-purge-takes-turns.md).

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

/** The account's last link a week old: the purge takes it. */
const longExpired = (id: number) => lastAskedAgo(id, t.ctx.config.tokens.activationTtlSeconds * 1000 + 4 * 24 * HOUR);
const purgeBefore = () => new Date(Date.now() - t.ctx.config.tokens.activationTtlSeconds * 1000 - 24 * HOUR);
const signUpAgainMail = (email: string) =>
  smtp.waitFor((m) => m.to.includes(email) && m.subject === 'Sign up again for Innerwave');

describe('a resend of the activation link at the purge’s moment', () => {
  it('after the purge took the account: answered 204, and the mailbox is told to sign up again, which it can', async () => {
    const { id } = await signupAndReadMail(t, smtp, 'asked.late@example.com');
    await longExpired(id);
    expect(await purgeWaitingAccounts(t.database.db, purgeBefore())).toBe(1);

    const resent = await post(t, API.resendActivation, { email: 'Asked.Late@example.com', redirect: '/s/AbC123' });
    expect(resent.statusCode).toBe(204);
    await t.ctx.jobs.settled();
    const told = await signUpAgainMail('Asked.Late@example.com');
    expect(told.text).toContain('no account with this address waits for activation');
    expect(told.links).toContain(`${t.ctx.config.publicUrl}/signup?redirect=%2Fs%2FAbC123`);
    expect((await signUp(t, 'asked.late@example.com')).statusCode).toBe(201);
  });

  it('for an address an active or deactivated account holds: nothing is sent, as before', async () => {
    await activeAccount(t, smtp, 'asked.active@example.com');
    const deactivated = await signupAndReadMail(t, smtp, 'asked.deactivated@example.com');
    await lastAskedAgo(deactivated.id, 0, { deactivatedAt: new Date() });
    const before = smtp.mails.length;
    for (const email of ['asked.active@example.com', 'asked.deactivated@example.com'])
      expect((await post(t, API.resendActivation, { email })).statusCode).toBe(204);
    await t.ctx.jobs.settled();
    expect(smtp.mails.slice(before)).toEqual([]);
  });

  it('with its mail not sent yet (queued, or failed and waiting to try again): the purge leaves the account to it', async () => {
    const queued = await signupAndReadMail(t, smtp, 'in.flight@example.com');
    const retried = await signupAndReadMail(t, smtp, 'retried@example.com');
    for (const { id } of [queued, retried]) await longExpired(id);
    const later = new Date(Date.now() + HOUR);
    await insertJob(t.database.db, {
      ...mailJob({ kind: 'mail.activation', payload: { email: 'IN.flight@example.com' } }),
      runAt: later,
    });
    const failed = await insertJob(t.database.db, {
      ...mailJob({ kind: 'mail.activation', payload: { userId: retried.id } }),
      runAt: later,
    });
    await t.database.db.update(jobs).set({ status: 'failed', attempts: 1 }).where(eq(jobs.id, failed!));

    expect(await purgeWaitingAccounts(t.database.db, purgeBefore())).toBe(0);
    expect(await accountRow(t, queued.id)).toBeDefined();
    expect(await accountRow(t, retried.id)).toBeDefined();
    await t.database.db.delete(jobs).where(eq(jobs.runAt, later));
    for (const { id } of [queued, retried]) await t.database.db.delete(users).where(eq(users.id, id));
  });
});

describe('the purge in steps', () => {
  it('reads the accounts a window of ids at a time, and deletes every expired one whatever the windows', async () => {
    const accounts = [];
    for (const name of ['step.one', 'step.two', 'step.three', 'step.kept'])
      accounts.push(await signupAndReadMail(t, smtp, `${name}@example.com`));
    for (const { id } of accounts.slice(0, 3)) await longExpired(id);
    expect(await purgeWaitingAccounts(t.database.db, purgeBefore(), { scanIds: 1 })).toBe(3);
    expect(await accountRow(t, accounts[3]!.id)).toBeDefined();
  });

  it('lets the event loop turn between its steps: the embedded database answers without handing it back', async () => {
    const { id } = await signupAndReadMail(t, smtp, 'step.turns@example.com');
    await longExpired(id);
    const order: string[] = [];
    setImmediate(() => order.push('the event loop turned'));
    await purgeWaitingAccounts(t.database.db, purgeBefore());
    order.push('purge done');
    expect(order).toEqual(['the event loop turned', 'purge done']);
  });
});

// PGlite runs one transaction at a time: only PostgreSQL can hold the account's row while the other waits.
describe.runIf(inject('dbKind') === 'postgres')('a resend and the purge on one account at the same moment', () => {
  it('the purge first: the resend’s mail waits for it, then tells the mailbox to sign up again', async () => {
    const { id } = await signupAndReadMail(t, smtp, 'race.purged@example.com');
    await longExpired(id);
    await t.database.db.transaction(async (tx) => {
      // The purge's own step: its delete holds the row until it commits.
      expect(await removeWaitingAccount(tx, eq(users.id, id))).toBe(id);
      expect((await post(t, API.resendActivation, { email: 'race.purged@example.com' })).statusCode).toBe(204);
      await waitingOnLocks(t.database, 1);
    });
    await t.ctx.jobs.settled();
    await signUpAgainMail('race.purged@example.com');
    expect(await accountRow(t, id)).toBeUndefined();
    expect((await signUp(t, 'race.purged@example.com')).statusCode).toBe(201);
  });

  it('the resend’s mail first: the purge’s delete waits, then keeps the account, whose new link works', async () => {
    const { id } = await signupAndReadMail(t, smtp, 'race.kept@example.com');
    await longExpired(id);
    let purging: Promise<number> | undefined;
    await t.database.db.transaction(async (tx) => {
      // The mail job's step: it sets updated_at as it makes the link, holding the row until it commits.
      await tx.update(users).set({ updatedAt: new Date() }).where(eq(users.id, id));
      purging = purgeWaitingAccounts(t.database.db, purgeBefore());
      await waitingOnLocks(t.database, 1);
    });
    expect(await purging).toBe(0);
    const first = await smtp.waitFor((m) => m.to.includes('race.kept@example.com'));
    expect((await post(t, API.resendActivation, { email: 'race.kept@example.com' })).statusCode).toBe(204);
    await t.ctx.jobs.settled();
    const resent = await smtp.waitFor((m) => m.to.includes('race.kept@example.com') && m !== first);
    expect((await post(t, API.activation, linkParams(resent, 'activation'))).statusCode).toBe(204);
  });
});
