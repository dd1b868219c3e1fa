import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { API, CONTROL_CHARACTER_REFUSED, fillPath } from '@shared/contract';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { guidancePreferences, programDays, programs } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser } from '../test/fixtures';
import { expectAnHourFrom } from '../test/rate-limits';
import { ownTestKit } from '../own/test-kit';
import { seedMessageCategories } from '../seed/service';
import { seedPrograms } from './programs';
import { HISTORY_WRITES_PER_HOUR, PROGRAM_PROGRESS_WRITES_PER_HOUR } from './routes';
import { SEED_PROGRAMS } from './seed-programs';

/** 600 calls one after another: 6–10 s on a quiet machine; 30–60 s on two cores at a load of 10–20. */
const SIX_HUNDRED_CALLS_MS = 120_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedMessageCategories(t.database.db);
  await seedPrograms(t.database.db);
});
afterAll(() => t.close());

const { call, setPlan, ownMessagesUpTo } = ownTestKit(() => t);
const programPath = (slug: string) => fillPath(API.program, { slug });
const completePath = (slug: string, day: number | string) => fillPath(API.programDayComplete, { slug, day });
const progressPath = (slug: string) => fillPath(API.programProgress, { slug });
const SLEEP = 'seven-nights-of-rest';

const session = (overrides: object = {}) => ({
  kind: 'program',
  ref: `program:${SLEEP}/1`,
  title: 'Seven Nights of Rest · Day 1',
  seconds: 600,
  finished: true,
  started_at: new Date(Date.now() - 15 * 60_000).toISOString(),
  ...overrides,
});

describe('guidance calls', () => {
  it('need a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', API.onboarding],
      ['PUT', API.onboarding],
      ['GET', API.programs],
      ['GET', programPath(SLEEP)],
      ['POST', completePath(SLEEP, 1)],
      ['DELETE', progressPath(SLEEP)],
      ['GET', API.history],
      ['POST', API.history],
      ['DELETE', API.history],
      ['GET', API.practice],
      ['PUT', API.reminders],
      ['GET', API.recommendations],
    ] as const)
      expect(
        (await call(undefined, method, url, method === 'GET' || method === 'DELETE' ? undefined : {})).statusCode,
        `${method} ${url}`,
      ).toBe(401);
  });
});

describe('the OpenAPI description', () => {
  it('lists every guidance call', async () => {
    const spec = (await call(undefined, 'GET', API.openapi)).json();
    const paths = Object.keys(spec.paths);
    for (const path of [
      '/api/user/onboarding/',
      '/api/user/programs/{slug}/days/{day}/complete/',
      '/api/user/recommendations/',
      '/api/admin/programs/{slug}/',
    ])
      expect(paths).toContain(path);
    expect(Object.keys(spec.paths['/api/user/history/'])).toEqual(expect.arrayContaining(['get', 'post', 'delete']));
  });
});

describe('onboarding', () => {
  it('is unanswered at first, then saved, changed and kept apart per person', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    expect((await call(ada, 'GET', API.onboarding)).json()).toEqual({
      goals: [],
      free_text: '',
      headphones: null,
      session_minutes: null,
      skipped: false,
      completed_at: null,
    });
    const saved = await call(ada, 'PUT', API.onboarding, {
      goals: ['sleep', 'calm'],
      free_text: '  I lie awake at night  ',
      headphones: true,
      session_minutes: 10,
    });
    expect(saved.statusCode).toBe(200);
    const answered = saved.json();
    expect(answered).toMatchObject({ goals: ['sleep', 'calm'], free_text: 'I lie awake at night', skipped: false });
    expect(answered.completed_at).toEqual(expect.any(String));

    const changed = (await call(ada, 'PUT', API.onboarding, { goals: ['focus'] })).json();
    expect(changed).toMatchObject({ goals: ['focus'], headphones: null, completed_at: answered.completed_at });
    expect((await call(bea, 'GET', API.onboarding)).json().completed_at).toBeNull();
  });

  it('can be skipped', async () => {
    const ada = await signedInUser(t.ctx);
    const skipped = (await call(ada, 'PUT', API.onboarding, { skipped: true })).json();
    expect(skipped).toMatchObject({ goals: [], skipped: true, completed_at: expect.any(String) });
  });

  it('refuses what is not on the lists, with the field named', async () => {
    const ada = await signedInUser(t.ctx);
    const bad = await call(ada, 'PUT', API.onboarding, {
      goals: ['sleep', 'sleep', 'fame'],
      free_text: 'x'.repeat(201),
      headphones: 'yes',
      session_minutes: 7,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['free_text', 'goals', 'headphones', 'session_minutes']);
    expect(bad.json().free_text).toEqual(['Ensure this field has no more than 200 characters.']);
  });

  it('reads one’s own words as any typed text: invisible ends dropped, direction and control characters refused', async () => {
    const ada = await signedInUser(t.ctx);
    await call(ada, 'PUT', API.onboarding, { free_text: 'Less rush' });
    for (const free_text of ['Less \u202Erush', 'Less\u2066 rush', 'Less rush\u0007 now']) {
      const refused = await call(ada, 'PUT', API.onboarding, { free_text });
      expect([refused.statusCode, Object.keys(refused.json())], JSON.stringify(free_text)).toEqual([
        400,
        ['free_text'],
      ]);
    }
    expect((await call(ada, 'GET', API.onboarding)).json().free_text).toBe('Less rush');

    const trimmed = await call(ada, 'PUT', API.onboarding, { free_text: '\u200B\u200F Less rush \uFEFF' });
    expect(trimmed.json().free_text).toBe('Less rush');
    // Only invisible characters say nothing: stored as no words, so no recommendation quotes an empty “”.
    const invisible = await call(ada, 'PUT', API.onboarding, { free_text: '\u200B\u2060' });
    expect(invisible.json().free_text).toBe('');
    expect((await call(ada, 'PUT', API.onboarding, { free_text: 'Ruhe 👨‍👩‍👧\tjetzt' })).json().free_text).toBe(
      'Ruhe 👨‍👩‍👧\tjetzt',
    );
  });
  it('keeps one’s own words stored with a control character before 063 through a change of the goals, until typed anew', async () => {
    const ada = await signedInUser(t.ctx);
    await call(ada, 'PUT', API.onboarding, { goals: ['calm'], free_text: 'Less rush' });
    // As a row written before the rule holds it (decision 133).
    await t.database.db
      .update(guidancePreferences)
      .set({ freeText: 'Less\u0007 rush' })
      .where(eq(guidancePreferences.userId, ada.id));
    const goals = await call(ada, 'PUT', API.onboarding, { goals: ['sleep'], free_text: 'Less\u0007 rush' });
    expect(goals.statusCode).toBe(200);
    expect(goals.json()).toMatchObject({ goals: ['sleep'], free_text: 'Less\u0007 rush' });
    // What else is wrong is still said, the words left alone; typed anew, they are refused as any typed text is.
    const wrong = await call(ada, 'PUT', API.onboarding, { goals: ['nap'], free_text: 'Less\u0007 rush' });
    expect(Object.keys(wrong.json())).toEqual(['goals']);
    const typed = await call(ada, 'PUT', API.onboarding, { goals: ['sleep'], free_text: 'Less\u0007 rush now' });
    expect(typed.json()).toEqual({ free_text: [CONTROL_CHARACTER_REFUSED] });
    expect((await call(ada, 'GET', API.onboarding)).json()).toMatchObject({
      goals: ['sleep'],
      free_text: 'Less\u0007 rush',
    });
  });
});

describe('programs', () => {
  it('are listed with their days and the person’s progress', async () => {
    const ada = await signedInUser(t.ctx);
    const list = (await call(ada, 'GET', API.programs)).json();
    expect(list.map((p: { slug: string }) => p.slug)).toEqual(SEED_PROGRAMS.map((p) => p.slug));
    expect(list[0]).toMatchObject({
      slug: SLEEP,
      day_count: 7,
      goals: ['sleep', 'calm'],
      progress: { completed_days: [], next_day: 1, last_completed_at: null },
    });
    const program = (await call(ada, 'GET', programPath(SLEEP))).json();
    expect(program.days).toHaveLength(7);
    expect(program.days[0]).toMatchObject({ day: 1, minutes: 10, layers: [{ kind: 'noise', colour: 'brown' }] });
    // The test database has no audio library: a track layer names its track and has no id.
    expect(program.days[1].layers[1]).toMatchObject({ kind: 'track', name: '174 Hz · Foundation', track_id: null });
  });

  it('are read with a day’s texts stored with a control character before 063 as they are, for members and staff', async () => {
    const [program] = await t.database.db.select().from(programs).where(eq(programs.slug, SLEEP));
    const day = and(eq(programDays.programId, program!.id), eq(programDays.day, 7));
    const [before] = await t.database.db.select().from(programDays).where(day);
    // As a row written before the rule holds it (decision 133).
    await t.database.db
      .update(programDays)
      .set({ title: 'Night\u0007 seven', intro: 'Rest\u0007.', messages: ['I\u0007 rest.'] })
      .where(day);
    try {
      const read = await call(await signedInUser(t.ctx), 'GET', programPath(SLEEP));
      expect(read.statusCode).toBe(200);
      expect(read.json().days[6]).toMatchObject({
        title: 'Night\u0007 seven',
        intro: 'Rest\u0007.',
        messages: ['I\u0007 rest.'],
      });
      const staff = await call(
        await signedInUser(t.ctx, { isStaff: true }),
        'GET',
        adminPath(ADMIN_API.program, { slug: SLEEP }),
      );
      expect(staff.statusCode).toBe(200);
      expect(staff.json().days[6]).toMatchObject({ title: 'Night\u0007 seven' });
    } finally {
      await t.database.db.update(programDays).set(before!).where(day);
    }
  });

  it('keep each person’s progress apart, and start over', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    expect((await call(ada, 'POST', completePath(SLEEP, 1))).json()).toMatchObject({
      completed_days: [1],
      next_day: 2,
      last_completed_at: expect.any(String),
    });
    await call(ada, 'POST', completePath(SLEEP, 1));
    const second = (await call(ada, 'POST', completePath(SLEEP, 3))).json();
    expect(second).toMatchObject({ completed_days: [1, 3], next_day: 2 });
    expect((await call(bea, 'GET', programPath(SLEEP))).json().progress.completed_days).toEqual([]);
    expect((await call(ada, 'GET', API.programs)).json()[0].progress.completed_days).toEqual([1, 3]);

    expect((await call(ada, 'DELETE', progressPath(SLEEP))).statusCode).toBe(204);
    expect((await call(ada, 'GET', programPath(SLEEP))).json().progress).toMatchObject({
      completed_days: [],
      next_day: 1,
    });
  });

  it('count as started from the first session of a day recorded, before any day is done, until a reset', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    const progressOf = async (who: typeof ada) => (await call(who, 'GET', programPath(SLEEP))).json().progress;
    expect(await progressOf(ada)).toMatchObject({ started_at: null, completed_days: [] });
    // Day 1 under way, sent as it goes (decision 090): 40 s heard so far, nothing done.
    const began = new Date(Date.now() - 60_000);
    await call(ada, 'POST', API.history, session({ seconds: 40, finished: false, started_at: began.toISOString() }));
    expect(await progressOf(ada)).toMatchObject({ started_at: began.toISOString(), completed_days: [] });
    // A later session keeps the first start; another program's, or a track's, starts nothing else; Bea's is hers.
    await call(ada, 'POST', API.history, session({ ref: `program:${SLEEP}/2`, started_at: new Date().toISOString() }));
    await call(ada, 'POST', API.history, session({ kind: 'music', ref: 'track:3', title: 'Ocean Drift' }));
    expect((await progressOf(ada)).started_at).toBe(began.toISOString());
    expect((await progressOf(bea)).started_at).toBeNull();
    const list = (await call(ada, 'GET', API.programs)).json() as { slug: string; progress: { started_at: unknown } }[];
    expect(list.filter((program) => program.progress.started_at !== null).map((program) => program.slug)).toEqual([
      SLEEP,
    ]);
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const startedBefore = (await call(staff, 'GET', adminPath(ADMIN_API.program, { slug: SLEEP }))).json()
      .people_started as number;
    expect((await call(ada, 'GET', API.userExport)).json().guidance.programs).toEqual([
      expect.objectContaining({ slug: SLEEP, completed_days: [], started_at: began.toISOString() }),
    ]);
    // Deleting the history keeps it, as it keeps the days done; a reset forgets it.
    await call(ada, 'DELETE', API.history);
    expect((await progressOf(ada)).started_at).toBe(began.toISOString());
    expect((await call(ada, 'DELETE', progressPath(SLEEP))).statusCode).toBe(204);
    expect((await progressOf(ada)).started_at).toBeNull();
    expect((await call(staff, 'GET', adminPath(ADMIN_API.program, { slug: SLEEP }))).json().people_started).toBe(
      startedBefore - 1,
    );
    // A day done starts it too.
    await call(bea, 'POST', completePath(SLEEP, 2));
    expect((await progressOf(bea)).started_at).toEqual(expect.any(String));
  });

  it(
    'take a backlog of days marked done in a row, and refuse a script past the hourly limit with 429',
    async () => {
      const ada = await signedInUser(t.ctx);
      const bea = await signedInUser(t.ctx);
      // A browser back online marks the days of its backlog of records (at most 200) one after another;
      // starting over counts with them.
      const statuses = new Set<number>();
      const began = Date.now();
      for (let i = 0; i < PROGRAM_PROGRESS_WRITES_PER_HOUR - 1; i++)
        statuses.add((await call(ada, 'POST', completePath(SLEEP, (i % 7) + 1))).statusCode);
      statuses.add((await call(ada, 'DELETE', progressPath(SLEEP))).statusCode);
      expect(statuses).toEqual(new Set([200, 204]));

      for (const over of [
        await call(ada, 'POST', completePath(SLEEP, 1)),
        await call(ada, 'DELETE', progressPath(SLEEP)),
      ]) {
        expect(over.statusCode).toBe(429);
        expect(over.json()).toEqual({
          detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/),
        });
        expectAnHourFrom(began, over.headers['retry-after']);
      }
      // Nothing was written past the limit: the reset before it holds.
      expect((await call(ada, 'GET', programPath(SLEEP))).json().progress.completed_days).toEqual([]);
      // The limit is the person's: another marks a day as usual, and reading is not counted.
      expect((await call(bea, 'POST', completePath(SLEEP, 1))).statusCode).toBe(200);
      expect((await call(ada, 'GET', API.programs)).statusCode).toBe(200);
    },
    SIX_HUNDRED_CALLS_MS,
  );

  it('answer 404 for a program or day that does not exist, malformed ones too', async () => {
    const ada = await signedInUser(t.ctx);
    expect((await call(ada, 'GET', programPath('no-such-program'))).statusCode).toBe(404);
    expect((await call(ada, 'POST', completePath(SLEEP, 8))).statusCode).toBe(404);
    expect((await call(ada, 'DELETE', progressPath('no-such-program'))).statusCode).toBe(404);
    expect((await call(ada, 'GET', programPath('Not A Slug'))).statusCode).toBe(404);
    expect((await call(ada, 'POST', completePath(SLEEP, 'one'))).statusCode).toBe(404);
    for (const day of ['1.0', '1e0', '+1', ' 1', '0x1', '01'])
      expect((await call(ada, 'POST', completePath(SLEEP, day))).statusCode, day).toBe(404);
  });
});

describe('history and practice', () => {
  it('records sessions, lists them newest first, and only the person’s own', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    const first = await call(ada, 'POST', API.history, session());
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      kind: 'program',
      seconds: 600,
      finished: true,
      recorded_at: expect.any(String),
    });
    await call(
      ada,
      'POST',
      API.history,
      session({
        kind: 'music',
        ref: 'track:3',
        title: 'Ocean Drift',
        seconds: 95,
        finished: false,
        started_at: new Date().toISOString(),
      }),
    );
    await call(bea, 'POST', API.history, session({ title: 'Bea’s session' }));

    const listed = (await call(ada, 'GET', API.history)).json();
    expect(listed.map((e: { title: string }) => e.title)).toEqual(['Ocean Drift', 'Seven Nights of Rest · Day 1']);
    expect((await call(ada, 'GET', `${API.history}?limit=1`)).json()).toHaveLength(1);

    const practice = (await call(ada, 'GET', API.practice)).json();
    expect(practice.week).toMatchObject({ minutes: 12, sessions: 2 });
    expect(practice.week.daily_minutes).toHaveLength(7);
    expect(practice.total_sessions).toBe(2);
    expect(practice.last_sessions).toHaveLength(2);
    expect(practice.reminder).toEqual({ enabled: false, time_of_day: null });
  });

  it('refuses a bad session with each field named', async () => {
    const ada = await signedInUser(t.ctx);
    const bad = await call(ada, 'POST', API.history, {
      kind: 'podcast',
      title: ' ',
      seconds: 86_401,
      finished: 'yes',
      started_at: 'yesterday',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['finished', 'kind', 'seconds', 'started_at', 'title']);
    const future = await call(
      ada,
      'POST',
      API.history,
      session({ started_at: new Date(Date.now() + 3_600_000).toISOString() }),
    );
    expect(future.statusCode).toBe(400);
    expect(future.json()).toEqual({ started_at: ['The start may not be in the future.'] });
    // Started now, a day long: it would end tomorrow (and count a day's minutes today).
    const unfinished = await call(
      ada,
      'POST',
      API.history,
      session({ started_at: new Date().toISOString(), seconds: 86_400 }),
    );
    expect([unfinished.statusCode, unfinished.json()]).toEqual([
      400,
      { seconds: ['The session may not end in the future.'] },
    ]);
    const ancient = await call(ada, 'POST', API.history, session({ started_at: '0000-01-01T00:00:00Z' }));
    expect(ancient.json()).toEqual({ started_at: ['The start may not be before 2000.'] });
    expect((await call(ada, 'GET', `${API.history}?limit=0`)).statusCode).toBe(400);
    const negative = await call(ada, 'GET', `${API.history}?limit=-1`);
    expect([negative.statusCode, negative.json()]).toEqual([
      400,
      { limit: ['Ensure this value is greater than or equal to 1.'] },
    ]);
    expect((await call(ada, 'GET', `${API.history}?limit=101`)).statusCode).toBe(400);
    for (const limit of ['0x10', '1e2', '1.0', '+1', '', '%201', '1&limit=2']) {
      const malformed = await call(ada, 'GET', `${API.history}?limit=${limit}`);
      expect(malformed.statusCode, limit).toBe(400);
      expect(malformed.json()).toEqual({ limit: ['A valid integer is required.'] });
    }
    expect((await call(ada, 'GET', `${API.history}?limit=010`)).statusCode).toBe(200);
  });

  it('takes a ref in the shapes the portal writes and refuses any other, adding nothing', async () => {
    const ada = await signedInUser(t.ctx);
    for (const ref of ['', `program:${SLEEP}/3`, 'category:4', 'track:12', 'own-track:12']) {
      expect((await call(ada, 'POST', API.history, session({ ref }))).statusCode, ref).toBe(201);
    }
    for (const ref of [
      'javascript:alert(1)',
      'https://example.com/',
      `program:${SLEEP}`,
      `program:${SLEEP}/0`,
      'program:Not A Slug/1',
      'category:four',
      'own-category:2',
      'track:12/extra',
      'own-track:',
      'own:12',
    ]) {
      const refused = await call(ada, 'POST', API.history, session({ ref }));
      expect([refused.statusCode, refused.json()], ref).toEqual([
        400,
        { ref: ['Use program:<slug>/<day>, category:<id>, track:<id>, own-track:<id> or leave it empty.'] },
      ]);
    }
    const kept = (await call(ada, 'GET', API.history)).json() as { ref: string }[];
    expect(kept.map((entry) => entry.ref).sort()).toEqual(
      ['', 'category:4', `program:${SLEEP}/3`, 'own-track:12', 'track:12'].sort(),
    );
  });

  it('records a record sent again with its key once, and answers the first entry', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    const record_key = '0b6f8a52-3c1d-4e0f-9a7b-2d5c8e1f4a60';
    const first = await call(ada, 'POST', API.history, session({ record_key }));
    expect(first.statusCode).toBe(201);
    const again = await call(ada, 'POST', API.history, session({ record_key, title: 'Sent again' }));
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
    // Two tabs delivering it at the same moment.
    const other_key = '6d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
    const both = await Promise.all(
      [1, 2].map(() => call(ada, 'POST', API.history, session({ record_key: other_key }))),
    );
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 201]);
    expect(both[0]!.json().id).toBe(both[1]!.json().id);
    // Without a key, each record is its own.
    await call(ada, 'POST', API.history, session());
    await call(ada, 'POST', API.history, session());
    expect((await call(ada, 'GET', API.history)).json()).toHaveLength(4);
    // The key is the person's: another's record with the same key is theirs.
    expect((await call(bea, 'POST', API.history, session({ record_key }))).statusCode).toBe(201);
    expect((await call(bea, 'GET', API.history)).json()).toHaveLength(1);

    const bad = await call(ada, 'POST', API.history, session({ record_key: 'tab-1-session-3' }));
    expect([bad.statusCode, bad.json()]).toEqual([400, { record_key: ['Must be a valid UUID.'] }]);
  });

  // A session under way is sent as it goes, under one key (docs/decisions/090-a-session-is-recorded-as-it-goes.md).
  it('replaces the entry of a key with a longer record of it, never with a shorter or as long one', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    const record_key = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    const started_at = new Date(Date.now() - 15 * 60_000).toISOString();
    const sofar = (seconds: number, finished = false) =>
      session({ record_key, started_at, seconds, finished, kind: 'music', ref: 'track:3', title: 'Ocean Drift' });
    const first = await call(ada, 'POST', API.history, sofar(60));
    expect(first.statusCode).toBe(201);

    const longer = await call(ada, 'POST', API.history, { ...sofar(240), title: 'Ocean Drift + Rain' });
    expect([longer.statusCode, longer.json()]).toEqual([
      200,
      { ...first.json(), seconds: 240, title: 'Ocean Drift + Rain', recorded_at: expect.any(String) },
    ]);
    // A late copy of the first, and the same length again: what is kept stays.
    for (const again of [sofar(60), sofar(240)])
      expect([(await call(ada, 'POST', API.history, again)).statusCode]).toEqual([200]);
    // Played to its end in as long: the same entry, finished.
    const ended = await call(ada, 'POST', API.history, sofar(240, true));
    expect([ended.statusCode, ended.json()]).toMatchObject([
      200,
      { id: first.json().id, seconds: 240, finished: true },
    ]);
    expect((await call(ada, 'POST', API.history, sofar(240))).json()).toMatchObject({ finished: true });

    const entries = (await call(ada, 'GET', API.history)).json();
    expect(entries).toEqual([expect.objectContaining({ id: first.json().id, seconds: 240, finished: true })]);
    const practice = (await call(ada, 'GET', API.practice)).json();
    expect(practice.week).toMatchObject({ minutes: 4, sessions: 1 });
    expect(practice.total_sessions).toBe(1);

    // Another person's record with the same key is theirs, and changes nothing of Ada's.
    const beas = await call(bea, 'POST', API.history, sofar(600));
    expect(beas.statusCode).toBe(201);
    expect(beas.json().id).not.toBe(first.json().id);
    expect((await call(ada, 'GET', API.history)).json()).toEqual(entries);
  });

  it('keeps the longest of records of one key sent at once, in one entry', async () => {
    const ada = await signedInUser(t.ctx);
    const record_key = '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182';
    const started_at = new Date(Date.now() - 15 * 60_000).toISOString();
    const answers = await Promise.all(
      [30, 90, 60, 120, 45].map((seconds) =>
        call(ada, 'POST', API.history, session({ record_key, started_at, seconds, finished: false })),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect((await call(ada, 'GET', API.history)).json()).toEqual([expect.objectContaining({ seconds: 120 })]);
  });

  it(
    'takes backlogs of 200 records in a row, and refuses a script past the hourly limit with 429',
    async () => {
      const ada = await signedInUser(t.ctx);
      const bea = await signedInUser(t.ctx);
      // One after another, as a browser delivers them.
      const sent = async (count: number, key: string) => {
        const statuses = new Set<number>();
        for (let i = 0; i < count; i++)
          statuses.add((await call(ada, 'POST', API.history, session({ record_key: key }))).statusCode);
        return statuses;
      };
      // A browser back online delivers its whole backlog (at most 200 records) in a row.
      const began = Date.now();
      expect(await sent(200, '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5')).toEqual(new Set([201, 200]));
      expect(await sent(HISTORY_WRITES_PER_HOUR - 200, '2d3e4f5a-6b7c-4d8e-9fa0-b1c2d3e4f5a6')).toEqual(
        new Set([201, 200]),
      );
      const over = await call(ada, 'POST', API.history, session());
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({
        detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/),
      });
      expectAnHourFrom(began, over.headers['retry-after']);
      // The limit is the person's: another records as usual, and reading is not counted.
      expect((await call(bea, 'POST', API.history, session())).statusCode).toBe(201);
      expect((await call(ada, 'GET', API.history)).statusCode).toBe(200);
    },
    SIX_HUNDRED_CALLS_MS,
  );

  it('is deleted all at once, the person’s only', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    await call(ada, 'POST', API.history, session());
    await call(bea, 'POST', API.history, session());
    expect((await call(ada, 'DELETE', API.history)).statusCode).toBe(204);
    expect((await call(ada, 'GET', API.history)).json()).toEqual([]);
    expect((await call(ada, 'GET', API.practice)).json().week).toMatchObject({ minutes: 0, sessions: 0 });
    expect((await call(bea, 'GET', API.history)).json()).toHaveLength(1);
  });

  it('stays deleted: a session begun before the deletion, sent late, is not added; one begun after is', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    // Played in another browser before the deletion, its record still waiting there.
    const before = session({ started_at: new Date(Date.now() - 60_000).toISOString(), seconds: 30 });
    await call(ada, 'POST', API.history, session());
    expect((await call(ada, 'DELETE', API.history)).statusCode).toBe(204);

    const late = await call(ada, 'POST', API.history, {
      ...before,
      record_key: '3f2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d',
    });
    expect([late.statusCode, late.json()]).toEqual([
      409,
      { detail: 'The history was deleted after this session began, so it is not added.', code: 'history_deleted' },
    ]);
    // Without a key, and sent again: the same answer, and nothing added.
    expect((await call(ada, 'POST', API.history, before)).statusCode).toBe(409);
    expect((await call(ada, 'GET', API.history)).json()).toEqual([]);
    expect((await call(ada, 'GET', API.practice)).json().total_sessions).toBe(0);

    // Begun after the deletion: recorded as before.
    const after = await call(ada, 'POST', API.history, session({ started_at: new Date().toISOString(), seconds: 1 }));
    expect(after.statusCode).toBe(201);
    expect((await call(ada, 'GET', API.history)).json()).toHaveLength(1);
    // Another person's history is theirs: Ada's deletion refuses none of Bea's.
    expect((await call(bea, 'POST', API.history, before)).statusCode).toBe(201);
  });

  // A session sent as it goes (decision 090) that was under way when the history was deleted began before it: what
  // it had sent goes with the rest, and what it sends after, checkpoint or end, is refused (decisions 054, 096).
  it('keeps out a session under way while the history is deleted: its later records and its end do not bring it back', async () => {
    const ada = await signedInUser(t.ctx);
    const record_key = '7e6d5c4b-3a29-4180-9f6e-5d4c3b2a1908';
    const started_at = new Date(Date.now() - 10 * 60_000).toISOString();
    const sofar = (seconds: number, finished = false) =>
      session({ record_key, started_at, seconds, finished, kind: 'music', ref: 'track:3', title: 'Ocean Drift' });
    // An earlier sitting, and this one's first minutes.
    await call(ada, 'POST', API.history, session({ started_at: new Date(Date.now() - 60 * 60_000).toISOString() }));
    expect((await call(ada, 'POST', API.history, sofar(120))).statusCode).toBe(201);
    expect((await call(ada, 'GET', API.practice)).json().week).toMatchObject({ minutes: 12, sessions: 2 });

    expect((await call(ada, 'DELETE', API.history)).statusCode).toBe(204);
    for (const later of [sofar(240), sofar(300, true)]) {
      const answer = await call(ada, 'POST', API.history, later);
      expect([answer.statusCode, answer.json().code]).toEqual([409, 'history_deleted']);
    }
    expect((await call(ada, 'GET', API.history)).json()).toEqual([]);
    const practice = (await call(ada, 'GET', API.practice)).json();
    expect(practice.week).toMatchObject({ minutes: 0, sessions: 0 });
    expect(practice.total_sessions).toBe(0);
  });

  // The start is the browser's clock, the deletion the server's: a browser that says its clock as it
  // sends (sent_at) has its start set by the server's (docs/decisions/054-a-deleted-history-stays-deleted.md).
  describe("by the server's clock", () => {
    const TEN_MINUTES = 10 * 60_000;
    /** What a browser whose clock is `ahead` ms ahead of the server's (behind when negative) reads now. */
    const clockOf = (ahead: number) => new Date(Date.now() + ahead).toISOString();

    it('records a session begun just after a deletion in a browser minutes slow, at its true start', async () => {
      const ada = await signedInUser(t.ctx);
      expect((await call(ada, 'DELETE', API.history)).statusCode).toBe(204);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const trueStart = Date.now();
      const played = session({ started_at: clockOf(-TEN_MINUTES), seconds: 1 });
      // An older client says nothing of its clock: the start is taken as it is, before the deletion.
      expect((await call(ada, 'POST', API.history, played)).statusCode).toBe(409);

      const sent = await call(ada, 'POST', API.history, { ...played, sent_at: clockOf(-TEN_MINUTES) });
      const answered = Date.now();
      expect(sent.statusCode).toBe(201);
      const [entry] = (await call(ada, 'GET', API.history)).json();
      // Between its true start and the answer: how long the calls took is the machine's, not a bound of ours.
      expect(Date.parse(entry.started_at)).toBeGreaterThanOrEqual(trueStart);
      expect(Date.parse(entry.started_at)).toBeLessThanOrEqual(answered);
      expect(entry.started_at).toBe(sent.json().started_at);
    });

    it('records a session from a browser minutes fast, which it refused as begun in the future', async () => {
      const ada = await signedInUser(t.ctx);
      const trueStart = Date.now() - 60_000;
      const played = session({ started_at: new Date(trueStart + TEN_MINUTES).toISOString(), seconds: 30 });
      expect((await call(ada, 'POST', API.history, played)).json()).toEqual({
        started_at: ['The start may not be in the future.'],
      });
      const sending = Date.now();
      const sent = await call(ada, 'POST', API.history, { ...played, sent_at: clockOf(TEN_MINUTES) });
      const took = Date.now() - sending;
      expect(sent.statusCode).toBe(201);
      // Its true start, moved on by at most the time the call took (the server reads its clock on receiving it).
      expect(Date.parse(sent.json().started_at) - trueStart).toBeGreaterThanOrEqual(0);
      expect(Date.parse(sent.json().started_at) - trueStart).toBeLessThanOrEqual(took);
    });

    it('lets a clock claimed claim no more than a start could: not in the future, not before 2000, not before a deletion', async () => {
      const ada = await signedInUser(t.ctx);
      const now = () => new Date().toISOString();
      // A clock said to be an hour behind would move a session begun now an hour into the future.
      const future = await call(
        ada,
        'POST',
        API.history,
        session({ started_at: now(), seconds: 1, sent_at: clockOf(-3_600_000) }),
      );
      expect([future.statusCode, future.json()]).toEqual([
        400,
        { started_at: ['The start may not be in the future.'] },
      ]);
      // Four minutes behind: a start now moved within the slack a clock may have, but its ten minutes are not over.
      const ended = await call(
        ada,
        'POST',
        API.history,
        session({ started_at: now(), seconds: 600, sent_at: clockOf(-4 * 60_000) }),
      );
      expect([ended.statusCode, ended.json()]).toEqual([400, { seconds: ['The session may not end in the future.'] }]);
      for (const sentAt of ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59-23:59']) {
        const ancient = await call(ada, 'POST', API.history, session({ sent_at: sentAt }));
        expect([ancient.statusCode, ancient.json()], sentAt).toEqual([
          400,
          { started_at: ['The start may not be before 2000.'] },
        ]);
      }
      const farFuture = await call(ada, 'POST', API.history, session({ sent_at: '0000-01-01T00:00:00Z' }));
      expect([farFuture.statusCode, farFuture.json()]).toEqual([
        400,
        { started_at: ['The start may not be in the future.'] },
      ]);
      const malformed = await call(ada, 'POST', API.history, session({ sent_at: 'now' }));
      expect([malformed.statusCode, malformed.json()]).toEqual([
        400,
        { sent_at: ['Enter a date and time as ISO 8601.'] },
      ]);
      // Before the deletion by the server's clock: kept out, whatever the browser's.
      expect((await call(ada, 'DELETE', API.history)).statusCode).toBe(204);
      const before = await call(
        ada,
        'POST',
        API.history,
        session({ started_at: clockOf(-60_000), seconds: 30, sent_at: now() }),
      );
      expect(before.statusCode).toBe(409);
      expect((await call(ada, 'GET', API.history)).json()).toEqual([]);
    });

    it('records a record sent again with another clock once, as first recorded', async () => {
      const ada = await signedInUser(t.ctx);
      const record = session({ seconds: 30, record_key: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' });
      const first = await call(ada, 'POST', API.history, { ...record, sent_at: clockOf(-TEN_MINUTES) });
      expect(first.statusCode).toBe(201);
      const again = await call(ada, 'POST', API.history, { ...record, sent_at: clockOf(0) });
      expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
    });
  });

  it('remembers a deletion without touching the onboarding or the reminder', async () => {
    const ada = await signedInUser(t.ctx);
    await call(ada, 'PUT', API.reminders, { enabled: true, time_of_day: '07:45' });
    expect((await call(ada, 'DELETE', API.history)).statusCode).toBe(204);
    expect((await call(ada, 'GET', API.onboarding)).json().completed_at).toBeNull();
    expect((await call(ada, 'GET', API.reminders)).json()).toEqual({ enabled: true, time_of_day: '07:45' });
    // A second deletion moves the moment on.
    const between = session({ started_at: new Date().toISOString(), seconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await call(ada, 'DELETE', API.history)).statusCode).toBe(204);
    expect((await call(ada, 'POST', API.history, between)).statusCode).toBe(409);
  });
});

describe('the export of one’s data', () => {
  it('holds the onboarding, reminder, program progress and whole history, the person’s only', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    await call(ada, 'PUT', API.onboarding, { goals: ['calm'], free_text: 'Less rush' });
    await call(ada, 'PUT', API.reminders, { enabled: true, time_of_day: '08:15' });
    await call(ada, 'POST', completePath(SLEEP, 2));
    await call(ada, 'POST', API.history, session());
    await call(bea, 'POST', API.history, session({ title: 'Bea’s' }));
    const exported = (await call(ada, 'GET', API.userExport)).json().guidance;
    expect(exported.onboarding).toMatchObject({ goals: ['calm'], free_text: 'Less rush' });
    expect(exported.reminder).toEqual({ enabled: true, time_of_day: '08:15' });
    expect(exported.programs).toEqual([expect.objectContaining({ slug: SLEEP, completed_days: [2] })]);
    expect(exported.listening_history.map((e: { title: string }) => e.title)).toEqual(['Seven Nights of Rest · Day 1']);
  });
});

describe('reminders', () => {
  it('are off until chosen, then daily at a time, and shown in the practice view', async () => {
    const ada = await signedInUser(t.ctx);
    expect((await call(ada, 'GET', API.reminders)).json()).toEqual({ enabled: false, time_of_day: null });
    const on = await call(ada, 'PUT', API.reminders, { enabled: true, time_of_day: '21:30' });
    expect(on.json()).toEqual({ enabled: true, time_of_day: '21:30' });
    expect((await call(ada, 'GET', API.practice)).json().reminder).toEqual({ enabled: true, time_of_day: '21:30' });
    // Choosing a reminder is not answering the onboarding.
    expect((await call(ada, 'GET', API.onboarding)).json().completed_at).toBeNull();
    expect((await call(ada, 'PUT', API.reminders, { enabled: false, time_of_day: '21:30' })).json()).toEqual({
      enabled: false,
      time_of_day: null,
    });
  });

  it('need a valid time when on', async () => {
    const ada = await signedInUser(t.ctx);
    expect((await call(ada, 'PUT', API.reminders, { enabled: true })).json()).toEqual({
      time_of_day: ['A daily reminder needs its time.'],
    });
    expect((await call(ada, 'PUT', API.reminders, { enabled: true, time_of_day: '25:00' })).statusCode).toBe(400);
  });
});

describe('recommendations', () => {
  it('are Pro only: Basic and Intermediate hear which plan has them', async () => {
    const ada = await signedInUser(t.ctx);
    for (const plan of ['basic', 'intermediate'] as const) {
      await setPlan(ada, plan);
      const refused = await call(ada, 'GET', API.recommendations);
      expect(refused.statusCode, plan).toBe(403);
      expect(refused.json()).toEqual({
        detail: 'Recommendations are part of the Pro plan.',
        code: 'plan_required',
        required_plan: 'pro',
      });
    }
  });

  it('follow the goals chosen, with a reason for each', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    await call(ada, 'PUT', API.onboarding, { goals: ['sleep'] });
    const answer = (await call(ada, 'GET', API.recommendations)).json();
    expect(answer.categories[0]).toMatchObject({ name: 'Restful Sleep', reason: 'Because you chose Sleep' });
    expect(answer.programs[0]).toMatchObject({ slug: SLEEP, reason: 'Because you chose Sleep' });
    expect(answer.messages.length).toBeGreaterThan(0);
    expect(answer.based_on).toEqual({ goals: ['sleep'], free_text: false, own_messages: false, history: false });
  });

  it('give each item the reason of the goal that ranked it, and leave out what the goals touch only in passing', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    await call(ada, 'PUT', API.onboarding, { goals: ['sleep', 'creativity'] });
    const answer = (await call(ada, 'GET', API.recommendations)).json();
    // Courage, Self-Love and Steady Focus each came "Because you chose Sleep", from a "rest" or an "evening".
    expect(answer.categories).toEqual([
      { id: expect.any(Number), name: 'Restful Sleep', reason: 'Because you chose Sleep' },
      { id: expect.any(Number), name: 'Creativity', reason: 'Because you chose Creativity' },
    ]);
    expect(answer.programs).toEqual([
      { slug: SLEEP, title: 'Seven Nights of Rest', reason: 'Because you chose Sleep' },
    ]);
    expect(answer.messages.length).toBeGreaterThan(0);
    for (const message of answer.messages)
      expect(message.reason).toBe(
        message.category_name === 'Restful Sleep' ? 'Because you chose Sleep' : 'Because you chose Creativity',
      );
    expect(answer.ranked).toBe(true);
  });

  it('use the person’s words, own messages and history, and no one else’s', async () => {
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    await setPlan(bea, 'pro');
    await call(ada, 'PUT', API.onboarding, { free_text: 'I keep procrastinating on my thesis' });
    await ownMessagesUpTo(ada, 3);
    await call(ada, 'POST', API.history, session({ title: 'Steady Focus · Day 1', ref: 'program:steady-focus/1' }));
    const answer = (await call(ada, 'GET', API.recommendations)).json();
    expect(answer.categories[0].name).toBe('Focus & Productivity');
    expect(answer.categories[0].reason).toMatch(/^Because you wrote “\u2068I keep procrastinating.*\u2069”$/);
    expect(answer.based_on).toEqual({ goals: [], free_text: true, own_messages: true, history: true });
    expect(answer.ranked).toBe(true);

    const beas = (await call(bea, 'GET', API.recommendations)).json();
    expect(beas.based_on).toEqual({ goals: [], free_text: false, own_messages: false, history: false });
    expect(beas.categories[0].reason).toBe('A gentle place to start');
    expect(beas.ranked).toBe(false);
  });

  it('quote the person’s words cut between characters, never inside an emoji', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    // The family emoji is five code points (eight UTF-16 units) from the 36th character on.
    await call(ada, 'PUT', API.onboarding, { free_text: 'I keep procrastinating on my thesis 👨‍👩‍👧 again' });
    const answer = (await call(ada, 'GET', API.recommendations)).json();
    expect(answer.categories[0].reason).toBe('Because you wrote “\u2068I keep procrastinating on my thesis…\u2069”');
  });

  it('start gently when what the person wrote matches nothing in the library, instead of suggesting nothing', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    await call(ada, 'PUT', API.onboarding, { free_text: 'Ich möchte ruhiger werden' });
    const answer = (await call(ada, 'GET', API.recommendations)).json();
    expect(answer.based_on).toEqual({ goals: [], free_text: true, own_messages: false, history: false });
    expect(answer.categories.length).toBeGreaterThan(0);
    expect(answer.categories[0].reason).toBe('A gentle place to start');
    expect(answer.programs[0].reason).toBe('A gentle place to start');
    expect(answer.ranked).toBe(false);
  });
});
