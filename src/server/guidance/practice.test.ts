import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { users } from '../db/schema';
import { createTestDatabase } from '../test/database';
import { readPractice, recordSession, SAMPLE_SECONDS, SITTING_PAUSE_SECONDS } from './practice';

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
    // The samples of a sitting that went on with a sound heard in earnest are not listed.
    expect(practice.last_sessions.map((entry) => entry.title)).toEqual(['The one kept']);
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
    expect(practice.week.minutes).toBe(15);
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
    at = (await heard(ada, at, SAMPLE_SECONDS - 1, 'Longest try')) + 1000;
    await heard(ada, at, 5, 'Shortest');
    const practice = await practiceOf(ada);
    expect(practice.week.sessions).toBe(1);
    expect(practice.last_sessions.map((entry) => entry.title)).toEqual(['Longest try']);
  });

  it('lists every stretch of at least the sample length, newest first, five at most', async () => {
    const ada = await person();
    let at = NOW.getTime() - 5 * 60 * 60_000;
    for (const n of [1, 2, 3, 4, 5, 6]) at = (await heard(ada, at, SAMPLE_SECONDS, `Stretch ${n}`)) + 1000;
    const practice = await practiceOf(ada);
    expect(practice.week.sessions).toBe(1);
    expect(practice.last_sessions.map((entry) => entry.title)).toEqual([6, 5, 4, 3, 2].map((n) => `Stretch ${n}`));
  });

  it('is empty for someone who has listened to nothing', async () => {
    const practice = await practiceOf(await person());
    expect(practice.week).toMatchObject({ sessions: 0, minutes: 0 });
    expect(practice.total_sessions).toBe(0);
    expect(practice.last_sessions).toEqual([]);
  });
});
