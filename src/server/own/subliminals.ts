import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  playlistItemSchema,
  soundMixSchema,
  type MixLayer,
  type SoundMix,
  type SavedSubliminal,
  type Subliminal,
  type SubliminalSummary,
  type SubliminalWrite,
} from '@shared/contract';
import type { SubscriptionPlan } from '@shared/constants';
import { PLAN_FEATURES, planName } from '@shared/plans';
import { layerBeyondPlan, mixLayerLabel } from '@shared/sound-mix';
import type { Db } from '../db/client';
import { pagesOf } from '../db/pages';
import { audioItems, ownTracks, removedAudioItems, removedOwnTracks, savedSubliminals } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { assertThemeIncluded, storedSettings } from './player';
import { assertRoomFor, planOfSignedIn, planRequired } from './service';
import { shareLinkOf } from './share-tokens';

// Saved subliminals (Intermediate and up; docs/product/api.md#saved-and-shared): a name, the messages
// and the settings as saved. Every query names its owner, so another person's id is not found.

type Row = typeof savedSubliminals.$inferSelect;
type PlaylistItem = SubliminalWrite['playlist'][number];

/** A stored playlist, item by item as the contract reads it now (what no longer passes is left out). */
export function storedPlaylist(value: unknown): PlaylistItem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = playlistItemSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A stored sound as the contract reads it now; null for none (rows saved before sounds were) or one that no longer passes. */
export function storedSound(value: unknown): SoundMix | null {
  const parsed = soundMixSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * The library tracks among `layers` that `table` holds, by `kind/id`, with their names there: the
 * library (audioItems) as it is now, or the tracks staff removed from it (removedAudioItems).
 */
export async function libraryTracksIn(
  db: Db,
  table: typeof audioItems | typeof removedAudioItems,
  layers: readonly MixLayer[],
): Promise<Map<string, string>> {
  const ids = layers.flatMap((layer) => (layer.kind === 'track' ? [layer.track_id] : []));
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: table.id, kind: table.kind, name: table.name })
    .from(table)
    .where(inArray(table.id, ids));
  return new Map(rows.map((row) => [`${row.kind}/${row.id}`, row.name]));
}

export const libraryKey = (layer: Extract<MixLayer, { kind: 'track' }>) => `${layer.audio_kind}/${layer.track_id}`;

/**
 * The person's own tracks among `layers` that `table` holds, by id, with their names there: their
 * music as it is now (ownTracks), or the tracks they deleted from it (removedOwnTracks).
 */
export async function ownTracksIn(
  db: Db,
  table: typeof ownTracks | typeof removedOwnTracks,
  userId: number,
  layers: readonly MixLayer[],
): Promise<Map<number, string>> {
  const ids = layers.flatMap((layer) => (layer.kind === 'own_track' ? [layer.track_id] : []));
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(and(eq(table.userId, userId), inArray(table.id, ids)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A sound as saved, and the names of the tracks left out of it because they were removed while they played. */
type CheckedSound = { sound: SoundMix | null; gone_tracks: string[] };

/**
 * The sound as it is saved, or refused: a layer the plan lacks (403 plan_required), unless that very
 * layer was already saved in it (a downgrade keeps what was made: renaming it must not fail); an own
 * track that never was the saver's, or a library track that never was in the library (400 on `sound`).
 * A library track staff removed since the person started it, or an own track the person deleted in
 * another tab, is left out, named in `gone_tracks`, so that a Save while it played goes through. A
 * track is saved with its name in the library or the saver's music, whatever name the request gives
 * it; a layer kept as it was saved stays as it is, also when its track has gone since.
 */
async function checkedSound(
  db: Db,
  userId: number,
  plan: SubscriptionPlan,
  requested: SoundMix | null,
  kept?: SoundMix | null,
): Promise<CheckedSound> {
  if (!requested) return { sound: null, gone_tracks: [] };
  const keptLayers = new Set((kept?.layers ?? []).map((layer) => JSON.stringify(layer)));
  const isKept = (layer: MixLayer) => keptLayers.has(JSON.stringify(layer));
  const fresh = requested.layers.filter((layer) => !isKept(layer));
  const library = await libraryTracksIn(db, audioItems, fresh);
  const own = await ownTracksIn(db, ownTracks, userId, fresh);
  const missing = fresh.filter((layer) =>
    layer.kind === 'track' ? !library.has(libraryKey(layer)) : layer.kind === 'own_track' && !own.has(layer.track_id),
  );
  const removedFromLibrary = await libraryTracksIn(db, removedAudioItems, missing);
  const removedOwn = await ownTracksIn(db, removedOwnTracks, userId, missing);
  const goneName = (layer: MixLayer) => {
    if (!missing.includes(layer)) return undefined;
    if (layer.kind === 'track') return removedFromLibrary.get(libraryKey(layer));
    return layer.kind === 'own_track' ? removedOwn.get(layer.track_id) : undefined;
  };
  const gone_tracks: string[] = [];
  // Left out before the plan is asked, as a share's (shares.ts), so it takes no layer from one that plays.
  const sound = {
    ...requested,
    layers: requested.layers.filter((layer) => {
      const name = goneName(layer);
      if (name === undefined) return true;
      gone_tracks.push(name);
      return false;
    }),
  };
  if (sound.layers.length === 0) return { sound: null, gone_tracks };
  const added = sound.layers.filter((layer) => !isKept(layer));
  const beyond = layerBeyondPlan(added.length === sound.layers.length ? sound.layers : added, plan);
  if (beyond) {
    const required = PLAN_FEATURES[beyond.feature];
    // An own track is named by what it is, not by the name the request gives it.
    const what =
      beyond.feature === 'soundLayers'
        ? 'More than one sound layer is'
        : beyond.layer.kind === 'own_track'
          ? 'Your own music is'
          : `${mixLayerLabel(beyond.layer)} is`;
    throw planRequired(`${what} part of the ${planName(required)} plan.`, required);
  }
  const layers = sound.layers.map((layer): MixLayer => {
    if (isKept(layer)) return layer;
    if (layer.kind === 'own_track') {
      const name = own.get(layer.track_id);
      if (name === undefined) throw badRequest({ sound: [`${mixLayerLabel(layer)} is not in your music.`] });
      return { ...layer, name };
    }
    if (layer.kind === 'track') {
      const name = library.get(libraryKey(layer));
      if (name === undefined) throw badRequest({ sound: [`${mixLayerLabel(layer)} is not in the library.`] });
      return { ...layer, name };
    }
    return layer;
  });
  return { sound: { ...sound, layers }, gone_tracks };
}

function present(row: Row, publicUrl: string): Subliminal {
  return {
    id: row.id,
    name: row.name,
    playlist: storedPlaylist(row.playlist),
    settings: storedSettings(row.settings),
    sound: storedSound(row.sound),
    share: shareLinkOf(publicUrl, row.shareToken),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const owned = (userId: number, id: number) => and(eq(savedSubliminals.id, id), eq(savedSubliminals.userId, userId));

/** The person's saved subliminals, newest change first, without their messages. */
export async function listSubliminals(db: Db, userId: number): Promise<SubliminalSummary[]> {
  const rows = await db
    .select({
      id: savedSubliminals.id,
      name: savedSubliminals.name,
      // The counts are columns of their own (db/schema.ts): the list reads no playlist and no sound.
      message_count: savedSubliminals.messageCount,
      theme: sql<string>`coalesce(${savedSubliminals.settings}->>'theme', '')`,
      layer_count: savedSubliminals.layerCount,
      shared: sql<boolean>`${savedSubliminals.shareToken} is not null`,
      updatedAt: savedSubliminals.updatedAt,
    })
    .from(savedSubliminals)
    .where(eq(savedSubliminals.userId, userId))
    .orderBy(desc(savedSubliminals.updatedAt), desc(savedSubliminals.id));
  return rows.map(({ updatedAt, ...summary }) => ({ ...summary, updated_at: updatedAt.toISOString() }));
}

/**
 * Saved subliminals a data export reads at once: a person may keep 2,000, each up to 1,000 messages long. A read's
 * rows, checked and laid out, are what a worker holds for an export (npm run bench:data-export: about 120 MB at its
 * peak with 20 at once, 50 MB with 5; docs/product/accounts.md#downloading-ones-data).
 */
export const SUBLIMINALS_PER_READ = 5;

/**
 * Every saved subliminal of the person in full, oldest first, `SUBLIMINALS_PER_READ` at a time (their data export):
 * all of them at once could be more than a worker can hold.
 */
export async function* allSubliminals(db: Db, userId: number, publicUrl: string): AsyncGenerator<Subliminal[]> {
  const pages = pagesOf(
    SUBLIMINALS_PER_READ,
    (after: number | undefined, limit) =>
      db
        .select()
        .from(savedSubliminals)
        .where(and(eq(savedSubliminals.userId, userId), gt(savedSubliminals.id, after ?? 0)))
        .orderBy(savedSubliminals.id)
        .limit(limit),
    (row) => row.id,
  );
  for await (const rows of pages) yield rows.map((row) => present(row, publicUrl));
}

export async function getSubliminal(db: Db, userId: number, id: number, publicUrl: string): Promise<Subliminal> {
  const [row] = await db.select().from(savedSubliminals).where(owned(userId, id));
  if (!row) throw notFound();
  return present(row, publicUrl);
}

/**
 * Saves a new subliminal within the plan's number of them (a copy of a shared one comes here too, with the key of
 * the press that made it: a second of that key is refused by the index).
 */
export async function createSubliminal(
  db: Db,
  userId: number,
  subliminal: SubliminalWrite,
  publicUrl: string,
  copyKey?: string,
): Promise<SavedSubliminal> {
  const plan = await planOfSignedIn(db, userId);
  assertThemeIncluded(plan, subliminal.settings);
  const { sound, gone_tracks } = await checkedSound(db, userId, plan, subliminal.sound);
  return db.transaction(async (tx) => {
    await assertRoomFor(tx, userId, 'savedSubliminals');
    const [row] = await tx
      .insert(savedSubliminals)
      .values({
        userId,
        name: subliminal.name,
        playlist: subliminal.playlist,
        settings: subliminal.settings,
        sound,
        copyKey,
      })
      .returning();
    return { ...present(row!, publicUrl), gone_tracks };
  });
}

/** The name of one of the person's saved subliminals as stored; undefined when they have none of that id. */
export async function storedSubliminalName(db: Db, userId: number, id: number): Promise<string | undefined> {
  const [row] = await db.select({ name: savedSubliminals.name }).from(savedSubliminals).where(owned(userId, id));
  return row?.name;
}

/** Replaces a subliminal's name, messages, settings and sound; its share link stays. */
export async function replaceSubliminal(
  db: Db,
  userId: number,
  id: number,
  subliminal: SubliminalWrite,
  publicUrl: string,
): Promise<SavedSubliminal> {
  const plan = await planOfSignedIn(db, userId);
  assertThemeIncluded(plan, subliminal.settings);
  const [kept] = await db.select({ sound: savedSubliminals.sound }).from(savedSubliminals).where(owned(userId, id));
  if (!kept) throw notFound();
  const { sound, gone_tracks } = await checkedSound(db, userId, plan, subliminal.sound, storedSound(kept.sound));
  const [row] = await db
    .update(savedSubliminals)
    .set({
      name: subliminal.name,
      playlist: subliminal.playlist,
      settings: subliminal.settings,
      sound,
      updatedAt: sql`now()`,
    })
    .where(owned(userId, id))
    .returning();
  if (!row) throw notFound();
  return { ...present(row, publicUrl), gone_tracks };
}

export async function deleteSubliminal(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db.delete(savedSubliminals).where(owned(userId, id)).returning({ id: savedSubliminals.id });
  if (deleted.length === 0) throw notFound();
}
