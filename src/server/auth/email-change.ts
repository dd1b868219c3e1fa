import { eq } from 'drizzle-orm';
import type { PendingEmailChange } from '@shared/contract';
import type { Db } from '../db/client';
import { users } from '../db/schema';

// The change of e-mail address an account waits for (docs/decisions/061-a-change-of-address-waits-in-the-account.md),
// as its owner's calls, the data download and staff's Users read it and take it back.

/** A user row's waiting change of address as the API and the data download tell it, or null. */
export const pendingOf = (user: {
  pendingEmail: string | null;
  pendingEmailAt: Date | null;
}): PendingEmailChange | null =>
  user.pendingEmail && user.pendingEmailAt
    ? { new_email: user.pendingEmail, requested_at: user.pendingEmailAt.toISOString() }
    : null;

/**
 * Drops the change the account waits for: its links are refused from then on. Nothing waiting is no error;
 * answers whether the account exists.
 */
export async function cancelEmailChange(db: Db, userId: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ pendingEmail: null, pendingEmailAt: null })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return updated.length > 0;
}
