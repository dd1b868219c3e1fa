import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { sessions } from '../db/schema';
import { signedInUser } from '../test/fixtures';
import { createTestApp, type TestApp } from '../test/test-app';
import { createSession, ENDED_SESSION_KEPT_MS, purgeEndedSessions, revokeSession } from './sessions';

// Ended sessions are deleted an hour after they ended (docs/decisions/045-ended-sessions-are-purged-by-a-recurring-job.md),
// and no reader of `sessions` answers otherwise for it.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 60 * 60_000;
const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
const idsLeft = async (ids: string[]) =>
  (await t.database.db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, ids)))
    .map((row) => row.id)
    .sort();

describe('purging ended sessions', () => {
  it('deletes the sessions revoked or expired over an hour ago, keeps the live ones and those just ended, and no reader notices', async () => {
    const { db } = t.database;
    const user = await signedInUser(t.ctx);
    const open = () => createSession(db, t.ctx.tokens, user.id);
    const [otherDevice, loggedOutNow, loggedOutLongAgo, expiredLongAgo, expiredJustNow] = await Promise.all(
      Array.from({ length: 5 }, open),
    );
    await revokeSession(db, loggedOutNow!.sessionId);
    await db
      .update(sessions)
      .set({ revokedAt: new Date(Date.now() - 2 * HOUR) })
      .where(eq(sessions.id, loggedOutLongAgo!.sessionId));
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 2 * HOUR) })
      .where(eq(sessions.id, expiredLongAgo!.sessionId));
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(sessions.id, expiredJustNow!.sessionId));

    // What every reader answers: the profile's count of other devices, refresh, a signed-in call.
    const answers = async () => ({
      others: (await t.app.inject({ method: 'GET', url: API.sessions, headers: user.headers })).json<unknown>(),
      refresh: await Promise.all(
        [otherDevice, loggedOutNow, loggedOutLongAgo, expiredLongAgo].map(async (session) => {
          const response = await t.app.inject({
            method: 'POST',
            url: API.tokenRefresh,
            payload: { refresh: session!.refresh },
          });
          return [response.statusCode, response.json<{ code?: string }>().code];
        }),
      ),
      me: await Promise.all(
        [loggedOutLongAgo, expiredLongAgo].map(
          async (session) =>
            (await t.app.inject({ method: 'GET', url: API.me, headers: bearer(session!.access) })).statusCode,
        ),
      ),
    });
    const before = await answers();
    expect(before.others).toMatchObject({ count: 1 });
    expect(before.refresh).toEqual([
      [200, undefined],
      [401, 'token_not_valid'],
      [401, 'token_not_valid'],
      [401, 'token_not_valid'],
    ]);
    expect(before.me).toEqual([401, 401]);

    const all = [user, otherDevice, loggedOutNow, loggedOutLongAgo, expiredLongAgo, expiredJustNow].map(
      (session) => session!.sessionId,
    );
    const purged = await purgeEndedSessions(db, new Date(Date.now() - ENDED_SESSION_KEPT_MS));
    expect(purged).toBe(2);
    expect(await idsLeft(all)).toEqual(
      [user, otherDevice, loggedOutNow, expiredJustNow].map((session) => session!.sessionId).sort(),
    );
    // What the workers keep forgotten too (as 30 s later): the rows left answer the same.
    for (const sessionId of all) await t.ctx.notices.publish({ kind: 'session-ended', sessionId });
    expect(await answers()).toEqual(before);

    // Logout and "sign out everywhere else" still end what is left.
    const logout = await t.app.inject({ method: 'POST', url: API.logout, headers: bearer(otherDevice!.access) });
    expect(logout.statusCode).toBe(204);
    const others = await t.app.inject({ method: 'GET', url: API.sessions, headers: user.headers });
    expect(others.json()).toMatchObject({ count: 0 });
    expect(await purgeEndedSessions(db, new Date(Date.now() - ENDED_SESSION_KEPT_MS))).toBe(0);
  });

  it('works through a backlog in batches, and stops between two when told', async () => {
    const { db } = t.database;
    const user = await signedInUser(t.ctx);
    const opened = await Promise.all(Array.from({ length: 28 }, () => createSession(db, t.ctx.tokens, user.id)));
    const ended = opened.slice(0, 25).map((session) => session.sessionId);
    const live = [user.sessionId, ...opened.slice(25).map((session) => session.sessionId)].sort();
    const endAll = () =>
      db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 2 * HOUR) })
        .where(inArray(sessions.id, ended));
    await endAll();
    const cutoff = () => new Date(Date.now() - ENDED_SESSION_KEPT_MS);

    // Told to stop once the first batch is done: that batch is gone, the rest waits for the next run.
    const stop = new AbortController();
    const stopsAfterOne = new Proxy(db, {
      get: (target, key, receiver) =>
        key === 'execute'
          ? async (...args: Parameters<typeof db.execute>) => {
              const result = await target.execute(...args);
              stop.abort(new Error('stopping'));
              return result;
            }
          : (Reflect.get(target, key, receiver) as unknown),
    });
    await expect(purgeEndedSessions(stopsAfterOne, cutoff(), { batchSize: 10, stopping: stop.signal })).rejects.toThrow(
      'stopping',
    );
    expect(await idsLeft([...ended, ...live])).toHaveLength(25 - 10 + live.length);

    expect(await purgeEndedSessions(db, cutoff(), { batchSize: 10 })).toBe(15);
    expect(await idsLeft([...ended, ...live])).toEqual(live);
  });
});
