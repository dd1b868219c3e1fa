import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import {
  applicationTextFieldsSchema,
  audioTextFieldsSchema,
  categoryWriteSchema,
  ownCategoryWriteSchema,
} from '@shared/contract';
import { createTestDatabase, createUnmigratedTestDatabase } from '../test/database';
import { queryRows, type Database } from './client';
import { migrateDatabase, MIGRATIONS_FOLDER } from './migrate';

type Journal = { entries: { tag: string }[] };

/** A copy of the migrations folder that ends with `lastTag`: a database as an older release left it. */
function migrationsUpTo(lastTag: string) {
  const folder = mkdtempSync(path.join(tmpdir(), 'innerwave-migrations-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as Journal;
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

// Each release's test opens a database of its own and runs every migration on it, twice: seconds on an
// idle machine, past the default 30 s on one running the e2e browsers beside it.
describe('migrations', { timeout: 90_000 }, () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('create every table of the schema', async () => {
    const rows = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const tables = rows.map((row) => row.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'audio_items',
        'desktop_applications',
        'message_categories',
        'messages',
        'profiles',
        'sessions',
        'users',
      ]),
    );
  });

  it('apply again without error or change', async () => {
    await migrateDatabase(database);
    const [row] = await queryRows<{ count: string | number }>(
      database.db,
      sql`select count(*) as count from drizzle.__drizzle_migrations`,
    );
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    expect(Number(row?.count)).toBe(journal.entries.length);
  });

  it('keep e-mail addresses unique regardless of case', async () => {
    await database.db.execute(sql`insert into users (email, password_hash) values ('Case@Example.com', 'x')`);
    await expect(
      database.db.execute(sql`insert into users (email, password_hash) values ('case@example.COM', 'x')`),
    ).rejects.toThrow();
  });

  it('keep the names of a library unique regardless of case, renaming the newer of names that already differed only in case', async () => {
    const older = migrationsUpTo('0011_saved_counts');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`
        insert into audio_items (id, kind, name, audio_file) values
          (1, 'bonus', 'Calm', 'a.mp3'), (2, 'bonus', 'calm', 'b.mp3'), (3, 'bonus', 'CALM', 'c.mp3'),
          (4, 'custom', 'calm', 'd.mp3'), (5, 'bonus', 'Rain', 'e.mp3')`);
      await migrateDatabase(database);
      const rows = await queryRows<{ kind: string; name: string }>(
        database.db,
        sql`select kind, name from audio_items order by id`,
      );
      expect(rows).toEqual([
        { kind: 'bonus', name: 'Calm' },
        { kind: 'bonus', name: 'calm (2)' },
        { kind: 'bonus', name: 'CALM (3)' },
        { kind: 'custom', name: 'calm' },
        { kind: 'bonus', name: 'Rain' },
      ]);
      await expect(
        database.db.execute(sql`insert into audio_items (kind, name, audio_file) values ('bonus', 'RAIN', 'f.mp3')`),
      ).rejects.toThrow();
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep one installer of a type per version, renaming the newer of those already uploaded twice', async () => {
    const older = migrationsUpTo('0013_audio_names_ignore_case');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`
        insert into desktop_applications (id, application_version, application_file) values
          (1, '2.1.0-beta', 'applications/a.exe'), (2, '2.1.0-BETA', 'applications/b.exe'),
          (3, '2.1.0-beta', 'applications/c.AppImage'), (4, '2.1.1', 'applications/a.exe')`);
      await migrateDatabase(database);
      const rows = await queryRows<{ application_version: string }>(
        database.db,
        sql`select application_version from desktop_applications order by id`,
      );
      expect(rows.map((row) => row.application_version)).toEqual([
        '2.1.0-beta',
        '2.1.0-BETA (2)',
        '2.1.0-beta',
        '2.1.1',
      ]);
      await expect(
        database.db.execute(
          sql`insert into desktop_applications (application_version, application_file) values ('2.1.1', 'applications/d.exe')`,
        ),
      ).rejects.toThrow();
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep category names unique regardless of case, renaming the newer of names that already differed only in case', async () => {
    const older = migrationsUpTo('0014_one_installer_per_version_and_type');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      // "Calm (2)" is taken already: the renamed "calm" meets it, and the newer of the two takes its id too.
      await database.db.execute(sql`
        insert into message_categories (id, name, position) values
          (1, 'Calm', 0), (2, 'calm', 1), (3, 'Calm (2)', 2), (4, 'CALM', 3), (5, 'Sleep', 4)`);
      await database.db.execute(sql`insert into messages (category_id, message_text) values (2, 'I am calm.')`);
      await migrateDatabase(database);
      const rows = await queryRows<{ name: string; messages: number }>(
        database.db,
        sql`select name, (select count(*)::int from messages where category_id = c.id) as messages
            from message_categories c order by id`,
      );
      expect(rows).toEqual([
        { name: 'Calm', messages: 0 },
        { name: 'calm (2)', messages: 1 },
        { name: 'Calm (2) (3)', messages: 0 },
        { name: 'CALM (4)', messages: 0 },
        { name: 'Sleep', messages: 0 },
      ]);
      await expect(database.db.execute(sql`insert into message_categories (name) values ('SLEEP')`)).rejects.toThrow();
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep one track of a file in a person’s music: the oldest of a file uploaded twice, which their saved subliminals then play', async () => {
    const older = migrationsUpTo('0015_category_names_ignore_case');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(
        sql`insert into users (id, email, password_hash) values (1, 'ada@example.com', 'x'), (2, 'bob@example.com', 'x')`,
      );
      await database.db.execute(sql`
        insert into own_tracks (id, user_id, name, audio_file, bytes, created_at) values
          (1, 1, 'Rain', 'own-music/1/a.mp3', 10, '2026-01-01'), (2, 1, 'Rain again', 'own-music/1/a.mp3', 10, '2026-01-02'),
          (3, 1, 'Sea', 'own-music/1/b.mp3', 20, '2026-01-03'), (4, 2, 'Rain', 'own-music/2/a.mp3', 10, '2026-01-01'),
          (5, 1, 'Rain, third', 'own-music/1/a.mp3', 10, '2026-01-04')`);
      const noise = { kind: 'noise', colour: 'pink', gain_db: -6 };
      const own = (id: number, name: string) => ({ kind: 'own_track', track_id: id, name, gain_db: -3 });
      const sounds = {
        evening: { volume: 1, layers: [noise, own(5, 'Rain, third')] },
        sea: { volume: 0.5, layers: [own(3, 'Sea'), noise] },
        bob: { volume: 1, layers: [own(4, 'Rain')] },
      };
      await database.db.execute(sql`
        insert into saved_subliminals (user_id, name, playlist, settings, sound) values
          (1, 'evening', '[]', '{}', ${JSON.stringify(sounds.evening)}::jsonb),
          (1, 'sea', '[]', '{}', ${JSON.stringify(sounds.sea)}::jsonb),
          (2, 'bob', '[]', '{}', ${JSON.stringify(sounds.bob)}::jsonb),
          (1, 'silent', '[]', '{}', null)`);
      await migrateDatabase(database);

      const tracks = await queryRows<{ id: number; name: string }>(
        database.db,
        sql`select id, name from own_tracks order by id`,
      );
      expect(tracks).toEqual([
        { id: 1, name: 'Rain' },
        { id: 3, name: 'Sea' },
        { id: 4, name: 'Rain' },
      ]);
      const saved = await queryRows<{ name: string; sound: unknown; layer_count: number }>(
        database.db,
        sql`select name, sound, layer_count from saved_subliminals order by id`,
      );
      expect(saved).toEqual([
        { name: 'evening', sound: { volume: 1, layers: [noise, own(1, 'Rain')] }, layer_count: 2 },
        { name: 'sea', sound: sounds.sea, layer_count: 2 },
        { name: 'bob', sound: sounds.bob, layer_count: 1 },
        { name: 'silent', sound: null, layer_count: 0 },
      ]);
      await expect(
        database.db.execute(
          sql`insert into own_tracks (user_id, name, audio_file, bytes) values (1, 'Sea twice', 'own-music/1/b.mp3', 20)`,
        ),
      ).rejects.toThrow();
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep a category name renamed by 0015 within the 100 characters of a name, its id suffix kept', async () => {
    const before0015 = migrationsUpTo('0014_one_installer_per_version_and_type');
    const with0015 = migrationsUpTo('0015_category_names_ignore_case');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, before0015.folder);
      const long = 'Affirmations for a calm and steady morning, before the day asks anything of you at all'.padEnd(
        98,
        '.',
      );
      const spaced = `${'y'.repeat(95)} zzzz`;
      // 100 UTF-16 code units as the contract counts them: six letters, then 47 characters beyond U+FFFF.
      const moons = `Night ${'🌙'.repeat(47)}`;
      const taken = 'q'.repeat(98);
      const names: [number, string][] = [
        [1, 'Calm'],
        [2, 'calm'],
        [3, long],
        [4, long.toUpperCase()],
        [5, spaced],
        [6, spaced.toUpperCase()],
        [7, moons],
        [8, moons.toUpperCase()],
        [9, taken],
        [10, taken.toUpperCase()],
        // What 10 would be shortened to is a name staff gave another category.
        [11, `${'q'.repeat(95)} (10)`],
      ];
      for (const [id, name] of names)
        await database.db.execute(
          sql`insert into message_categories (id, name, position) values (${id}, ${name}, ${id})`,
        );
      await database.db.execute(sql`insert into messages (category_id, message_text) values (4, 'I begin slowly.')`);
      const rows = () =>
        queryRows<{ id: number; name: string; messages: number }>(
          database.db,
          sql`select id, name, (select count(*)::int from messages where category_id = c.id) as messages
              from message_categories c order by id`,
        );

      // As 0015 alone leaves them: past the limit.
      await migrateDatabase(database, with0015.folder);
      expect((await rows()).find((row) => row.id === 4)?.name).toBe(`${long.toUpperCase()} (4)`);

      await migrateDatabase(database);
      const after = await rows();
      expect(after.map((row) => row.name)).toEqual([
        'Calm',
        'calm (2)',
        long,
        `${long.toUpperCase().slice(0, 96)} (4)`,
        spaced,
        `${'Y'.repeat(95)} (6)`,
        moons,
        `NIGHT ${'🌙'.repeat(45)} (8)`,
        taken,
        `${'Q'.repeat(93)} (10-2)`,
        `${'q'.repeat(95)} (10)`,
      ]);
      for (const { name } of after) expect(categoryWriteSchema.safeParse({ name }).success, name).toBe(true);
      expect(after.find((row) => row.id === 4)?.messages).toBe(1);
    } finally {
      await database.close();
      before0015.remove();
      with0015.remove();
    }
  });

  it('rename audio names and installer versions that differed only in case within their limits, stepping past a name already taken', async () => {
    // A release that has not run 0013 and 0014 yet.
    const older = migrationsUpTo('0012_duplicate_subscriptions');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      const long = `Rain on a tin roof, ${'far away '.repeat(18)}`.trim().padEnd(199, '.');
      // 200 UTF-16 code units as the contract counts them: six letters, then 97 characters beyond U+FFFF.
      const moons = `Night ${'🌙'.repeat(97)}`;
      const audio: [number, string, string][] = [
        [1, 'bonus', 'Calm'],
        [2, 'bonus', 'calm'],
        // What 2 would take, already staff's name for another item: 2 numbers on.
        [3, 'bonus', 'Calm (2)'],
        [4, 'bonus', long],
        [5, 'bonus', long.toUpperCase()],
        [6, 'custom', moons],
        [7, 'custom', moons.toUpperCase()],
      ];
      for (const [id, kind, name] of audio)
        await database.db.execute(
          sql`insert into audio_items (id, kind, name, audio_file) values (${id}, ${kind}, ${name}, ${`${id}.mp3`})`,
        );
      const version = '2.1.0-beta.1+build.20261203.commit.abcdef0123456';
      const installers: [number, string, string][] = [
        [1, '2.1.0', 'a.exe'],
        [2, '2.1.0', 'b.exe'],
        [3, '2.1.0 (2)', 'c.exe'],
        [4, version, 'd.dmg'],
        [5, version.toUpperCase(), 'e.dmg'],
      ];
      for (const [id, applicationVersion, file] of installers)
        await database.db.execute(
          sql`insert into desktop_applications (id, application_version, application_file) values (${id}, ${applicationVersion}, ${`applications/${file}`})`,
        );

      await migrateDatabase(database);
      const names = await queryRows<{ name: string }>(database.db, sql`select name from audio_items order by id`);
      expect(names.map((row) => row.name)).toEqual([
        'Calm',
        'calm (2-2)',
        'Calm (2)',
        long,
        `${long.toUpperCase().slice(0, 196)} (5)`,
        moons,
        `NIGHT ${'🌙'.repeat(95)} (7)`,
      ]);
      for (const { name } of names) expect(audioTextFieldsSchema.safeParse({ name }).success, name).toBe(true);
      const versions = await queryRows<{ application_version: string }>(
        database.db,
        sql`select application_version from desktop_applications order by id`,
      );
      expect(versions.map((row) => row.application_version)).toEqual([
        '2.1.0',
        '2.1.0 (2-2)',
        '2.1.0 (2)',
        version,
        `${version.toUpperCase().slice(0, 46)} (5)`,
      ]);
      for (const { application_version } of versions)
        expect(applicationTextFieldsSchema.safeParse({ application_version }).success, application_version).toBe(true);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('shorten audio names and installer versions that 0013 and 0014 as first released pushed past their limits, the id suffix kept', async () => {
    const before0019 = migrationsUpTo('0017_category_names_within_limit');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, before0019.folder);
      // As the first 0013 and 0014 left the newer of two names: the id appended, past the limit.
      const long = 'w'.repeat(199);
      const version = 'v'.repeat(49);
      await database.db.execute(sql`
        insert into audio_items (id, kind, name, audio_file) values
          (1, 'bonus', ${long}, 'a.mp3'), (2, 'bonus', ${`${long.toUpperCase()} (2)`}, 'b.mp3'),
          (3, 'bonus', ${`${'W'.repeat(196)} (2)`}, 'c.mp3'), (4, 'bonus', 'Rain', 'd.mp3')`);
      await database.db.execute(sql`
        insert into desktop_applications (id, application_version, application_file) values
          (1, ${version}, 'applications/a.exe'), (2, ${`${version.toUpperCase()} (2)`}, 'applications/b.exe'),
          (3, ${`${version.toUpperCase()} (2)`}, 'applications/c.dmg')`);

      await migrateDatabase(database);
      const names = await queryRows<{ name: string }>(database.db, sql`select name from audio_items order by id`);
      // 2's shortened name is 3's already: it numbers on.
      expect(names.map((row) => row.name)).toEqual([
        long,
        `${'W'.repeat(194)} (2-2)`,
        `${'W'.repeat(196)} (2)`,
        'Rain',
      ]);
      const versions = await queryRows<{ application_version: string }>(
        database.db,
        sql`select application_version from desktop_applications order by id`,
      );
      expect(versions.map((row) => row.application_version)).toEqual([
        version,
        `${'V'.repeat(46)} (2)`,
        // Another type: its own id.
        `${'V'.repeat(46)} (3)`,
      ]);
    } finally {
      await database.close();
      before0019.remove();
    }
  });

  it('count the messages and sound layers of subliminals saved before the counts were kept', async () => {
    const older = migrationsUpTo('0010_own_voice');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`insert into users (email, password_hash) values ('old@example.com', 'x')`);
      const item = { message_text: 'I am calm.', source: 'library', message_id: 3 };
      const layers = [
        { kind: 'noise', colour: 'pink', gain_db: -6 },
        { kind: 'binaural', left_hz: 200, right_hz: 205, gain_db: -12 },
      ];
      await database.db.execute(sql`
        insert into saved_subliminals (user_id, name, playlist, settings, sound)
        select id, v.name, v.playlist::jsonb, '{}', v.sound::jsonb from users,
          (values ('three', ${JSON.stringify([item, item, item])}, ${JSON.stringify({ volume: 1, layers })}),
                  ('before sounds', ${JSON.stringify([item])}, null)) v(name, playlist, sound)`);
      await migrateDatabase(database);
      const rows = await queryRows<{ name: string; message_count: number; layer_count: number }>(
        database.db,
        sql`select name, message_count, layer_count from saved_subliminals order by name`,
      );
      expect(rows).toEqual([
        { name: 'before sounds', message_count: 1, layer_count: 0 },
        { name: 'three', message_count: 3, layer_count: 2 },
      ]);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep a person’s own category names unique regardless of case, numbering the later of names that already differed only in case', async () => {
    const older = migrationsUpTo('0020_history_deleted_at');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`
        insert into users (id, email, password_hash) values (1, 'bob@example.com', 'x'), (2, 'eve@example.com', 'x')`);
      // 80 UTF-16 code units as the contract counts them: five letters, a space, then 37 characters beyond U+FFFF.
      const moons = `Night ${'🌙'.repeat(37)}`;
      const names: [number, number, string][] = [
        [1, 1, 'BobCat'],
        [2, 1, 'bobcat'],
        // Taken already: the renamed "bobcat" meets it and steps on to (3).
        [3, 1, 'BobCat (2)'],
        [4, 1, 'BOBCAT'],
        [5, 1, 'Äpfel'],
        [6, 1, 'äpfel'],
        [7, 1, moons],
        [8, 1, moons.toUpperCase()],
        [9, 1, 'x'.repeat(80)],
        [10, 1, 'X'.repeat(80)],
        // Another person's names are theirs: nothing to rename.
        [11, 2, 'bobcat'],
        [12, 2, 'Calm'],
      ];
      for (const [id, userId, name] of names)
        await database.db.execute(
          sql`insert into own_categories (id, user_id, name, position) values (${id}, ${userId}, ${name}, ${id})`,
        );
      await database.db.execute(
        sql`insert into own_messages (category_id, user_id, message_text) values (2, 1, 'I purr.'), (4, 1, 'I roar.')`,
      );
      await migrateDatabase(database);
      const rows = await queryRows<{ name: string; messages: number }>(
        database.db,
        sql`select name, (select count(*)::int from own_messages where category_id = c.id) as messages
            from own_categories c order by id`,
      );
      expect(rows.map((row) => row.name)).toEqual([
        'BobCat',
        'bobcat (3)',
        'BobCat (2)',
        'BOBCAT (4)',
        'Äpfel',
        'äpfel (2)',
        moons,
        `NIGHT ${'🌙'.repeat(35)} (2)`,
        'x'.repeat(80),
        `${'X'.repeat(76)} (2)`,
        'bobcat',
        'Calm',
      ]);
      for (const { name } of rows) expect(ownCategoryWriteSchema.safeParse({ name }).success, name).toBe(true);
      // No message moved or was lost.
      expect(rows.map((row) => row.messages)).toEqual([0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
      await expect(
        database.db.execute(sql`insert into own_categories (id, user_id, name) values (100, 2, 'CALM')`),
      ).rejects.toThrow();
      await database.db.execute(sql`insert into own_categories (id, user_id, name) values (101, 1, 'CALM')`);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep a person’s own category names unique as they are read, numbering the later of names that differ only in what is drawn as nothing', async () => {
    const older = migrationsUpTo('0021_own_category_names_ignore_case');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`
        insert into users (id, email, password_hash) values (1, 'bob@example.com', 'x'), (2, 'eve@example.com', 'x')`);
      const names: [number, number, string][] = [
        [1, 1, 'Calm'],
        // A zero-width space before it, a word joiner inside, a byte-order mark and a direction mark after it.
        [2, 1, '\u200bCalm'],
        [3, 1, 'Ca\u2060LM'],
        [4, 1, 'calm\ufeff\u200e'],
        [5, 1, '\u200b'.repeat(3) + 'x'.repeat(78)],
        [6, 1, 'x'.repeat(78)],
        // Another person's: theirs.
        [7, 2, 'Calm'],
        [8, 2, '👨‍👩‍👧'],
      ];
      for (const [id, userId, name] of names)
        await database.db.execute(
          sql`insert into own_categories (id, user_id, name, position) values (${id}, ${userId}, ${name}, ${id})`,
        );
      await migrateDatabase(database);
      const rows = await queryRows<{ name: string }>(database.db, sql`select name from own_categories order by id`);
      expect(rows.map((row) => row.name)).toEqual([
        'Calm',
        '\u200bCalm (2)',
        'Ca\u2060LM (3)',
        'calm\ufeff\u200e (4)',
        '\u200b'.repeat(3) + 'x'.repeat(78),
        `${'x'.repeat(76)} (2)`,
        'Calm',
        '👨‍👩‍👧',
      ]);
      for (const { name } of rows) expect(ownCategoryWriteSchema.safeParse({ name }).success, name).toBe(true);
      await expect(
        database.db.execute(sql`insert into own_categories (id, user_id, name) values (100, 2, '\u200bcalm')`),
      ).rejects.toThrow();
      await expect(
        database.db.execute(sql`insert into own_categories (id, user_id, name) values (101, 2, '👨👩👧')`),
      ).rejects.toThrow();
      await database.db.execute(sql`insert into own_categories (id, user_id, name) values (102, 1, 'Calm.')`);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep the library’s category names unique as they are read, numbering the later of names that differ only in what is drawn as nothing', async () => {
    const older = migrationsUpTo('0030_upload_slot_bytes');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      const names: [number, string][] = [
        [1, 'Calm'],
        // A word joiner inside, a zero-width space before it, a byte-order mark and a direction mark after it.
        [2, 'Ca\u2060lm'],
        [3, '\u200bCALM'],
        [4, 'calm\ufeff\u200e'],
        // "Calm (2)" is taken already: the next look-alike takes (3)… after it.
        [5, 'Calm (2)'],
        [6, '\u200b'.repeat(3) + 'x'.repeat(98)],
        [7, 'x'.repeat(98)],
        [8, 'Sleep'],
      ];
      for (const [id, name] of names)
        await database.db.execute(
          sql`insert into message_categories (id, name, position) values (${id}, ${name}, ${id})`,
        );
      await database.db.execute(sql`insert into messages (category_id, message_text) values (2, 'I am calm.')`);
      await migrateDatabase(database);
      const rows = await queryRows<{ name: string }>(database.db, sql`select name from message_categories order by id`);
      expect(rows.map((row) => row.name)).toEqual([
        'Calm',
        'Ca\u2060lm (3)',
        '\u200bCALM (4)',
        'calm\ufeff\u200e (5)',
        'Calm (2)',
        '\u200b'.repeat(3) + 'x'.repeat(98),
        `${'x'.repeat(96)} (2)`,
        'Sleep',
      ]);
      for (const { name } of rows) expect(categoryWriteSchema.safeParse({ name }).success, name).toBe(true);
      // Nothing is lost: the renamed category keeps its messages.
      expect(await queryRows(database.db, sql`select category_id, message_text from messages order by id`)).toEqual([
        { category_id: 2, message_text: 'I am calm.' },
      ]);
      await expect(
        database.db.execute(sql`insert into message_categories (id, name) values (100, 'sl\u2060eep')`),
      ).rejects.toThrow();
      await database.db.execute(sql`insert into message_categories (id, name) values (101, 'Sleep.')`);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep audio names unique in each library as they are read, numbering the later look-alikes and the program layers naming them', async () => {
    const older = migrationsUpTo('0031_library_category_names_as_displayed');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      const items: [number, string, string][] = [
        [1, 'selfeggio', 'Calm'],
        // A word joiner inside, a zero-width space before it, a soft hyphen inside and a direction mark after it.
        [2, 'selfeggio', 'Ca\u2060lm'],
        [3, 'selfeggio', '\u200bCALM'],
        [4, 'selfeggio', 'Cal\u00adm\u200e'],
        // "Calm (2)" is taken already: the next look-alike takes (3)… after it.
        [5, 'selfeggio', 'Calm (2)'],
        // Another library's "Calm" is its own.
        [6, 'bonus', 'Ca\u200blm'],
        [7, 'bonus', '\u200b'.repeat(3) + 'x'.repeat(198)],
        [8, 'bonus', 'x'.repeat(198)],
      ];
      for (const [id, kind, name] of items)
        await database.db.execute(
          sql`insert into audio_items (id, kind, name, audio_file) values (${id}, ${kind}, ${name}, ${`${id}.mp3`})`,
        );
      const track = (audio_kind: string, name: string) => ({ kind: 'track', audio_kind, name, gain: 0.5 });
      const noise = { kind: 'noise', colour: 'pink', gain: 0.3 };
      await database.db.execute(sql`
        insert into programs (id, slug, title, summary, goals, position) values (1, 'calm', 'T', 'S', '[]', 0)`);
      const layers = [
        [track('selfeggio', 'Ca\u2060lm'), noise, track('selfeggio', 'Calm'), track('bonus', 'Ca\u2060lm')],
        [track('bonus', 'Ca\u200blm'), track('selfeggio', 'Ca\u200blm')],
        [noise],
      ];
      for (const [index, dayLayers] of layers.entries())
        await database.db.execute(sql`
          insert into program_days (program_id, day, title, intro, minutes, messages, layers)
          values (1, ${index + 1}, 'Day', 'Sit.', 10, '[]', ${JSON.stringify(dayLayers)}::jsonb)`);
      await migrateDatabase(database);
      const rows = await queryRows<{ name: string }>(database.db, sql`select name from audio_items order by id`);
      expect(rows.map((row) => row.name)).toEqual([
        'Calm',
        'Ca\u2060lm (3)',
        '\u200bCALM (4)',
        'Cal\u00adm\u200e (5)',
        'Calm (2)',
        'Ca\u200blm',
        '\u200b'.repeat(3) + 'x'.repeat(198),
        `${'x'.repeat(196)} (2)`,
      ]);
      for (const { name } of rows) expect(audioTextFieldsSchema.safeParse({ name }).success, name).toBe(true);
      // A layer that named a renamed item names it still, in its place among the day's layers; no other changes.
      expect(
        (await queryRows<{ layers: unknown }>(database.db, sql`select layers from program_days order by day`)).map(
          (row) => row.layers,
        ),
      ).toEqual([
        [track('selfeggio', 'Ca\u2060lm (3)'), noise, track('selfeggio', 'Calm'), track('bonus', 'Ca\u2060lm')],
        [track('bonus', 'Ca\u200blm'), track('selfeggio', 'Ca\u200blm')],
        [noise],
      ]);
      await expect(
        database.db.execute(
          sql`insert into audio_items (id, kind, name, audio_file) values (100, 'bonus', 'CA\u2060LM', 'f.mp3')`,
        ),
      ).rejects.toThrow();
      await database.db.execute(
        sql`insert into audio_items (id, kind, name, audio_file) values (101, 'custom', 'Calm', 'g.mp3')`,
      );
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('record the own tracks deleted before 0025 that saved sounds still name, for the person who saved them', async () => {
    const older = migrationsUpTo('0024_pending_email_change');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`
        insert into users (id, email, password_hash) values (1, 'pia@example.com', 'x'), (2, 'ian@example.com', 'x')`);
      await database.db.execute(
        sql`insert into own_tracks (id, user_id, name, audio_file, bytes) values (5, 1, 'Kept', 'own-music/1/k.mp3', 1)`,
      );
      const own = (track_id: unknown, name: unknown) => ({ kind: 'own_track', track_id, name, gain_db: -6 });
      const sounds: [number, string, unknown, string][] = [
        // Track 7, deleted, named in two of Pia's sounds: the one changed last gives its name.
        [1, 'older', { volume: 1, layers: [own(7, 'Sea (old name)')] }, '2026-01-01'],
        [1, 'newer', { volume: 1, layers: [own(7, 'Sea'), own(5, 'Kept')] }, '2026-02-01'],
        [
          2,
          'his',
          { volume: 1, layers: [{ kind: 'noise', colour: 'pink', gain_db: -6 }, own(9, 'Rain')] },
          '2026-01-01',
        ],
        // What no longer reads as a layer is left alone.
        [2, 'odd', { volume: 1, layers: [own('x', 'Odd'), own(99999999999, 'Huge'), own(11, 3)] }, '2026-01-01'],
        [2, 'not a list', { volume: 1, layers: 'x' }, '2026-01-01'],
      ];
      for (const [userId, name, sound, updatedAt] of sounds)
        await database.db.execute(sql`
          insert into saved_subliminals (user_id, name, playlist, settings, sound, updated_at)
          values (${userId}, ${name}, '[]', '{}', ${JSON.stringify(sound)}::jsonb, ${updatedAt})`);
      await database.db.execute(
        sql`insert into saved_subliminals (user_id, name, playlist, settings) values (2, 'no sound', '[]', '{}')`,
      );
      await migrateDatabase(database);
      const rows = await queryRows<{ id: number; user_id: number; name: string }>(
        database.db,
        sql`select id, user_id, name from removed_own_tracks order by id`,
      );
      expect(rows).toEqual([
        { id: 7, user_id: 1, name: 'Sea' },
        { id: 9, user_id: 2, name: 'Rain' },
      ]);
      // The record goes with the account.
      await database.db.execute(sql`delete from users where id = 2`);
      expect(await queryRows(database.db, sql`select id from removed_own_tracks`)).toEqual([{ id: 7 }]);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('record what is there before 0027 as seeded, so that what staff delete from then on stays deleted', async () => {
    const older = migrationsUpTo('0026_checkout_opening');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`
        insert into message_categories (name, position) values ('Calm & Stress Relief', 0), ('Ours', 1)`);
      await database.db.execute(sql`
        insert into programs (slug, title, summary, goals, position) values ('seven-days-of-calm', 'T', 'S', '[]', 0)`);
      await database.db.execute(sql`
        insert into audio_items (kind, name, audio_file, position)
        values ('selfeggio', '528 Hz · Transformation', 'audio/selfeggio/a.mp3', 0), ('bonus', 'Rain', 'audio/bonus/r.mp3', 0)`);
      await migrateDatabase(database);
      expect(await queryRows(database.db, sql`select kind, key from seeded_content order by kind, key`)).toEqual([
        { kind: 'audio:bonus', key: 'rain' },
        { kind: 'audio:selfeggio', key: '528 hz · transformation' },
        { kind: 'category', key: 'calm & stress relief' },
        { kind: 'category', key: 'ours' },
        { kind: 'program', key: 'seven-days-of-calm' },
      ]);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('follow the seeded tracks by their rows from 0028, matched by the names the seed gave them', async () => {
    const older = migrationsUpTo('0027_seeded_content');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`
        insert into audio_items (kind, name, audio_file, position)
        values ('selfeggio', '528 Hz · Transformation', 'audio/selfeggio/a.mp3', 0), ('bonus', 'Our rain', 'audio/bonus/r.mp3', 0)`);
      // Rain was seeded, then renamed by staff before 0028: its row can no longer be told.
      await database.db.execute(sql`
        insert into seeded_content (kind, key)
        values ('audio:selfeggio', '528 hz · transformation'), ('audio:bonus', 'rain'), ('category', 'ours')
        on conflict do nothing`);
      await migrateDatabase(database);
      expect(
        await queryRows(
          database.db,
          sql`select s.kind, s.key, a.name from seeded_content s left join audio_items a on a.id = s.audio_item_id order by s.kind, s.key`,
        ),
      ).toEqual([
        { kind: 'audio:bonus', key: 'rain', name: null },
        { kind: 'audio:selfeggio', key: '528 hz · transformation', name: '528 Hz · Transformation' },
        { kind: 'category', key: 'ours', name: null },
      ]);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('keep the upload slots held across 0030, each keeping no bytes until it lapses', async () => {
    const older = migrationsUpTo('0029_upload_slots');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`insert into users (id, email, password_hash) values (1, 'pia@example.com', 'x')`);
      // Two uploads of Pia's under way as the release before stops: a track and a recording.
      await database.db.execute(sql`
        insert into upload_slots (user_id, kind, held_until)
        values (1, 'own-music', '2026-12-06T10:01:00Z'), (1, 'own-voice', '2026-12-06T10:00:30Z')`);
      await migrateDatabase(database);
      expect(
        await queryRows(
          database.db,
          sql`select user_id, kind, to_char(held_until at time zone 'UTC', 'HH24:MI:SS') as held_until, bytes from upload_slots order by 3`,
        ),
      ).toEqual([
        { user_id: 1, kind: 'own-voice', held_until: '10:00:30', bytes: 0 },
        { user_id: 1, kind: 'own-music', held_until: '10:01:00', bytes: 0 },
      ]);
    } finally {
      await database.close();
      older.remove();
    }
  });

  it('start, at 0034, the programs whose days the history holds a session of, from the first one', async () => {
    const older = migrationsUpTo('0033_copy_keys');
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database, older.folder);
      await database.db.execute(sql`
        insert into users (id, email, password_hash) values (1, 'pia@example.com', 'x'), (2, 'ben@example.com', 'x')`);
      await database.db.execute(sql`
        insert into programs (id, slug, title, summary) values (1, 'rest', 'Rest', ''), (2, 'rest-more', 'Rest more', '')`);
      // Pia played days of Rest twice and a track; Ben only a track; a day of a program no longer there starts nothing.
      await database.db.execute(sql`
        insert into listening_history (user_id, kind, ref, title, seconds, finished, started_at) values
          (1, 'program', 'program:rest/2', 'Rest · Day 2', 40, false, '2026-12-05T20:00:00Z'),
          (1, 'program', 'program:rest/1', 'Rest · Day 1', 600, true, '2026-12-04T20:00:00Z'),
          (1, 'music', 'track:3', 'Ocean Drift', 300, true, '2026-12-01T20:00:00Z'),
          (2, 'music', 'program:rest/1', 'Not a day', 300, true, '2026-12-01T20:00:00Z'),
          (2, 'program', 'program:gone/1', 'Gone · Day 1', 300, true, '2026-12-01T20:00:00Z')`);
      await migrateDatabase(database);
      expect(
        await queryRows(
          database.db,
          sql`select user_id, program_id, to_char(started_at at time zone 'UTC', 'MM-DD HH24:MI') as started_at from program_starts`,
        ),
      ).toEqual([{ user_id: 1, program_id: 1, started_at: '12-04 20:00' }]);
    } finally {
      await database.close();
      older.remove();
    }
  });
});
