import { hash, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { sessions, users } from '../db/schema';
import type { TokenService } from './tokens';
import type { Notices } from '../cluster/notices';
import { LoadingCache } from '../cache/loading-cache';

export const hashToken = (token: string) => hash('sha256', token);

export interface IssuedSession {
  sessionId: string;
  access: string;
  refresh: string;
}

/** A new session's id, its token pair and its row, not yet stored. */
async function issueSession(tokens: TokenService, userId: number) {
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + tokens.ttlSeconds('refresh') * 1000);
  const [access, refresh] = await Promise.all([
    tokens.sign('access', userId, sessionId),
    tokens.sign('refresh', userId, sessionId),
  ]);
  return {
    issued: { sessionId, access, refresh },
    row: { id: sessionId, userId, refreshTokenHash: hashToken(refresh), expiresAt },
  };
}

/** Opens a server-side session for the user and issues its token pair (tests and tools: a login opens its own). */
export async function createSession(db: Db, tokens: TokenService, userId: number): Promise<IssuedSession> {
  const { issued, row } = await issueSession(tokens, userId);
  await db.insert(sessions).values(row);
  return issued;
}

/**
 * Opens the session of a login whose password was checked against `passwordHash`, and sets the user's last
 * login, in one statement (a login is the busiest write there is); undefined, and nothing written, when that
 * hash is no longer the account's or the account is no longer active or there. The check takes a while: a
 * password changed or reset meanwhile ends every other session, and a session opened after that with the old
 * password would outlive it. The update waits for such a change's transaction and reads the row it left, so
 * either the change comes first and the session is refused, or the session comes first and the change ends it.
 */
export async function openLoginSession(
  db: Db,
  tokens: TokenService,
  user: { id: number; passwordHash: string },
): Promise<IssuedSession | undefined> {
  const { issued, row } = await issueSession(tokens, user.id);
  return (await insertLoginSession(db, user, row)) ? issued : undefined;
}

/** A session row as `issueSession` makes it. */
type SessionRow = Awaited<ReturnType<typeof issueSession>>['row'];

/** A row no session has, for statements sent to match nothing (`warmLoginStatements`). */
export const NO_SESSION_ROW: SessionRow = {
  id: '00000000-0000-0000-0000-000000000000',
  userId: 0,
  refreshTokenHash: '',
  expiresAt: new Date(0),
};

/** `openLoginSession`'s statement: true when the session was stored. */
export async function insertLoginSession(
  db: Db,
  user: { id: number; passwordHash: string },
  row: SessionRow,
): Promise<boolean> {
  const opened = await queryRows<{ id: string }>(
    db,
    sql`with signed_in as (
          update ${users} set last_login = now()
          where id = ${user.id} and password_hash = ${user.passwordHash} and is_active
          returning id
        )
        insert into ${sessions} (id, user_id, refresh_token_hash, expires_at)
        select ${row.id}::uuid, id, ${row.refreshTokenHash}, ${row.expiresAt.toISOString()}::timestamptz from signed_in
        returning id`,
  );
  return opened.length > 0;
}

export interface SessionUser {
  id: number;
  email: string;
  isStaff: boolean;
  sessionId: string;
}

/** A session that is neither revoked nor expired, of an active account. */
export interface LiveSession {
  user: SessionUser;
  refreshTokenHash: string;
  expiresAt: number;
}

/**
 * The session as the database has it now, past every worker's cache. With `hold`, inside a transaction,
 * its row and its account's are held until that transaction ends: a sign-out, deactivation or change of
 * role waits for what the transaction writes, or the transaction sees it first.
 */
export async function findLiveSession(
  db: Db,
  sessionId: string,
  options: { hold?: boolean } = {},
): Promise<LiveSession | null> {
  const query = db
    .select({
      id: users.id,
      email: users.email,
      isStaff: users.isStaff,
      refreshTokenHash: sessions.refreshTokenHash,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  const [row] = await (options.hold ? query.for('share') : query);
  if (!row) return null;
  return {
    user: { id: row.id, email: row.email, isStaff: row.isStaff, sessionId },
    refreshTokenHash: row.refreshTokenHash,
    expiresAt: row.expiresAt.getTime(),
  };
}

/** The live session of a token's claims (its user must be the token's), or null. */
export type SessionLookup = (sessionId: string, userId: number) => Promise<LiveSession | null>;

/**
 * Every signed-in request checks its session: the answers are kept in memory, and a logout, a password
 * reset or a deactivation clears them in every worker (notices) before it answers. A session that is not
 * live never becomes live again, so refusals are kept too.
 */
export function createSessionLookup(db: Db, notices: Notices): SessionLookup {
  const cache = new LoadingCache<string, LiveSession | null>({ ttlMs: 30_000, maxEntries: 20_000 });
  notices.subscribe((notice) => {
    if (notice.kind === 'session-ended') cache.delete(notice.sessionId);
    else if (notice.kind === 'user-changed') cache.deleteWhere((live) => live?.user.id === notice.userId);
  });
  return async (sessionId, userId) => {
    const live = await cache.get(sessionId, () => findLiveSession(db, sessionId));
    return live && live.user.id === userId && live.expiresAt > Date.now() ? live : null;
  };
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Ends every session of the user, or every one but `exceptSessionId` (the one that changed the password or
 * signed out everywhere else); answers how many live ones it ended.
 */
export async function revokeAllSessions(db: Db, userId: number, exceptSessionId?: string): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId),
      ),
    )
    .returning({ expiresAt: sessions.expiresAt });
  const now = Date.now();
  return ended.filter((session) => session.expiresAt.getTime() > now).length;
}

/**
 * The user's live sessions other than `sessionId`: how many, and the newest one's sign-in. Nothing records
 * when a session was last used (that would be a write on every token refresh, the busiest call).
 */
export async function otherLiveSessions(
  db: Db,
  userId: number,
  sessionId: string,
): Promise<{ count: number; latestSignIn: Date | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, latest: sql<string | Date | null>`max(${sessions.createdAt})` })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        ne(sessions.id, sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
      ),
    );
  return { count: row?.count ?? 0, latestSignIn: row?.latest ? new Date(row.latest) : null };
}

/**
 * How long a session's row outlives its end (revocation or expiry). Nothing reads an ended session: every
 * reader asks for live ones, and a row that is gone reads as ended. The hour is for clocks: each worker
 * tells an expired session by its own clock, and another server's may be behind the one that purges.
 */
export const ENDED_SESSION_KEPT_MS = 60 * 60_000;

/**
 * Deletes the sessions that ended (revoked or expired) before `before`, at most `batchSize` rows a
 * statement: each batch is a short transaction of its own, so a backlog never holds its locks for long,
 * and on the embedded database the requests' queries go between batches. The batches walk the primary
 * key, so a backlog is read once, not once a batch; rows a revocation holds at that moment are skipped
 * (the next purge takes them). Between batches it stops when `stopping` is aborted. Answers how many went.
 */
export async function purgeEndedSessions(
  db: Db,
  before: Date,
  options: { batchSize?: number; stopping?: AbortSignal } = {},
): Promise<number> {
  const { batchSize = 500, stopping } = options;
  const cutoff = before.toISOString();
  let after = '00000000-0000-0000-0000-000000000000';
  let purged = 0;
  for (;;) {
    stopping?.throwIfAborted();
    const gone = await queryRows<{ id: string }>(
      db,
      sql`with ended as (
            select id from ${sessions}
            where id > ${after} and (expires_at < ${cutoff} or revoked_at < ${cutoff})
            order by id limit ${batchSize}
            for update skip locked
          )
          delete from ${sessions} where id in (select id from ended) returning id`,
    );
    purged += gone.length;
    if (gone.length < batchSize) return purged;
    // Lowercase hexadecimal of one length: compared as strings, as PostgreSQL orders uuids.
    after = gone.reduce((last, row) => (row.id > last ? row.id : last), after);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
