import { eq } from 'drizzle-orm';
import { sessionEnded } from '../auth/authenticate';
import type { Db } from './client';
import { users } from './schema';

/**
 * Locks the person's row until the transaction ends: what checks a limit on their things and then adds
 * one runs after any other such check of theirs, so two at once cannot both pass. An account deleted
 * since the request was let in is answered as its token would be now (401), adding nothing: deleting
 * an account takes this lock before it lists the files to remove, so it sees whatever was added first.
 */
export async function lockUserRow(tx: Pick<Db, 'select'>, userId: number): Promise<void> {
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  if (!row) throw sessionEnded();
}
