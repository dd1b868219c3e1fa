import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
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

/** A database of the fuzzer's own on the PostgreSQL server of `serverUrl`, and how to drop it after. */
export async function createFuzzPostgres(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `innerwave_fuzz_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}
