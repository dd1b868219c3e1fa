import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context';
import { users } from '../db/schema';
import { hashPassword } from '../auth/passwords';
import { createSession } from '../auth/sessions';

/**
 * Tokens of a live user and a live staff user for the fuzzer. Each call reactivates both and opens
 * fresh sessions, since fuzzed requests may log them out or have staff deactivate them.
 */
export async function fuzzTokens(ctx: AppContext): Promise<() => Promise<{ user: string; staff: string }>> {
  const { db } = ctx.database;
  const passwordHash = await hashPassword('Calm-River-Morning-42');
  const rows = await db
    .insert(users)
    .values([
      { email: 'fuzz-user@example.com', passwordHash, isActive: true },
      { email: 'fuzz-staff@example.com', passwordHash, isActive: true, isStaff: true },
    ])
    .returning({ id: users.id });
  const [user, staff] = rows.map((row) => row.id) as [number, number];
  return async () => {
    await db
      .update(users)
      .set({ isActive: true })
      .where(inArray(users.id, [user, staff]));
    const [u, s] = await Promise.all([createSession(db, ctx.tokens, user), createSession(db, ctx.tokens, staff)]);
    return { user: u.access, staff: s.access };
  };
}
