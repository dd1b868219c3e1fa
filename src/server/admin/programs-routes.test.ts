import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_API,
  API,
  adminPath,
  changedMeanwhileMessage,
  CONTROL_CHARACTER_REFUSED,
  DIRECTION_CONTROL_REFUSED,
  fillPath,
  GOAL_IDS,
  MESSAGE_CHANGED_CODE,
  PROGRAM_BODY_BYTES,
  PROGRAM_DAY_LAYERS_MAX,
  PROGRAM_DAY_MESSAGES_MAX,
  PROGRAM_DAY_MINUTES,
  PROGRAM_DAYS_MAX,
  PROGRAM_INTRO_MAX,
  PROGRAM_MESSAGE_MAX,
  PROGRAM_SLUG_MAX,
  PROGRAM_SUMMARY_MAX,
  PROGRAM_TITLE_MAX,
  PROGRAM_TRACK_NAME_MAX,
  programWriteOf,
  type AdminProgramWrite,
} from '@shared/contract';
import { and, eq } from 'drizzle-orm';
import { audioItems, programDays, programs } from '../db/schema';
import { createTestApp, testEnv, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { seedPrograms } from '../guidance/programs';
import { SEED_PROGRAMS } from '../guidance/seed-programs';
import { runCli } from './cli';

// Staff editing of programs (docs/product/guidance.md#staff-editing): the admin API and the CLI.

let t: TestApp;
let staff: SignedInUser;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  staff = await signedInUser(t.ctx, { isStaff: true });
  dir = mkdtempSync(path.join(tmpdir(), 'innerwave-programs-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (
  user: SignedInUser | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload && { payload }) });
const programUrl = (slug: string) => adminPath(ADMIN_API.program, { slug });

const program = (overrides: Partial<AdminProgramWrite> = {}): AdminProgramWrite => ({
  slug: 'evening-pause',
  title: 'Evening Pause',
  summary: 'Three short evenings.',
  goals: ['calm'],
  days: [1, 2, 3].map((n) => ({
    title: `Evening ${n}`,
    intro: 'Sit comfortably.',
    minutes: 5,
    messages: ['I slow down.'],
    layers: [{ kind: 'noise', colour: 'pink', gain: 0.3 }],
  })),
  ...overrides,
});

describe('a library track renamed by staff', () => {
  it('stays in the days that play it: their layers name it anew, and their programs read as changed', async () => {
    const db = t.ctx.database.db;
    const [rain] = await db
      .insert(audioItems)
      .values({ kind: 'bonus', name: 'Soft Rain', audioFile: 'audio/bonus/soft-rain.mp3' })
      .returning();
    const [other] = await db
      .insert(audioItems)
      .values({ kind: 'bonus', name: 'Night Wind', audioFile: 'audio/bonus/night-wind.mp3' })
      .returning();
    const track = (audio_kind: 'bonus' | 'selfeggio', name: string) => ({
      kind: 'track' as const,
      audio_kind,
      name,
      gain: 0.5,
    });
    const written = program({
      slug: 'rainy-days',
      days: [
        { ...program().days[0]!, layers: [track('bonus', 'Soft Rain'), { kind: 'noise', colour: 'pink', gain: 0.3 }] },
        // The same name in another library is another track; a near name is not this one.
        { ...program().days[1]!, layers: [track('selfeggio', 'Soft Rain'), track('bonus', 'Soft Rains')] },
        { ...program().days[2]!, layers: [track('bonus', 'Night Wind'), track('bonus', 'Soft Rain')] },
      ],
    });
    expect((await call(staff, 'POST', ADMIN_API.programs, written)).statusCode).toBe(201);
    const before = (await call(staff, 'GET', programUrl('rainy-days'))).json();
    const rename = (id: number, name: string) =>
      t.app.inject({
        method: 'PATCH',
        url: adminPath(ADMIN_API.audioItem, { kind: 'bonus', id }),
        headers: staff.headers,
        payload: { name },
      });

    expect((await rename(rain!.id, 'Gentle Rain')).statusCode).toBe(200);
    const after = (await call(staff, 'GET', programUrl('rainy-days'))).json();
    const layersOf = (read: { days: { layers: object[] }[] }) => read.days.map((day) => day.layers);
    expect(layersOf(after)).toEqual([
      [
        { ...track('bonus', 'Gentle Rain'), track_id: rain!.id },
        { kind: 'noise', colour: 'pink', gain: 0.3 },
      ],
      [
        { ...track('selfeggio', 'Soft Rain'), track_id: null },
        { ...track('bonus', 'Soft Rains'), track_id: null },
      ],
      [
        { ...track('bonus', 'Night Wind'), track_id: other!.id },
        { ...track('bonus', 'Gentle Rain'), track_id: rain!.id },
      ],
    ]);
    // An editor still open on the old name is refused rather than writing it back.
    expect(after.updated_at).not.toBe(before.updated_at);
    const stale = await call(staff, 'PUT', programUrl('rainy-days'), {
      ...programWriteOf(before),
      title: 'Rain',
      updated_at: before.updated_at,
    });
    expect(stale.statusCode).toBe(409);

    // A name longer than a day's layer may hold is refused while a day plays the track, and nothing changes.
    const long = 'R'.repeat(PROGRAM_TRACK_NAME_MAX + 1);
    const refused = await rename(rain!.id, long);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      name: [
        `Ensure this field has no more than ${PROGRAM_TRACK_NAME_MAX} characters: a program's day plays this track by its name.`,
      ],
    });
    expect(layersOf((await call(staff, 'GET', programUrl('rainy-days'))).json())).toEqual(layersOf(after));
    const [kept] = await db.select({ name: audioItems.name }).from(audioItems).where(eq(audioItems.id, rain!.id));
    expect(kept!.name).toBe('Gentle Rain');
    // A track no day plays takes any name the library allows, and no program reads as changed.
    const [unplayed] = await db
      .insert(audioItems)
      .values({ kind: 'bonus', name: 'Brook', audioFile: 'audio/bonus/brook.mp3' })
      .returning();
    expect((await rename(unplayed!.id, long)).statusCode).toBe(200);
    expect((await call(staff, 'GET', programUrl('rainy-days'))).json().updated_at).toBe(after.updated_at);
    expect((await call(staff, 'DELETE', programUrl('rainy-days'))).statusCode).toBe(204);
  });
});

describe('admin programs API', () => {
  it('is for staff only', async () => {
    const someone = await signedInUser(t.ctx);
    expect((await call(undefined, 'GET', ADMIN_API.programs)).statusCode).toBe(401);
    expect((await call(someone, 'GET', ADMIN_API.programs)).statusCode).toBe(403);
    expect((await call(someone, 'POST', ADMIN_API.programs, program())).statusCode).toBe(403);
    expect((await call(someone, 'DELETE', programUrl('evening-pause'))).statusCode).toBe(403);
  });

  it('adds, reads, replaces and deletes a program; people see the change', async () => {
    const created = await call(staff, 'POST', ADMIN_API.programs, program());
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      slug: 'evening-pause',
      people_started: 0,
      days: [{ day: 1 }, { day: 2 }, { day: 3 }],
    });
    expect((await call(staff, 'POST', ADMIN_API.programs, program())).json()).toEqual({
      slug: ['A program with this slug already exists.'],
    });

    const someone = await signedInUser(t.ctx);
    await call(someone, 'POST', fillPath(API.programDayComplete, { slug: 'evening-pause', day: 3 }));
    const replaced = await call(
      staff,
      'PUT',
      programUrl('evening-pause'),
      program({ slug: 'evening-pauses', title: 'Evening Pauses', days: program().days.slice(0, 2) }),
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ slug: 'evening-pauses', people_started: 1 });
    expect(replaced.json().days).toHaveLength(2);
    const seen = (await call(someone, 'GET', fillPath(API.program, { slug: 'evening-pauses' }))).json();
    expect(seen).toMatchObject({ title: 'Evening Pauses', progress: { completed_days: [], next_day: 1 } });

    expect((await call(staff, 'DELETE', programUrl('evening-pauses'))).statusCode).toBe(204);
    expect((await call(staff, 'GET', programUrl('evening-pauses'))).statusCode).toBe(404);
    expect((await call(someone, 'GET', fillPath(API.program, { slug: 'evening-pauses' }))).statusCode).toBe(404);
  });

  it('moves people’s progress with the days staff move, and forgets the days they remove', async () => {
    const slug = 'morning-light';
    const days = program().days;
    await call(staff, 'POST', ADMIN_API.programs, program({ slug }));
    const ada = await signedInUser(t.ctx);
    const bea = await signedInUser(t.ctx);
    const complete = (user: SignedInUser, day: number) =>
      call(user, 'POST', fillPath(API.programDayComplete, { slug, day }));
    await complete(ada, 1);
    await complete(ada, 3);
    await complete(bea, 2);
    const progressOf = async (user: SignedInUser) =>
      (await call(user, 'GET', fillPath(API.program, { slug }))).json().progress.completed_days;

    // Day 3 first, a new day, then day 1; day 2 removed.
    const replaceDays = (newDays: AdminProgramWrite['days']) =>
      call(staff, 'PUT', programUrl(slug), program({ slug, days: newDays }));
    const moved = await replaceDays([
      { ...days[2]!, from_day: 3 },
      { ...days[1]!, title: 'A new evening', from_day: null },
      { ...days[0]!, from_day: 1 },
    ]);
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      people_started: 1,
      days: [{ title: 'Evening 3' }, {}, { title: 'Evening 1' }],
    });
    expect(await progressOf(ada)).toEqual([1, 3]);
    expect(await progressOf(bea)).toEqual([]);

    // Two days swapped, as the editor sends them after the reload.
    const reloaded = (await call(staff, 'GET', programUrl(slug))).json();
    const written = programWriteOf(reloaded);
    await call(staff, 'PUT', programUrl(slug), {
      ...written,
      days: [written.days[1], written.days[0], written.days[2]],
    });
    expect(await progressOf(ada)).toEqual([2, 3]);

    // A hand-written body without from_day keeps progress by day number.
    await replaceDays(days.slice(0, 2));
    expect(await progressOf(ada)).toEqual([2]);

    // Said once, however many days repeat one.
    const twice = await replaceDays([
      { ...days[0]!, from_day: 1 },
      { ...days[1]!, from_day: 1 },
      { ...days[2]!, from_day: 1 },
    ]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ days: ['Two days cannot come from the same day.'] });
    expect(await progressOf(ada)).toEqual([2]);
  });

  it('refuses to replace a program someone saved after the editor loaded it, in the shared words, until read again', async () => {
    const slug = 'noon-breath';
    const loaded = (await call(staff, 'POST', ADMIN_API.programs, program({ slug }))).json();
    const edit = (title: string, updatedAt: string) =>
      call(staff, 'PUT', programUrl(slug), { ...programWriteOf(loaded), title, updated_at: updatedAt });

    const first = await edit('Noon Breath', loaded.updated_at);
    expect(first.statusCode).toBe(200);
    expect(first.json().updated_at).not.toBe(loaded.updated_at);

    // Nothing of the stale save is kept: not its title, not its days.
    const stale = await call(staff, 'PUT', programUrl(slug), {
      ...programWriteOf(loaded),
      title: 'A stale title',
      days: programWriteOf(loaded).days.slice(0, 1),
      updated_at: loaded.updated_at,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ detail: changedMeanwhileMessage('program'), code: MESSAGE_CHANGED_CODE });
    expect(stale.json().detail).toBe(
      'This program was changed meanwhile, perhaps in another tab or on another device, so yours was not saved.',
    );
    const read = (await call(staff, 'GET', programUrl(slug))).json();
    expect(read.title).toBe('Noon Breath');
    expect(read.days).toHaveLength(loaded.days.length);
    // Read again, the same edit goes through.
    const again = await edit('A stale title, read again', read.updated_at);
    expect(again.statusCode).toBe(200);
    expect(again.json().title).toBe('A stale title, read again');

    // Two saves of the same version at once: one wins, the other is told.
    const current = again.json().updated_at;
    const both = await Promise.all([edit('One', current), edit('Two', current)]);
    expect(both.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((res) => res.statusCode === 409)!.json().code).toBe(MESSAGE_CHANGED_CODE);
    const winner = both.find((res) => res.statusCode === 200)!.json().title;
    expect((await call(staff, 'GET', programUrl(slug))).json().title).toBe(winner);

    // Without updated_at (a file, a script) the replace goes through as before.
    expect((await call(staff, 'PUT', programUrl(slug), programWriteOf(loaded))).statusCode).toBe(200);
  });

  it('refuses a malformed program with the fields named', async () => {
    const bad = await call(staff, 'POST', ADMIN_API.programs, {
      slug: 'Bad Slug',
      title: '',
      summary: 'x',
      goals: ['fame'],
      days: [{ title: 'd', intro: 'i', minutes: 0, messages: [], layers: [{ kind: 'noise', colour: 'red', gain: 2 }] }],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['days', 'goals', 'slug', 'title']);
  });

  it('refuses a control or direction character in a program’s texts, and drops invisible ones at their ends', async () => {
    const day = program().days[0]!;
    const refused = async (overrides: Partial<AdminProgramWrite>) => {
      const answer = await call(staff, 'POST', ADMIN_API.programs, program({ slug: 'typed-texts', ...overrides }));
      return [answer.statusCode, answer.json()];
    };
    expect(await refused({ title: 'Evening\u0007 Pause' })).toEqual([400, { title: [CONTROL_CHARACTER_REFUSED] }]);
    expect(await refused({ summary: 'Three \u202eevenings.' })).toEqual([
      400,
      { summary: [DIRECTION_CONTROL_REFUSED] },
    ]);
    for (const bad of [
      { ...day, title: 'Day\u001b one' },
      { ...day, intro: 'Sit\u2067 comfortably.' },
      { ...day, messages: ['I slow\u0085 down.'] },
    ]) {
      const [status, body] = await refused({ days: [bad] });
      expect(status).toBe(400);
      expect(Object.keys(body as object)).toEqual(['days']);
    }
    expect(
      (await call(staff, 'GET', ADMIN_API.programs)).json().some((p: { slug: string }) => p.slug === 'typed-texts'),
    ).toBe(false);
    const kept = await call(
      staff,
      'POST',
      ADMIN_API.programs,
      program({ slug: 'typed-texts', title: '\u200bQuiet\u200b' }),
    );
    expect(kept.json()).toMatchObject({ title: 'Quiet' });
    expect((await call(staff, 'DELETE', programUrl('typed-texts'))).statusCode).toBe(204);
  });

  it('lets a program’s texts stored before the rule through, sent back as they are, moved or not; refuses them typed', async () => {
    await call(staff, 'POST', ADMIN_API.programs, program({ slug: 'old-texts' }));
    const { id } = (await t.database.db.select().from(programs).where(eq(programs.slug, 'old-texts')))[0]!;
    // As rows written before decision 063 refused control characters hold them.
    await t.database.db.update(programs).set({ title: 'Evening\u0007 Pause' }).where(eq(programs.id, id));
    await t.database.db
      .update(programDays)
      .set({ title: 'Evening\u0007 2', intro: 'Sit\u0007.', messages: ['I\u0007 slow.'] })
      .where(and(eq(programDays.programId, id), eq(programDays.day, 2)));
    const read = (await call(staff, 'GET', programUrl('old-texts'))).json() as AdminProgramWrite;

    // Day 2 moved first and its minutes changed: saved as it was read, the old texts with it.
    const [one, two, three] = read.days;
    const moved = [
      { ...two!, minutes: 7, from_day: 2 },
      { ...one!, from_day: 1 },
      { ...three!, from_day: 3 },
    ];
    const saved = await call(staff, 'PUT', programUrl('old-texts'), { ...read, days: moved });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      title: 'Evening\u0007 Pause',
      days: [{ title: 'Evening\u0007 2', intro: 'Sit\u0007.', messages: ['I\u0007 slow.'], minutes: 7 }, {}, {}],
    });

    // Typed anew, in the field or in another, the rule holds; what else is wrong is said beside it.
    const again = saved.json() as AdminProgramWrite;
    const typed = await call(staff, 'PUT', programUrl('old-texts'), {
      ...again,
      title: 'Evening\u0007 Pauses',
      days: [{ ...again.days[0]!, messages: ['I\u0007 slow.', 'I\u0007 rest.'] }, ...again.days.slice(1)],
    });
    expect(typed.statusCode).toBe(400);
    expect(Object.keys(typed.json()).sort()).toEqual(['days', 'title']);
    const alone = await call(staff, 'PUT', programUrl('old-texts'), { ...again, goals: ['fame'] });
    expect([alone.statusCode, Object.keys(alone.json())]).toEqual([400, ['goals']]);
    expect((await call(staff, 'DELETE', programUrl('old-texts'))).statusCode).toBe(204);
  });

  it('takes the largest program in four-byte characters, over 3 MB, a body up to its limit, and refuses one over', async () => {
    // One character of four bytes in UTF-8 (docs/decisions/067-a-json-body-holds-what-its-fields-allow.md).
    const text = (characters: number) => '🌿'.repeat(characters);
    const largest = program({
      slug: 'a'.repeat(PROGRAM_SLUG_MAX),
      title: text(PROGRAM_TITLE_MAX),
      summary: text(PROGRAM_SUMMARY_MAX),
      goals: GOAL_IDS,
      days: Array.from({ length: PROGRAM_DAYS_MAX }, () => ({
        title: text(PROGRAM_TITLE_MAX),
        intro: text(PROGRAM_INTRO_MAX),
        minutes: PROGRAM_DAY_MINUTES.max,
        messages: Array.from({ length: PROGRAM_DAY_MESSAGES_MAX }, () => text(PROGRAM_MESSAGE_MAX)),
        layers: Array.from({ length: PROGRAM_DAY_LAYERS_MAX }, () => ({
          kind: 'track' as const,
          audio_kind: 'selfeggio' as const,
          name: text(120),
          gain: 0.35,
        })),
      })),
    });
    const json = JSON.stringify(largest);
    expect(Buffer.byteLength(json)).toBeGreaterThan(3 * 1024 * 1024);
    const created = await call(staff, 'POST', ADMIN_API.programs, largest);
    expect(created.statusCode, created.body.slice(0, 200)).toBe(201);
    expect(created.json().days).toHaveLength(PROGRAM_DAYS_MAX);

    const send = (method: 'POST' | 'PUT', url: string, bytes: number) =>
      t.app.inject({
        method,
        url,
        headers: { ...staff.headers, 'content-type': 'application/json' },
        payload: json + ' '.repeat(bytes - Buffer.byteLength(json)),
      });
    expect((await send('PUT', programUrl(largest.slug), PROGRAM_BODY_BYTES)).statusCode).toBe(200);
    for (const [method, url] of [
      ['PUT', programUrl(largest.slug)],
      ['POST', ADMIN_API.programs],
    ] as const) {
      const over = await send(method, url, PROGRAM_BODY_BYTES + 1);
      expect([over.statusCode, over.json()], method).toEqual([413, { detail: 'Request body is too large.' }]);
    }
  });
});

describe('admin CLI programs', () => {
  async function cli(args: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await runCli(
      args,
      { stdin: Readable.from(['']), stdout, stderr },
      { database: t.database, env: testEnv(t.dataDir) },
    );
    return { code, out, err };
  }

  it('lists, exports, imports (adding or replacing by slug) and removes programs', async () => {
    expect(await seedPrograms(t.database.db)).toBe(SEED_PROGRAMS.length);
    expect(await seedPrograms(t.database.db)).toBe(0);
    const listed = await cli(['list-programs']);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('seven-nights-of-rest');
    // A title as stored, in its own box (decision 064).
    expect(listed.out).toContain(`days  \u2068${SEED_PROGRAMS[0]!.title}\u2069\n`);

    const file = path.join(dir, 'sleep.json');
    expect((await cli(['export-program', 'seven-nights-of-rest', file])).code).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as AdminProgramWrite;
    expect(exported).toEqual({
      ...SEED_PROGRAMS[0],
      days: SEED_PROGRAMS[0]!.days.map((day, index) => ({ from_day: index + 1, ...day })),
    });

    writeFileSync(file, JSON.stringify([{ ...exported, title: 'Seven Quiet Nights' }, program({ slug: 'new-one' })]));
    const imported = await cli(['import-program', file]);
    expect(imported.code).toBe(0);
    expect(imported.out).toBe('Replaced seven-nights-of-rest (7 days).\nAdded new-one (3 days).\n');
    expect((await call(staff, 'GET', programUrl('seven-nights-of-rest'))).json().title).toBe('Seven Quiet Nights');

    writeFileSync(file, JSON.stringify({ slug: 'x' }));
    const refused = await cli(['import-program', file]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('is not a program file; nothing was imported');

    expect((await cli(['remove-program', 'new-one'])).out).toBe('Removed new-one.\n');
    expect((await cli(['remove-program', 'new-one'])).code).toBe(1);
  });
});
