import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../auth/sessions';
import { localNotices } from '../cluster/notices';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import { sessions, users } from '../db/schema';
import { createMediaStorage } from '../media/storage';
import { createTestDatabase } from '../test/database';
import { testEnv } from '../test/test-app';
import { createTokenService } from '../auth/tokens';
import { createServerJobRunner, SESSION_PURGE_EVERY_MS, SESSION_PURGE_JOB } from './server-jobs';
import { jobs } from './table';

// A server's primary purges ended sessions through the job table: at its start, then every hour, one
// purge at a time across servers (docs/decisions/045-ended-sessions-are-purged-by-a-recurring-job.md).

let database: Database;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-server-jobs-'));
});
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the primary's job runner", () => {
  it('purges ended sessions at its start and hourly, one purge at a time across servers and restarts', async () => {
    const { db } = database;
    const config = loadConfig(testEnv(dataDir));
    const tokens = createTokenService(config.secretKey, { access: 300, refresh: 86_400 });
    const [user] = await db.insert(users).values({ email: 'purge@example.com', passwordHash: 'x' }).returning();
    const open = async (ended: boolean) => {
      const { sessionId } = await createSession(db, tokens, user!.id);
      if (ended)
        await db
          .update(sessions)
          .set({ revokedAt: new Date(Date.now() - 2 * 60 * 60_000) })
          .where(eq(sessions.id, sessionId));
      return sessionId;
    };
    const left = async (ids: string[]) =>
      (await db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, ids))).map((row) => row.id);

    const purges: unknown[] = [];
    const server = () => {
      const log = {
        info: (fields: { kind?: string }, message: string) => {
          if (fields.kind === SESSION_PURGE_JOB && message === 'job done') purges.push(fields);
        },
        error: () => undefined,
      } as never;
      return createServerJobRunner({
        config,
        db,
        files: createMediaStorage(config).files,
        notices: localNotices(),
        log,
      });
    };
    const purgeJobs = () => db.select().from(jobs).where(eq(jobs.kind, SESSION_PURGE_JOB));

    const live = await open(false);
    const ended = await open(true);
    // Two servers start at once.
    const began = Date.now();
    const [a, b] = [server(), server()];
    await Promise.all([a.runner.settled(), b.runner.settled()]);
    expect(purges).toHaveLength(1);
    expect(await left([live, ended])).toEqual([live]);
    const [job, ...more] = await purgeJobs();
    expect(more).toEqual([]);
    expect(job).toMatchObject({ status: 'queued', attempts: 0 });
    // The next purge is due a period after this one ran, whenever that was between the start and now: the servers'
    // start can take a minute on a busy machine (decision 098).
    expect(job!.runAt.getTime()).toBeGreaterThanOrEqual(began + SESSION_PURGE_EVERY_MS);
    expect(job!.runAt.getTime()).toBeLessThanOrEqual(Date.now() + SESSION_PURGE_EVERY_MS);

    // A restart: the next purge stays where it was, and runs when due.
    for (const stopped of [a, b]) {
      await stopped.runner.stop(0);
      stopped.close();
    }
    const c = server();
    const endedSince = await open(true);
    await c.runner.settled();
    expect(purges).toHaveLength(1);
    expect(await purgeJobs()).toEqual([job]);
    await db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, job!.id));
    await c.runner.settled();
    expect(purges).toHaveLength(2);
    expect(await left([live, endedSince])).toEqual([live]);
    await c.runner.stop(0);
    c.close();
  });
});
