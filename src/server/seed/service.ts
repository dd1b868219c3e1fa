import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { seedPrograms } from '../guidance/programs';
import { audioItems, displayedName, messageCategories, messages } from '../db/schema';
import { storeMediaFile, type MediaStore } from '../media/store';
import { SEED_MESSAGE_CATEGORIES } from './affirmations';
import { buildTrackFiles, SEED_TRACKS, type SeedTrack } from './media/catalog';
import type { TrackBuild } from './track-builder';
import { withTrackCache } from './track-cache';
import { markSeeded, seededTrackRecord } from './seeded-content';

export interface SeedLog {
  info(message: string): void;
}

export interface SeedReport {
  categoriesAdded: number;
  programsAdded: number;
  tracksAdded: number;
  tracksRegenerated: number;
}

type CategorySeed = (typeof SEED_MESSAGE_CATEGORIES)[number];

/** Adds the categories never seeded before (by name), each with its messages, all-or-nothing. */
export async function seedMessageCategories(
  db: Db,
  categories: readonly CategorySeed[] = SEED_MESSAGE_CATEGORIES,
): Promise<number> {
  let added = 0;
  for (const [position, category] of categories.entries()) {
    const inserted = await db.transaction(async (tx) => {
      if (!(await markSeeded(tx, 'category', category.name))) return false;
      const [row] = await tx
        .insert(messageCategories)
        .values({ name: category.name, position })
        .onConflictDoNothing()
        .returning({ id: messageCategories.id });
      if (!row) return false;
      await tx
        .insert(messages)
        .values(category.messages.map((messageText, index) => ({ categoryId: row.id, messageText, position: index })));
      return true;
    });
    if (inserted) added += 1;
  }
  return added;
}

/**
 * Adds the tracks never seeded before (by kind and name). Audio and cover are synthesised only for a new
 * track or one whose files went missing; names are content-addressed, writes atomic.
 */
export async function seedAudioItems(
  db: Db,
  files: MediaStore,
  log: SeedLog,
  tracks: readonly SeedTrack[] = SEED_TRACKS,
  build: TrackBuild = buildTrackFiles,
  signal?: AbortSignal,
): Promise<{ added: number; regenerated: number }> {
  let added = 0;
  let regenerated = 0;
  const positions = new Map<string, number>();
  for (const track of tracks) {
    // Stopped: the tracks built so far are kept; the next run builds the rest.
    signal?.throwIfAborted();
    const position = positions.get(track.kind) ?? 0;
    positions.set(track.kind, position + 1);

    const { existing, complete, removed } = await seededTrack(db, files, track);
    if (complete || removed) continue;

    const started = performance.now();
    const built = await build(track, signal);
    const audio = await storeMediaFile(files, `audio/${track.kind}`, built.audio, 'mp3');
    const cover = await storeMediaFile(files, 'covers', built.cover, 'webp');
    let id = existing?.id;
    if (existing) {
      await db
        .update(audioItems)
        .set({ audioFile: audio.relativePath, coverImage: cover.relativePath })
        .where(eq(audioItems.id, existing.id));
      regenerated += 1;
    } else {
      const [inserted] = await db
        .insert(audioItems)
        .values({
          kind: track.kind,
          name: track.name,
          description: track.description,
          audioFile: audio.relativePath,
          coverImage: cover.relativePath,
          position,
        })
        .onConflictDoNothing()
        .returning({ id: audioItems.id });
      // Another process seeding at once put it in first.
      id = inserted?.id ?? (await trackNamed(db, track))?.id;
      added += 1;
    }
    await markSeeded(db, `audio:${track.kind}`, track.name, id);
    log.info(
      `seed: ${track.kind} "${track.name}" ready in ${Math.round(performance.now() - started)} ms (${built.audio.length} B audio)`,
    );
  }
  return { added, regenerated };
}

/**
 * A seeded track's row, if there is one; whether it is complete (its row and files are there), or removed
 * (seeded once, and staff have since deleted it). A track staff renamed is still found, by its row.
 */
async function seededTrack(db: Db, files: MediaStore, track: SeedTrack) {
  const record = await seededTrackRecord(db, track.kind, track.name);
  const existing =
    record === undefined
      ? await trackNamed(db, track)
      : record.audioItemId === null
        ? undefined
        : await trackRow(db, eq(audioItems.id, record.audioItemId));
  const complete = existing !== undefined && (await filesPresent(files, existing.audioFile, existing.coverImage));
  const removed = record !== undefined && existing === undefined;
  return { existing, complete, removed };
}

async function trackRow(db: Db, where: SQL | undefined) {
  const [row] = await db
    .select({ id: audioItems.id, audioFile: audioItems.audioFile, coverImage: audioItems.coverImage })
    .from(audioItems)
    .where(where);
  return row;
}

/** The track of the seed's name in its library as a reader tells it (as the library's unique index compares names). */
const trackNamed = (db: Db, track: SeedTrack) =>
  trackRow(
    db,
    and(eq(audioItems.kind, track.kind), eq(displayedName(audioItems.name), displayedName(sql`${track.name}::text`))),
  );

/** Whether every seeded track is there with its files, so that `seedAudioItems` would build nothing. */
export async function seedAudioComplete(
  db: Db,
  files: MediaStore,
  tracks: readonly SeedTrack[] = SEED_TRACKS,
): Promise<boolean> {
  for (const track of tracks) {
    const { complete, removed } = await seededTrack(db, files, track);
    if (!complete && !removed) return false;
  }
  return true;
}

async function filesPresent(files: MediaStore, audioFile: string, coverImage: string | null): Promise<boolean> {
  const present = async (relative: string) => (await files.size(relative)) !== null;
  return (await present(audioFile)) && (coverImage === null || present(coverImage));
}

/** The product's starting content; safe to run on every start and by several processes at once. */
export async function seedContent(db: Db, files: MediaStore, log: SeedLog): Promise<SeedReport> {
  const categoriesAdded = await seedMessageCategories(db);
  const programsAdded = await seedPrograms(db);
  const { added, regenerated } = await seedAudioItems(db, files, log, SEED_TRACKS, withTrackCache(buildTrackFiles));
  return { categoriesAdded, programsAdded, tracksAdded: added, tracksRegenerated: regenerated };
}
