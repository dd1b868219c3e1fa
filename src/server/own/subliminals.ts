import { and, desc, eq, sql } from 'drizzle-orm';
import { playlistItemSchema, type Subliminal, type SubliminalSummary, type SubliminalWrite } from '@shared/contract';
import type { Db } from '../db/client';
import { savedSubliminals } from '../db/schema';
import { notFound } from '../http/errors';
import { assertThemeIncluded, storedSettings } from './player';
import { assertRoomFor, planOf } from './service';
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

function present(row: Row, publicUrl: string): Subliminal {
  return {
    id: row.id,
    name: row.name,
    playlist: storedPlaylist(row.playlist),
    settings: storedSettings(row.settings),
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
      message_count: sql<number>`jsonb_array_length(${savedSubliminals.playlist})::int`,
      theme: sql<string>`coalesce(${savedSubliminals.settings}->>'theme', '')`,
      shared: sql<boolean>`${savedSubliminals.shareToken} is not null`,
      updatedAt: savedSubliminals.updatedAt,
    })
    .from(savedSubliminals)
    .where(eq(savedSubliminals.userId, userId))
    .orderBy(desc(savedSubliminals.updatedAt), desc(savedSubliminals.id));
  return rows.map(({ updatedAt, ...summary }) => ({ ...summary, updated_at: updatedAt.toISOString() }));
}

/** Every saved subliminal of the person in full, oldest first (their data export). */
export async function allSubliminals(db: Db, userId: number, publicUrl: string): Promise<Subliminal[]> {
  const rows = await db
    .select()
    .from(savedSubliminals)
    .where(eq(savedSubliminals.userId, userId))
    .orderBy(savedSubliminals.id);
  return rows.map((row) => present(row, publicUrl));
}

export async function getSubliminal(db: Db, userId: number, id: number, publicUrl: string): Promise<Subliminal> {
  const [row] = await db.select().from(savedSubliminals).where(owned(userId, id));
  if (!row) throw notFound();
  return present(row, publicUrl);
}

/** Saves a new subliminal within the plan's number of them (a copy of a shared one comes here too). */
export async function createSubliminal(
  db: Db,
  userId: number,
  subliminal: SubliminalWrite,
  publicUrl: string,
): Promise<Subliminal> {
  assertThemeIncluded(await planOf(db, userId), subliminal.settings);
  return db.transaction(async (tx) => {
    await assertRoomFor(tx, userId, 'savedSubliminals');
    const [row] = await tx
      .insert(savedSubliminals)
      .values({ userId, name: subliminal.name, playlist: subliminal.playlist, settings: subliminal.settings })
      .returning();
    return present(row!, publicUrl);
  });
}

/** Replaces a subliminal's name, messages and settings; its share link stays. */
export async function replaceSubliminal(
  db: Db,
  userId: number,
  id: number,
  subliminal: SubliminalWrite,
  publicUrl: string,
): Promise<Subliminal> {
  assertThemeIncluded(await planOf(db, userId), subliminal.settings);
  const [row] = await db
    .update(savedSubliminals)
    .set({ name: subliminal.name, playlist: subliminal.playlist, settings: subliminal.settings, updatedAt: sql`now()` })
    .where(owned(userId, id))
    .returning();
  if (!row) throw notFound();
  return present(row, publicUrl);
}

export async function deleteSubliminal(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db.delete(savedSubliminals).where(owned(userId, id)).returning({ id: savedSubliminals.id });
  if (deleted.length === 0) throw notFound();
}
