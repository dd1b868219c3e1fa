import { existsSync, rmSync, statSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioItems, messageCategories, messages, programs, seededContent } from '../db/schema';
import { mediaPath } from '../media/store';
import { mediaDir } from '../paths';
import { createTestApp, type TestApp } from '../test/test-app';
import { SEED_MESSAGE_CATEGORIES } from './affirmations';
import { buildTrackFiles, SEED_TRACKS, type SeedTrack } from './media/catalog';
import { seedPrograms } from '../guidance/programs';
import { seedAudioComplete, seedAudioItems, seedMessageCategories } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const silentLog = { info: () => undefined };
// One real catalogue entry with its audio cut to a second, so the test stays quick.
const shortTrack = (track: SeedTrack): SeedTrack => ({ ...track, render: () => track.render().subarray(0, 22050) });

describe('seed', () => {
  it('adds every category with its messages once, however often it runs', async () => {
    expect(await seedMessageCategories(t.database.db)).toBe(SEED_MESSAGE_CATEGORIES.length);
    expect(await seedMessageCategories(t.database.db)).toBe(0);
    const categories = await t.database.db.select().from(messageCategories);
    expect(categories).toHaveLength(SEED_MESSAGE_CATEGORIES.length);
    const rows = await t.database.db.select().from(messages);
    expect(rows).toHaveLength(SEED_MESSAGE_CATEGORIES.reduce((sum, c) => sum + c.messages.length, 0));
  });

  it('writes tracks under content-addressed names once, and regenerates only missing files', async () => {
    const tracks = [
      shortTrack(SEED_TRACKS.find((t) => t.kind === 'selfeggio')!),
      shortTrack(SEED_TRACKS.find((t) => t.kind === 'bonus')!),
    ];
    expect(await seedAudioItems(t.database.db, t.ctx.mediaFiles, silentLog, tracks)).toEqual({
      added: 2,
      regenerated: 0,
    });
    const rows = await t.database.db.select().from(audioItems);
    expect(rows.map((r) => r.kind).sort()).toEqual(['bonus', 'selfeggio']);
    for (const row of rows) {
      expect(row.audioFile).toMatch(new RegExp(`^audio/${row.kind}/[0-9a-f]{64}\\.mp3$`));
      expect(row.coverImage).toMatch(/^covers\/[0-9a-f]{64}\.webp$/);
      expect(statSync(mediaPath(mediaDir(t.dataDir), row.audioFile)).size).toBeGreaterThan(1000);
    }
    const audio = mediaPath(mediaDir(t.dataDir), rows[0]!.audioFile);
    const before = statSync(audio).mtimeMs;

    expect(await seedAudioItems(t.database.db, t.ctx.mediaFiles, silentLog, tracks)).toEqual({
      added: 0,
      regenerated: 0,
    });
    expect(statSync(audio).mtimeMs).toBe(before);

    rmSync(audio);
    expect(await seedAudioItems(t.database.db, t.ctx.mediaFiles, silentLog, tracks)).toEqual({
      added: 0,
      regenerated: 1,
    });
    expect(existsSync(audio)).toBe(true);
    expect(await t.database.db.select().from(audioItems)).toHaveLength(2);

    // Staff renamed a track only in case: it is still the seed's, not a name to add again.
    await t.database.db
      .update(audioItems)
      .set({ name: tracks[0]!.name.toUpperCase() })
      .where(eq(audioItems.kind, 'selfeggio'));
    const built: string[] = [];
    const build = async (track: SeedTrack) => {
      built.push(track.name);
      return buildTrackFiles(track);
    };
    expect(await seedAudioItems(t.database.db, t.ctx.mediaFiles, silentLog, tracks, build)).toEqual({
      added: 0,
      regenerated: 0,
    });
    expect(built).toEqual([]);
  });

  it('does not put back a category, a program or a track staff deleted or renamed', async () => {
    const db = t.database.db;
    await seedMessageCategories(db);
    const [deleted, renamed] = SEED_MESSAGE_CATEGORIES;
    await db.delete(messageCategories).where(eq(messageCategories.name, deleted!.name));
    await db.update(messageCategories).set({ name: 'Our own name' }).where(eq(messageCategories.name, renamed!.name));
    expect(await seedMessageCategories(db)).toBe(0);
    const names = (await db.select().from(messageCategories)).map((c) => c.name);
    expect(names).not.toContain(deleted!.name);
    expect(names).not.toContain(renamed!.name);

    expect(await seedPrograms(db)).toBeGreaterThan(0);
    const [program] = await db.select().from(programs).limit(1);
    await db.delete(programs).where(eq(programs.id, program!.id));
    expect(await seedPrograms(db)).toBe(0);
    expect((await db.select().from(programs)).map((p) => p.slug)).not.toContain(program!.slug);

    const tracks = [shortTrack(SEED_TRACKS.find((t) => t.kind === 'custom')!)];
    await seedAudioItems(db, t.ctx.mediaFiles, silentLog, tracks);
    await db.delete(audioItems).where(eq(audioItems.kind, 'custom'));
    expect(await seedAudioItems(db, t.ctx.mediaFiles, silentLog, tracks)).toEqual({ added: 0, regenerated: 0 });
    expect(await db.select().from(audioItems).where(eq(audioItems.kind, 'custom'))).toEqual([]);
    // Nothing is being prepared: the library is as staff left it.
    expect(await seedAudioComplete(db, t.ctx.mediaFiles, tracks)).toBe(true);
  });

  it('builds again the missing file of a seeded track staff renamed, keeping their name, at the next start', async () => {
    const db = t.database.db;
    await db.delete(audioItems);
    await db.delete(seededContent);
    const tracks = [shortTrack(SEED_TRACKS.find((t) => t.kind === 'bonus')!)];
    await seedAudioItems(db, t.ctx.mediaFiles, silentLog, tracks);
    const [seeded] = await db.select().from(audioItems);
    await db.update(audioItems).set({ name: 'Our own rain' }).where(eq(audioItems.id, seeded!.id));
    rmSync(mediaPath(mediaDir(t.dataDir), seeded!.audioFile));
    // A start finds the library incomplete, and its job builds what is missing.
    expect(await seedAudioComplete(db, t.ctx.mediaFiles, tracks)).toBe(false);
    expect(await seedAudioItems(db, t.ctx.mediaFiles, silentLog, tracks)).toEqual({ added: 0, regenerated: 1 });
    const [rebuilt, ...others] = await db.select().from(audioItems);
    expect([rebuilt?.id, rebuilt?.name, others]).toEqual([seeded!.id, 'Our own rain', []]);
    expect(existsSync(mediaPath(mediaDir(t.dataDir), rebuilt!.audioFile))).toBe(true);
    expect(await seedAudioComplete(db, t.ctx.mediaFiles, tracks)).toBe(true);
    // Deleted once renamed, it stays deleted.
    await db.delete(audioItems).where(eq(audioItems.id, seeded!.id));
    expect(await seedAudioComplete(db, t.ctx.mediaFiles, tracks)).toBe(true);
    expect(await seedAudioItems(db, t.ctx.mediaFiles, silentLog, tracks)).toEqual({ added: 0, regenerated: 0 });
    expect(await db.select().from(audioItems)).toEqual([]);
  });

  it('stops between tracks when told, keeping those built, and builds the rest on the next run', async () => {
    // A library never seeded.
    await t.database.db.delete(audioItems);
    await t.database.db.delete(seededContent);
    const tracks = SEED_TRACKS.filter((track) => track.kind === 'selfeggio')
      .slice(0, 3)
      .map(shortTrack);
    const stop = new AbortController();
    const built: string[] = [];
    const buildThenStop = async (track: SeedTrack) => {
      built.push(track.name);
      stop.abort();
      return buildTrackFiles(track);
    };
    await expect(
      seedAudioItems(t.database.db, t.ctx.mediaFiles, silentLog, tracks, buildThenStop, stop.signal),
    ).rejects.toThrow(/abort/i);
    expect(built).toEqual([tracks[0]!.name]);
    expect((await t.database.db.select().from(audioItems)).map((row) => row.name)).toEqual([tracks[0]!.name]);

    expect(await seedAudioItems(t.database.db, t.ctx.mediaFiles, silentLog, tracks)).toEqual({
      added: 2,
      regenerated: 0,
    });
  });
});
