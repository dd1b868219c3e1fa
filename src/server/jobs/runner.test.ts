import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/database';
import { LAST_ERROR_MAX, claimJobs, findJob, insertJob, retryJob } from './queue';
import { createJobRunner, retryDelayMs, type JobHandler, type JobRunner } from './runner';
import { jobs } from './table';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(jobs);
});

const silent = { info: () => undefined, error: () => undefined } as never;

/** A clock the test moves on: no sleeping for back-off or leases. Ahead of the real one, which stamps new jobs. */
function fakeClock(start = Date.now() + 5000) {
  let at = start;
  return { now: () => new Date(at), advance: (ms: number) => void (at += ms) };
}

const runners: JobRunner[] = [];
function runner(
  handlers: Record<string, JobHandler>,
  clock: ReturnType<typeof fakeClock>,
  leaseMs = 30_000,
  recurring?: Record<string, number>,
) {
  const made = createJobRunner({
    db: database.db,
    handlers,
    log: silent,
    now: clock.now,
    random: () => 0.5,
    leaseMs,
    backoff: { baseMs: 1000, maxMs: 60_000 },
    recurring,
  });
  runners.push(made);
  return made;
}
afterAll(async () => {
  for (const made of runners) await made.stop(0);
});

describe('job queue', () => {
  it('runs an enqueued job once and marks it done', async () => {
    const clock = fakeClock();
    const seen: unknown[] = [];
    const r = runner({ greet: async (job) => void seen.push(job.payload) }, clock);
    const id = await insertJob(database.db, { kind: 'greet', payload: { name: 'Zoe' } });
    await r.settled();
    expect(seen).toEqual([{ name: 'Zoe' }]);
    const row = await findJob(database.db, id!);
    expect(row).toMatchObject({ status: 'done', attempts: 1, lockedBy: null });
    expect(row!.finishedAt).toBeInstanceOf(Date);
    await r.settled();
    expect(seen).toHaveLength(1);
  });

  it('is woken by an enqueue instead of waiting for its poll', async () => {
    const seen: number[] = [];
    const r = createJobRunner({
      db: database.db,
      handlers: { quick: async (job) => void seen.push(job.id) },
      log: silent,
      pollMs: 60_000,
    });
    runners.push(r);
    r.start();
    // Its first look done, it waits for its poll a minute away.
    await r.settled();
    const id = await insertJob(database.db, { kind: 'quick' });
    r.wake();
    // Well within the minute, and past a claim's time on a busy machine (decision 098).
    await expect.poll(() => seen, { timeout: 10_000, interval: 10 }).toEqual([id]);
  });

  it('has a job due to a claim made in the very millisecond it was enqueued, whatever the database clock says', async () => {
    // The app's clock stopped a second behind the database's: enqueue and claim share one instant.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 1000 });
    try {
      const id = await insertJob(database.db, { kind: 'greet' });
      const claimed = await claimJobs(database.db, {
        runner: 'same-instant',
        kinds: ['greet'],
        limit: 1,
        leaseMs: 1000,
        now: new Date(),
      });
      expect(claimed.map((job) => job.id)).toEqual([id]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the start of a long error, cut between characters', async () => {
    const clock = fakeClock();
    // One letter, then emoji of two UTF-16 units each: a cut at 2,000 units would keep half of one.
    const error = 'a' + '🌙'.repeat(LAST_ERROR_MAX);
    const r = runner(
      {
        loud: async () => {
          throw new Error(error);
        },
      },
      clock,
    );
    const id = (await insertJob(database.db, { kind: 'loud', maxAttempts: 1 }))!;
    await r.settled();
    const row = (await findJob(database.db, id))!;
    expect(row.status).toBe('dead');
    expect(row.lastError).toBe('a' + '🌙'.repeat(LAST_ERROR_MAX - 1));
  });

  it('retries a failed job with doubling back-off, and gives up as dead after its last attempt', async () => {
    const clock = fakeClock();
    let calls = 0;
    const r = runner(
      {
        flaky: async () => {
          calls += 1;
          throw new Error(`SMTP said no (${calls})`);
        },
      },
      clock,
    );
    const id = (await insertJob(database.db, { kind: 'flaky', maxAttempts: 3 }))!;
    await r.settled();
    let row = (await findJob(database.db, id))!;
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: 'SMTP said no (1)' });
    // random 0.5: three quarters of the ceiling (1 s, then 2 s).
    expect(row.runAt.getTime() - clock.now().getTime()).toBe(
      retryDelayMs(1, { baseMs: 1000, maxMs: 60_000 }, () => 0.5),
    );
    expect(retryDelayMs(1, { baseMs: 1000, maxMs: 60_000 }, () => 0.5)).toBe(750);

    // Not due yet: nothing runs.
    await r.settled();
    expect(calls).toBe(1);
    clock.advance(749);
    await r.settled();
    expect(calls).toBe(1);
    clock.advance(1);
    await r.settled();
    row = (await findJob(database.db, id))!;
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
    expect(row.runAt.getTime() - clock.now().getTime()).toBe(1500);

    clock.advance(1500);
    await r.settled();
    row = (await findJob(database.db, id))!;
    expect(calls).toBe(3);
    expect(row).toMatchObject({ status: 'dead', attempts: 3, lastError: 'SMTP said no (3)' });
    clock.advance(3_600_000);
    await r.settled();
    expect(calls).toBe(3);

    // Staff retry it: all its attempts again, at once.
    expect(await retryJob(database.db, id, clock.now())).toMatchObject({ status: 'queued', attempts: 0 });
    await r.settled();
    expect(calls).toBe(4);
    expect(await retryJob(database.db, 999_999, clock.now())).toBeUndefined();
  });

  it('jitters the back-off between half and all of a doubling ceiling, capped', () => {
    const backoff = { baseMs: 10_000, maxMs: 60_000 };
    expect(retryDelayMs(1, backoff, () => 0)).toBe(5000);
    expect(retryDelayMs(1, backoff, () => 1)).toBe(10_000);
    expect(retryDelayMs(3, backoff, () => 1)).toBe(40_000);
    expect(retryDelayMs(10, backoff, () => 1)).toBe(60_000);
  });

  it('runs again a job whose runner died once its lease has run out', async () => {
    const clock = fakeClock();
    const id = (await insertJob(database.db, { kind: 'export' }))!;
    // A runner claims it, then its process is killed: nobody completes or releases it.
    const [claimed] = await claimJobs(database.db, {
      runner: 'crashed',
      kinds: ['export'],
      limit: 1,
      leaseMs: 30_000,
      now: clock.now(),
    });
    expect(claimed).toMatchObject({ id, status: 'running', lockedBy: 'crashed', attempts: 1 });

    const seen: number[] = [];
    const survivor = runner({ export: async (job) => void seen.push(job.id) }, clock);
    await survivor.settled();
    expect(seen).toEqual([]);
    clock.advance(30_001);
    await survivor.settled();
    expect(seen).toEqual([id]);
    expect(await findJob(database.db, id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('marks dead a job whose runner died on its last attempt', async () => {
    const clock = fakeClock();
    const id = (await insertJob(database.db, { kind: 'export', maxAttempts: 1 }))!;
    await claimJobs(database.db, { runner: 'crashed', kinds: ['export'], limit: 1, leaseMs: 1000, now: clock.now() });
    const seen: number[] = [];
    const survivor = runner({ export: async (job) => void seen.push(job.id) }, clock);
    clock.advance(1001);
    await survivor.settled();
    expect(seen).toEqual([]);
    const row = await findJob(database.db, id);
    expect(row).toMatchObject({ status: 'dead' });
    expect(row!.lastError).toContain('stopped before it finished');
  });

  it('never gives one job to two runners, and keeps one pending job per unique key', async () => {
    const clock = fakeClock();
    const ids = await Promise.all(Array.from({ length: 6 }, () => insertJob(database.db, { kind: 'count' })));
    const ran: Record<string, number[]> = { a: [], b: [] };
    const a = runner({ count: async (job) => void ran.a!.push(job.id) }, clock);
    const b = runner({ count: async (job) => void ran.b!.push(job.id) }, clock);
    await Promise.all([a.settled(), b.settled()]);
    expect([...ran.a!, ...ran.b!].sort((x, y) => x - y)).toEqual(ids.sort((x, y) => x! - y!));

    expect(await insertJob(database.db, { kind: 'seed', uniqueKey: 'seed' })).toBeTypeOf('number');
    expect(await insertJob(database.db, { kind: 'seed', uniqueKey: 'seed' })).toBeUndefined();
    await database.db.update(jobs).set({ status: 'done' }).where(eq(jobs.kind, 'seed'));
    expect(await insertJob(database.db, { kind: 'seed', uniqueKey: 'seed' })).toBeTypeOf('number');
  });

  it('gives back a job still running when it stops, without counting the attempt', async () => {
    const clock = fakeClock();
    let release!: () => void;
    const r = runner({ slow: () => new Promise<void>((resolve) => (release = resolve)) }, clock);
    const id = (await insertJob(database.db, { kind: 'slow' }))!;
    r.start();
    await expect.poll(async () => (await findJob(database.db, id))?.status, { timeout: 10_000 }).toBe('running');
    await r.stop(20);
    expect(await findJob(database.db, id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    release();
  });

  it('tells a running job it is stopping, and gives back at once one that ends on it', async () => {
    const clock = fakeClock();
    const r = runner(
      {
        long: (_job, stopping) =>
          new Promise<void>((_resolve, reject) => stopping.addEventListener('abort', () => reject(stopping.reason))),
      },
      clock,
    );
    const id = (await insertJob(database.db, { kind: 'long' }))!;
    r.start();
    await expect.poll(async () => (await findJob(database.db, id))?.status, { timeout: 10_000 }).toBe('running');
    // A grace past the test's own bound: a stop that waited for it, not for the job that ended when told, fails by
    // the test's timeout, where a bound on the clock was also a loaded machine's.
    await r.stop(24 * 60 * 60_000);
    expect(await findJob(database.db, id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      lockedBy: null,
      lastError: null,
    });
  });

  describe('a recurring kind', () => {
    const tidyRows = () => database.db.select().from(jobs).where(eq(jobs.kind, 'tidy'));

    it('is one job: added at start, run once by two runners, queued again after each run, kept across a restart and taken over from a runner that died', async () => {
      const clock = fakeClock();
      let runs = 0;
      const make = () => runner({ tidy: async () => void (runs += 1) }, clock, 30_000, { tidy: 60_000 });
      // Two servers start together: one job, run by one of them.
      const [a, b] = [make(), make()];
      await Promise.all([a.settled(), b.settled()]);
      expect(runs).toBe(1);
      let [row, ...more] = await tidyRows();
      expect(more).toEqual([]);
      expect(row).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null, uniqueKey: 'tidy' });
      expect(row!.runAt.getTime()).toBe(clock.now().getTime() + 60_000);
      expect(row!.finishedAt?.getTime()).toBe(clock.now().getTime());

      clock.advance(59_999);
      await Promise.all([a.settled(), b.settled()]);
      expect(runs).toBe(1);
      clock.advance(1);
      await Promise.all([a.settled(), b.settled()]);
      expect(runs).toBe(2);

      // A restart: the new runner adds no second job and waits for the one there.
      await Promise.all([a.stop(0), b.stop(0)]);
      const c = make();
      await c.settled();
      expect(runs).toBe(2);
      expect(await tidyRows()).toHaveLength(1);

      // A runner takes it and its process dies: another runs it once the lease has run out.
      clock.advance(60_000);
      const [claimed] = await claimJobs(database.db, {
        runner: 'crashed',
        kinds: ['tidy'],
        limit: 1,
        leaseMs: 30_000,
        now: clock.now(),
      });
      expect(claimed).toMatchObject({ id: row!.id, status: 'running' });
      await c.settled();
      expect(runs).toBe(2);
      clock.advance(30_001);
      await c.settled();
      expect(runs).toBe(3);
      [row, ...more] = await tidyRows();
      expect(more).toEqual([]);
      expect(row).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
      expect(row!.runAt.getTime()).toBe(clock.now().getTime() + 60_000);
    });

    it('is retried when it fails, and added again within the hour once it gave up', async () => {
      const clock = fakeClock();
      let failing = true;
      let runs = 0;
      const r = runner(
        {
          tidy: async () => {
            runs += 1;
            if (failing) throw new Error('database went away');
          },
        },
        clock,
        30_000,
        { tidy: 60_000 },
      );
      await r.settled();
      let [row] = await tidyRows();
      expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: 'database went away' });
      await database.db.update(jobs).set({ maxAttempts: 2 }).where(eq(jobs.id, row!.id));
      clock.advance(750);
      await r.settled();
      expect(runs).toBe(2);
      expect(await findJob(database.db, row!.id)).toMatchObject({ status: 'dead' });

      failing = false;
      clock.advance(60 * 60_000 + 1);
      await r.settled();
      expect(runs).toBe(3);
      const rows = await tidyRows();
      expect(rows.map((job) => job.status).sort()).toEqual(['dead', 'queued']);
      [row] = rows.filter((job) => job.status === 'queued');
      expect(row!.lastError).toBeNull();
    });
  });
});
