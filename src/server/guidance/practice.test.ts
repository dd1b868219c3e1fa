import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_TRY_SECONDS } from '@shared/contract';
import { queryRows, type Database } from '../db/client';
import { users } from '../db/schema';
import { createTestDatabase } from '../test/database';
import { historyPages, readPractice, recordSession, SITTING_PAUSE_SECONDS } from './practice';

// The practice view counts sittings, not the per-sound entries history keeps (decision 038), on
// whichever database the suite runs on.

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const NOW = new Date('2026-11-29T12:00:00Z');
const DAY = 86_400;
const SINCE = NOW.getTime() - 7 * DAY * 1000;

let users_ = 0;
async function person(): Promise<number> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `sitter-${++users_}-${Date.now()}@example.com`, passwordHash: 'x', isActive: true })
    .returning({ id: users.id });
  return row!.id;
}

/** Records `seconds` of a sound starting at `at` (ms since the epoch); returns when it ended. */
async function heard(userId: number, at: number, seconds: number, title = `Track at ${at}`): Promise<number> {
  await recordSession(
    database.db,
    userId,
    { kind: 'music', ref: '', title, seconds, finished: false, started_at: new Date(at).toISOString() },
    NOW,
  );
  return at + seconds * 1000;
}

const practiceOf = (userId: number) => readPractice(database.db, userId, NOW);

describe('the practice view', () => {
  it('counts five sounds tried and the one kept as one session, keeping each sound’s minutes', async () => {
    const ada = await person();
    let at = NOW.getTime() - 60 * 60_000;
    for (const track of ['A', 'B', 'C', 'D', 'E']) at = (await heard(ada, at, 10, `Sample ${track}`)) + 2000;
    await heard(ada, at, 600, 'The one kept');
    const practice = await practiceOf(ada);
    expect(practice.week).toMatchObject({ sessions: 1, minutes: 11 });
    expect(practice.total_sessions).toBe(1);
    // The samples of a sitting that went on with a sound heard in earnest are not listed, and counted as such.
    expect(practice.last_sessions.map((entry) => entry.title)).toEqual(['The one kept']);
    expect(practice.tries_not_listed).toBe(5);
  });

  it('counts the tries left out only among the sessions listed, from the oldest listed on', async () => {
    const ada = await person();
    let at = NOW.getTime() - 5 * 60 * 60_000;
    // A try before a longer sound, then six stretches: the oldest stretch and the try are past the five listed.
    at = (await heard(ada, at, 10, 'Old try')) + 1000;
    for (const n of [1, 2, 3, 4]) at = (await heard(ada, at, HISTORY_TRY_SECONDS, `Stretch ${n}`)) + 1000;
    at = (await heard(ada, at, 10, 'Recent try')) + 1000;
    for (const n of [5, 6]) at = (await heard(ada, at, HISTORY_TRY_SECONDS, `Stretch ${n}`)) + 1000;
    const practice = await practiceOf(ada);
    expect(practice.last_sessions.map((entry) => entry.title)).toEqual([6, 5, 4, 3, 2].map((n) => `Stretch ${n}`));
    expect(practice.tries_not_listed).toBe(1);
  });

  it('joins entries a pause apart and parts them past it', async () => {
    const ada = await person();
    const bea = await person();
    const start = NOW.getTime() - 3 * 60 * 60_000;
    const under = await heard(ada, start, 300);
    await heard(ada, under + (SITTING_PAUSE_SECONDS - 1) * 1000, 300);
    const over = await heard(bea, start, 300);
    await heard(bea, over + (SITTING_PAUSE_SECONDS + 1) * 1000, 300);
    expect((await practiceOf(ada)).week.sessions).toBe(1);
    expect((await practiceOf(bea)).week.sessions).toBe(2);
    expect((await practiceOf(bea)).total_sessions).toBe(2);
  });

  it('counts a sitting that began before the seven days once, and one wholly before them not at all', async () => {
    const ada = await person();
    await heard(ada, SINCE - 2 * 60 * 60_000, 600, 'Before the week');
    // Begins five minutes before the edge, goes on inside it.
    const end = await heard(ada, SINCE - 5 * 60_000, 600, 'Across the edge, first');
    await heard(ada, end + 30_000, 600, 'Across the edge, second');
    await heard(ada, SINCE + DAY * 1000, 300, 'A day later');
    const practice = await practiceOf(ada);
    expect(practice.week.sessions).toBe(2);
    // The five minutes of the first entry inside the week count, the five before it do not.
    expect(practice.week.minutes).toBe(20);
    expect(practice.total_sessions).toBe(3);
  });

  it('counts a sitting that only touches the week by its first entry inside it', async () => {
    const ada = await person();
    // One long entry before the edge ends inside the week; two short ones inside it both overlap it,
    // though they are far apart from each other: one sitting.
    await heard(ada, SINCE - 60 * 60_000, 3 * 60 * 60);
    await heard(ada, SINCE + 10 * 60_000, 60);
    await heard(ada, SINCE + 60 * 60_000, 60);
    const practice = await practiceOf(ada);
    expect(practice.week.sessions).toBe(1);
    expect(practice.total_sessions).toBe(1);
  });

  it('lists a sitting spent only trying sounds by its longest try', async () => {
    const ada = await person();
    let at = NOW.getTime() - 30 * 60_000;
    at = (await heard(ada, at, 8, 'Short')) + 1000;
    at = (await heard(ada, at, HISTORY_TRY_SECONDS - 1, 'Longest try')) + 1000;
    await heard(ada, at, 5, 'Shortest');
    const practice = await practiceOf(ada);
    expect(practice.week.sessions).toBe(1);
    expect(practice.last_sessions.map((entry) => entry.title)).toEqual(['Longest try']);
    expect(practice.tries_not_listed).toBe(2);
  });

  it('lists every stretch of at least the sample length, newest first, five at most', async () => {
    const ada = await person();
    let at = NOW.getTime() - 5 * 60 * 60_000;
    for (const n of [1, 2, 3, 4, 5, 6]) at = (await heard(ada, at, HISTORY_TRY_SECONDS, `Stretch ${n}`)) + 1000;
    const practice = await practiceOf(ada);
    expect(practice.week.sessions).toBe(1);
    expect(practice.last_sessions.map((entry) => entry.title)).toEqual([6, 5, 4, 3, 2].map((n) => `Stretch ${n}`));
  });

  it('is empty for someone who has listened to nothing', async () => {
    const practice = await practiceOf(await person());
    expect(practice.week).toMatchObject({ sessions: 0, minutes: 0 });
    expect(practice.total_sessions).toBe(0);
    expect(practice.last_sessions).toEqual([]);
    expect(practice.tries_not_listed).toBe(0);
  });

  it('counts time heard in two tabs at once once, so a day never holds more than 24 hours', async () => {
    const ada = await person();
    const start = SINCE + 2 * DAY * 1000;
    // Three whole days recorded over the same day (three tabs), and a fourth overlapping half of it.
    for (const n of [1, 2, 3]) await heard(ada, start, DAY, `Tab ${n}`);
    await heard(ada, start + (DAY / 2) * 1000, DAY / 2 + 3600, 'Half and an hour on');
    const { week } = await practiceOf(ada);
    expect(week.daily_minutes).toEqual([0, 0, 1440, 60, 0, 0, 0]);
    expect(week.minutes).toBe(1500);
    expect(Math.max(...week.daily_minutes)).toBeLessThanOrEqual(24 * 60);
  });

  it('splits an entry across the edge of a day into the days it covers, and the week adds up its days', async () => {
    const ada = await person();
    const edge = SINCE + 3 * DAY * 1000;
    // Ten minutes before the edge and twenty after it; then two short ones whose rounded minutes add up.
    await heard(ada, edge - 10 * 60_000, 30 * 60);
    await heard(ada, edge + 2 * 60 * 60_000, 40);
    await heard(ada, SINCE + 5 * DAY * 1000 + 60_000, 40);
    const { week } = await practiceOf(ada);
    expect(week.daily_minutes).toEqual([0, 0, 10, 21, 0, 1, 0]);
    expect(week.daily_seconds).toEqual([0, 0, 600, 1240, 0, 40, 0]);
    expect(week.minutes).toBe(week.daily_minutes.reduce((sum, minutes) => sum + minutes, 0));
  });

  it('gives the seconds of a day heard for under half a minute, whose minutes round to none', async () => {
    const ada = await person();
    await heard(ada, SINCE + 60_000, 20);
    const { week } = await practiceOf(ada);
    expect(week).toMatchObject({ minutes: 0, sessions: 1 });
    expect(week.daily_minutes).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(week.daily_seconds).toEqual([20, 0, 0, 0, 0, 0, 0]);
  });

  it('counts of an entry begun before the week only its time inside it, and one ending just after now today', async () => {
    const ada = await person();
    await heard(ada, SINCE - 60 * 60_000, 90 * 60);
    // Recorded by a device whose clock runs two minutes ahead (as recording allows): it ends after now.
    await heard(ada, NOW.getTime() - 8 * 60_000, 10 * 60);
    const { week } = await practiceOf(ada);
    expect(week.daily_minutes).toEqual([30, 0, 0, 0, 0, 0, 10]);
    expect(week.minutes).toBe(40);
  });
});

// A session still playing (in another tab, on the phone) is in the practice view at the length it last sent, as what
// was heard so far; its end replaces that entry (decision 090) and is counted once, not beside it (decision 096).
describe('a session sent as it goes', () => {
  const MINUTE = 60_000;
  /** A record of the session `key` begun at `at`, `seconds` heard so far; `clockAhead` the sender's clock's lead. */
  const sofar = (userId: number, key: string, at: number, seconds: number, clockAhead = 0) =>
    recordSession(
      database.db,
      userId,
      {
        kind: 'music',
        ref: 'track:3',
        title: 'Ocean Drift',
        seconds,
        finished: false,
        started_at: new Date(at + clockAhead).toISOString(),
        sent_at: new Date(NOW.getTime() + clockAhead).toISOString(),
        record_key: key,
      },
      NOW,
    );

  it('counts it at its length so far, and its end once in its place, beside another tab playing over it', async () => {
    const ada = await person();
    const key = '4a3b2c1d-0e9f-4a8b-8c7d-6e5f4a3b2c1d';
    const at = NOW.getTime() - 30 * MINUTE;
    await sofar(ada, key, at, 5 * 60);
    expect((await practiceOf(ada)).week).toMatchObject({
      minutes: 5,
      sessions: 1,
      daily_minutes: [0, 0, 0, 0, 0, 0, 5],
    });
    // Another tab plays over it meanwhile, from a minute in for ten minutes.
    await heard(ada, at + MINUTE, 10 * 60, 'In another tab');
    expect((await practiceOf(ada)).week).toMatchObject({ minutes: 11, sessions: 1 });

    // Its end, sent from a clock a second ahead: twenty minutes, the other tab's within them.
    await sofar(ada, key, at, 20 * 60, 1000);
    let practice = await practiceOf(ada);
    expect(practice.week).toMatchObject({ minutes: 20, sessions: 1, daily_minutes: [0, 0, 0, 0, 0, 0, 20] });
    expect(practice.total_sessions).toBe(1);
    // A copy of the earlier record arriving late changes nothing.
    await sofar(ada, key, at, 5 * 60);
    practice = await practiceOf(ada);
    expect(practice.week).toMatchObject({ minutes: 20, sessions: 1 });
    expect(practice.last_sessions.map((entry) => [entry.title, entry.seconds])).toEqual([
      ['In another tab', 600],
      ['Ocean Drift', 1200],
    ]);
  });

  it('counts of one begun before the week the time inside it, so far and at its end', async () => {
    const ada = await person();
    const key = '5b4c3d2e-1f0a-4b9c-8d7e-6f5a4b3c2d1e';
    // Begun two minutes before the week's edge: three of its five minutes so far are inside it, then eighteen of twenty.
    await sofar(ada, key, SINCE - 2 * MINUTE, 5 * 60);
    // Heard inside the week, it is one of the week's sittings, as its minutes are the week's.
    expect((await practiceOf(ada)).week).toMatchObject({ sessions: 1, daily_minutes: [3, 0, 0, 0, 0, 0, 0] });
    await sofar(ada, key, SINCE - 2 * MINUTE, 20 * 60);
    const practice = await practiceOf(ada);
    expect(practice.week).toMatchObject({ minutes: 18, sessions: 1, daily_minutes: [18, 0, 0, 0, 0, 0, 0] });
    expect(practice.total_sessions).toBe(1);
  });
});

describe('the whole history, a page at a time (the data export)', () => {
  it('reads each session once, not all those after a page’s edge for every page, with statistics from before it filled', async () => {
    const { db } = database;
    const ada = await person();
    const sessions = 3000;
    await db.execute(
      sql.raw(`insert into listening_history (user_id, kind, title, seconds, finished, started_at)
        select ${ada}, 'music', 'Session ' || n, 60, true, now() - n * interval '1 hour'
        from generate_series(1, ${sessions}) n`),
    );
    // The rows the database has fetched from the table, as its statistics views count them. The table was analysed
    // empty (by the migrations, decision 095) and not since, as it is until autovacuum or the embedded database's
    // next round comes by: the planner then takes a bitmap scan and a sort for each page, unless kept from it (087).
    const rowsRead = async () => {
      await db.execute(sql`select pg_stat_force_next_flush()`);
      const [row] = await queryRows<{ read: string }>(
        db,
        sql`select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as read
            from pg_stat_user_tables where relname = 'listening_history'`,
      );
      return Number(row!.read);
    };
    const before = await rowsRead();
    let read = 0;
    for await (const page of historyPages(db, ada, 100)) read += page.length;
    expect(read).toBe(sessions);
    // Each page fetches its 100 rows and the one past its end (3,030); every row past each edge was 46,530.
    expect((await rowsRead()) - before).toBeLessThanOrEqual(sessions * 1.1);
  });
});
