import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  and,
  asc,
  eq,
  exists,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  max,
  not,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs, profiles, users } from '../db/schema';

// Accounts that wait for their activation link: never activated, never deactivated by staff. They cannot sign in,
// so they hold nothing but their row and an empty profile, and their address is free to a sign-up (decision 106)
// and to another account's change of address; they go once their last link can no longer work
// (docs/decisions/110-an-account-waiting-for-its-link-gives-way-and-ends.md).

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** An account that waits for its activation link: never activated, and not deactivated by staff. */
export const awaitsActivation = and(eq(users.isActive, false), isNull(users.deactivatedAt))!;

/** An account whose address is taken: activated, or deactivated by staff (who decide whether it comes back). */
export const holdsItsAddress = or(eq(users.isActive, true), isNotNull(users.deactivatedAt))!;

/**
 * How long a waiting account is kept after its last activation link expired: a day, for the clocks of servers
 * sharing the database and for the person who comes back just after their link expired, whose login with the
 * right password still offers a new link rather than saying there is no account.
 */
export const WAITING_ACCOUNT_KEPT_AFTER_LINK_MS = 24 * 60 * 60_000;

/**
 * Deletes the account that still waits for its activation and matches `which`, with every row that names it
 * (foreign keys cascade; it never signed in, so no file is its own). Its profile's row is held first, then its
 * own, the order of the account's deletion and of staff's edits, so none of them waits on the other for ever.
 * The delete asks again that it waits: an activation or a deactivation that lands first keeps it. Answers the
 * id of the account deleted, if any.
 */
export async function removeWaitingAccount(tx: Tx, which: SQL): Promise<number | undefined> {
  const [found] = await tx.select({ id: users.id }).from(users).where(and(which, awaitsActivation)).limit(1);
  if (!found) return undefined;
  await tx.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.userId, found.id)).for('update');
  const [gone] = await tx
    .delete(users)
    .where(and(eq(users.id, found.id), which, awaitsActivation))
    .returning({ id: users.id });
  return gone?.id;
}

/** A mail job still to run or to retry: queued, running, or failed and waiting for its next attempt. */
const PENDING_JOB_STATUSES = ['queued', 'running', 'failed'] as const;

/**
 * An account a resend (or a sign-up) asked an activation mail for that is not sent yet: the mail job will make its
 * link and set `updated_at`, so the purge leaves the account to it rather than have the job find nothing to send.
 */
const activationMailPending = exists(
  sql`(select 1 from ${jobs} where ${jobs.kind} = 'mail.activation' and ${inArray(jobs.status, [...PENDING_JOB_STATUSES])}
    and (lower(${jobs.payload}->>'email') = lower(${users.email}) or ${jobs.payload}->>'userId' = ${users.id}::text))`,
);

/** How many ids of `users` one read of the purge looks along: a few milliseconds, whatever the table's size. */
const PURGE_SCAN_IDS = 2_000;

/**
 * Deletes the accounts that wait for their activation and were last asked a link before `before` (a sign-up, a
 * sign-up again or a resend sets `updated_at` as its link is made), never logged in (an account that did was
 * active once), and with no activation mail still to send (a resend in flight gets its link; asked as each
 * goes). Reads the candidates along the primary key `PURGE_SCAN_IDS` ids at a time, and deletes each in a
 * transaction of its own, yielding to the event loop before each read and each delete: on the embedded database
 * the primary's other queries, and the workers' messages, go between two, none waiting behind the purge more than
 * one short step (docs/decisions/118-…). Between two it stops when `stopping` is aborted. Answers how many went.
 */
export async function purgeWaitingAccounts(
  db: Db,
  before: Date,
  options: { scanIds?: number; stopping?: AbortSignal } = {},
): Promise<number> {
  const { scanIds = PURGE_SCAN_IDS, stopping } = options;
  const expired = and(lt(users.updatedAt, before), isNull(users.lastLogin))!;
  // Asked of one account as it is deleted (read with every candidate, it compared each with every pending job).
  const expiredAndNoMailPending = and(expired, not(activationMailPending))!;
  // Accounts made after this read are fresh: the purge looks no further.
  const [{ last } = { last: null }] = await db.select({ last: max(users.id) }).from(users);
  let purged = 0;
  for (let after = 0; last !== null && after < last; after += scanIds) {
    stopping?.throwIfAborted();
    await nextTurn();
    const candidates = await db
      .select({ id: users.id })
      .from(users)
      .where(and(gt(users.id, after), lte(users.id, after + scanIds), awaitsActivation, expired))
      .orderBy(asc(users.id));
    for (const { id } of candidates) {
      stopping?.throwIfAborted();
      await nextTurn();
      const gone = await db.transaction((tx) =>
        removeWaitingAccount(tx, and(eq(users.id, id), expiredAndNoMailPending)!),
      );
      if (gone !== undefined) purged++;
    }
  }
  return purged;
}
