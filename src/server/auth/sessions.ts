import { createHash } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import type { TokenService } from './tokens';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface IssuedSession {
  sessionId: string;
  access: string;
  refresh: string;
}

/** Opens a server-side session for one login and issues its token pair. */
export async function createSession(db: Db, tokens: TokenService, userId: number): Promise<IssuedSession> {
  const expiresAt = new Date(Date.now() + tokens.ttlSeconds('refresh') * 1000);
  // The refresh token names the session, so the row is created first and its hash filled in after.
  const [row] = await db.insert(sessions).values({ userId, refreshTokenHash: '', expiresAt }).returning({ id: sessions.id });
  if (!row) throw new Error('session insert returned no row');
  const [access, refresh] = await Promise.all([
    tokens.sign('access', userId, row.id),
    tokens.sign('refresh', userId, row.id),
  ]);
  await db.update(sessions).set({ refreshTokenHash: hashToken(refresh) }).where(eq(sessions.id, row.id));
  return { sessionId: row.id, access, refresh };
}

export interface SessionUser {
  id: number;
  email: string;
  isStaff: boolean;
  sessionId: string;
}

/** The user of a session that is neither revoked nor expired, whose account is active. */
export async function findSessionUser(db: Db, sessionId: string, userId: number): Promise<SessionUser | undefined> {
  const [row] = await db
    .select({ id: users.id, email: users.email, isStaff: users.isStaff, refreshTokenHash: sessions.refreshTokenHash })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  return row ? { id: row.id, email: row.email, isStaff: row.isStaff, sessionId } : undefined;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: Db, userId: number): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
