import { and, eq, sql } from 'drizzle-orm';
import type { AudioKind } from '@shared/contract';
import type { Db } from '../db/client';
import { seededContent } from '../db/schema';

/** A category, a program, or one library's track (`audio:<library>`), as `seeded_content` names them. */
export type SeededKind = 'category' | 'program' | `audio:${AudioKind}`;

/**
 * Records that the seed has put this item in; false when it had already. An item once seeded is not put
 * in again: staff may have deleted or renamed it (docs/decisions/009-starting-content-is-ours-and-seeded-at-start.md).
 */
export async function markSeeded(
  db: Pick<Db, 'insert'>,
  kind: SeededKind,
  key: string,
  audioItemId?: number,
): Promise<boolean> {
  const marked = await db
    .insert(seededContent)
    .values({ kind, key: sql`lower(${key})`, audioItemId })
    .onConflictDoNothing()
    .returning({ key: seededContent.key });
  return marked.length > 0;
}

/**
 * A seeded track's record: the row it was put in as, whatever staff have renamed it since (null once they
 * deleted it); undefined when the seed never put it in.
 */
export async function seededTrackRecord(
  db: Db,
  kind: AudioKind,
  name: string,
): Promise<{ audioItemId: number | null } | undefined> {
  const [row] = await db
    .select({ audioItemId: seededContent.audioItemId })
    .from(seededContent)
    .where(and(eq(seededContent.kind, `audio:${kind}`), eq(seededContent.key, sql`lower(${name})`)));
  return row;
}

export async function wasSeeded(db: Db, kind: SeededKind, key: string): Promise<boolean> {
  const [row] = await db
    .select({ key: seededContent.key })
    .from(seededContent)
    .where(and(eq(seededContent.kind, kind), eq(seededContent.key, sql`lower(${key})`)));
  return row !== undefined;
}
