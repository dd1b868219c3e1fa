import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { users } from './schema';

/**
 * Locks the person's row until the transaction ends: what checks a limit on their things and then adds
 * one runs after any other such check of theirs, so two at once cannot both pass.
 */
export async function lockUserRow(tx: Pick<Db, 'select'>, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}
