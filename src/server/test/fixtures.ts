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

/** An active user with a live session, inserted directly (the signup flow has its own tests). */
export async function signedInUser(
  ctx: AppContext,
  options: { email?: string; password?: string; isStaff?: boolean } = {},
): Promise<SignedInUser> {
  const email = options.email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = options.password ?? 'calm-river-morning-42';
  const [row] = await ctx.database.db
    .insert(users)
    .values({ email, passwordHash: await hash(password), isActive: true, isStaff: options.isStaff ?? false })
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
