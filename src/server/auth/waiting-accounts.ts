import { and, eq, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { profiles, users } from '../db/schema';

// Accounts that wait for their activation link: never activated, never deactivated by staff. They cannot sign in,
// so they hold nothing but their row and an empty profile, and their address is free to a sign-up (decision 106)
// and to another account's change of address (docs/decisions/110-an-account-waiting-for-its-link-gives-way-and-ends.md).

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** An account that waits for its activation link: never activated, and not deactivated by staff. */
export const awaitsActivation = and(eq(users.isActive, false), isNull(users.deactivatedAt))!;

/** An account whose address is taken: activated, or deactivated by staff (who decide whether it comes back). */
export const holdsItsAddress = or(eq(users.isActive, true), isNotNull(users.deactivatedAt))!;

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
