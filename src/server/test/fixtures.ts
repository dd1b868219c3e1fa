import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { AppContext } from '../context';
import { users } from '../db/schema';
import { createSession } from '../auth/sessions';

export interface SignedInUser {
  id: number;
  email: string;
  password: string;
  access: string;
  refresh: string;
  sessionId: string;
  /** `{ authorization: 'Bearer …' }` for app.inject. */
  headers: { authorization: string };
}

/**
 * One argon2id hash per password for the whole test file: the fixture's users log in with their password, which
 * any hash of it lets them do, and hashing (the signup and password tests' subject, tested there) cost
 * 36 ms a user on a loaded CI machine, hundreds of times a run.
 */
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  let hashed = hashes.get(password);
  if (!hashed) hashes.set(password, (hashed = hash(password)));
  return hashed;
};

/** An active user with a live session, inserted directly (the signup flow has its own tests). */
export async function signedInUser(
  ctx: AppContext,
  options: { email?: string; password?: string; isStaff?: boolean } = {},
): Promise<SignedInUser> {
  const email = options.email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = options.password ?? 'calm-river-morning-42';
  const [row] = await ctx.database.db
    .insert(users)
    .values({ email, passwordHash: await hashOnce(password), isActive: true, isStaff: options.isStaff ?? false })
    .returning({ id: users.id });
  if (!row) throw new Error('user insert returned no row');
  const session = await createSession(ctx.database.db, ctx.tokens, row.id);
  return {
    id: row.id,
    email,
    password,
    ...session,
    headers: { authorization: `Bearer ${session.access}` },
  };
}
