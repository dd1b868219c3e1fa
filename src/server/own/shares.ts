import { and, asc, eq, sql } from 'drizzle-orm';
import type { ShareLink, SharedCopy, SharedItem, SoundMix, SubliminalWrite } from '@shared/contract';
import { playableMix } from '@shared/sound-mix';
import type { Db } from '../db/client';
import { audioItems, ownCategories, ownMessages, savedSubliminals, users } from '../db/schema';
import { notFound } from '../http/errors';
import { assertFeature, createOwnCategory, getOwnCategory, planOfSignedIn } from './service';
import { newShareToken, shareLinkOf } from './share-tokens';
import {
  createSubliminal,
  getSubliminal,
  libraryKey,
  libraryTracksIn,
  storedPlaylist,
  storedSound,
} from './subliminals';
import { storedSettings } from './player';

// Share links (docs/product/api.md#saved-and-shared): a saved subliminal (Intermediate and up) or an
// own category (Pro) shared read-only by a token; revoking clears the token at once. Shares stay live
// after a downgrade (the owner may still revoke them) and die with the account or its deactivation.

const SHAREABLE = { subliminal: savedSubliminals, messages: ownCategories } as const;
export type ShareableKind = keyof typeof SHAREABLE;

/**
 * Shares one of the person's things: its live link if it has one (`created: false`), else a new one.
 * One statement, so two shares at once agree on the token.
 */
export async function share(
  db: Db,
  kind: ShareableKind,
  userId: number,
  id: number,
  publicUrl: string,
): Promise<{ link: ShareLink; created: boolean }> {
  const table = SHAREABLE[kind];
  const token = newShareToken();
  const [row] = await db
    .update(table)
    .set({
      shareToken: sql`coalesce(${table.shareToken}, ${token})`,
      sharedAt: sql`coalesce(${table.sharedAt}, now())`,
    })
    .where(and(eq(table.id, id), eq(table.userId, userId)))
    .returning({ shareToken: table.shareToken });
  if (!row?.shareToken) throw notFound();
  return { link: shareLinkOf(publicUrl, row.shareToken)!, created: row.shareToken === token };
}

/** Revokes a share (its link answers 404 from now on); a thing not shared stays so. */
export async function unshare(db: Db, kind: ShareableKind, userId: number, id: number): Promise<void> {
  const table = SHAREABLE[kind];
  const [row] = await db
    .update(table)
    .set({ shareToken: null, sharedAt: null })
    .where(and(eq(table.id, id), eq(table.userId, userId)))
    .returning({ id: table.id });
  if (!row) throw notFound();
}

type Found =
  | {
      kind: 'subliminal';
      ownerId: number;
      name: string;
      playlist: SubliminalWrite['playlist'];
      settings: SubliminalWrite['settings'];
      sound: SoundMix | null;
      sharedAt: Date;
    }
  | { kind: 'messages'; name: string; messages: string[]; sharedAt: Date };

/**
 * What a live token shares, whole; 404 for an unknown or revoked token or a deactivated sharer.
 * (`shared_at` is set with the token; the creation time only stands in should a row lack it.)
 */
async function findShared(db: Db, token: string): Promise<Found> {
  const [subliminal] = await db
    .select({ row: savedSubliminals })
    .from(savedSubliminals)
    .innerJoin(users, eq(users.id, savedSubliminals.userId))
    .where(and(eq(savedSubliminals.shareToken, token), eq(users.isActive, true)));
  if (subliminal) {
    const { row } = subliminal;
    return {
      kind: 'subliminal',
      ownerId: row.userId,
      name: row.name,
      playlist: storedPlaylist(row.playlist),
      settings: storedSettings(row.settings),
      sound: storedSound(row.sound),
      sharedAt: row.sharedAt ?? row.createdAt,
    };
  }
  const [category] = await db
    .select({
      id: ownCategories.id,
      name: ownCategories.name,
      sharedAt: ownCategories.sharedAt,
      createdAt: ownCategories.createdAt,
    })
    .from(ownCategories)
    .innerJoin(users, eq(users.id, ownCategories.userId))
    .where(and(eq(ownCategories.shareToken, token), eq(users.isActive, true)));
  if (!category) throw notFound();
  const messages = await db
    .select({ text: ownMessages.messageText })
    .from(ownMessages)
    .where(eq(ownMessages.categoryId, category.id))
    .orderBy(asc(ownMessages.position), asc(ownMessages.id));
  return {
    kind: 'messages',
    name: category.name,
    messages: messages.map((m) => m.text),
    sharedAt: category.sharedAt ?? category.createdAt,
  };
}

/**
 * A shared sound as it can play: without the sharer's own music, their uploads staying private
 * (decision 021; the sharer's own copy keeps it), and without library tracks staff removed since it
 * was saved, which would otherwise be said to play (and take a free account's one layer), nor be
 * saved again. The page names both.
 */
async function sharedSound(
  db: Db,
  sound: SoundMix | null,
  keepOwnMusic = false,
): Promise<{ sound: SoundMix | null; private_tracks: string[]; gone_tracks: string[] }> {
  if (!sound) return { sound: null, private_tracks: [], gone_tracks: [] };
  const library = await libraryTracksIn(db, audioItems, sound.layers);
  const private_tracks: string[] = [];
  const gone_tracks: string[] = [];
  const layers = sound.layers.filter((layer) => {
    if (layer.kind === 'own_track' && !keepOwnMusic) private_tracks.push(layer.name);
    else if (layer.kind === 'track' && !library.has(libraryKey(layer))) gone_tracks.push(layer.name);
    else return true;
    return false;
  });
  return { sound: layers.length > 0 ? { ...sound, layers } : null, private_tracks, gone_tracks };
}

/** What anyone with the link sees: the name and the texts (and a subliminal's settings and sound), nothing else. */
export async function readShared(db: Db, token: string): Promise<SharedItem> {
  const found = await findShared(db, token);
  const shared_at = found.sharedAt.toISOString();
  return found.kind === 'subliminal'
    ? {
        kind: 'subliminal',
        name: found.name,
        messages: found.playlist.map((item) => item.message_text),
        settings: found.settings,
        ...(await sharedSound(db, found.sound)),
        shared_at,
      }
    : { kind: 'messages', name: found.name, messages: found.messages, shared_at };
}

/**
 * A shared playlist as the copier keeps it: library messages as they are; another person's own
 * messages become "shared" ones, numbered by their place, so the copy names no row of the sharer's.
 */
const copiedPlaylist = (playlist: SubliminalWrite['playlist']): SubliminalWrite['playlist'] =>
  playlist.map((item, index) =>
    item.source === 'library' ? item : { message_text: item.message_text, source: 'shared', message_id: index + 1 },
  );

/**
 * Copies what is shared into the person's own account: a subliminal becomes a saved subliminal of
 * theirs (their plan must save subliminals), a message set an own category with its messages; each
 * within the plan's limits, all or nothing. A copy of one's own share keeps its items as they are.
 * With `copyKey`, a press sent again gets the copy that press made (`created: false`) and nothing is added, whatever
 * refuses it now (the link revoked, the plan's limit reached by that very copy, the key's index): sent again at once,
 * the second waits for the first on the person's lock and then meets one of them
 * (docs/decisions/148-an-own-track-is-named-as-ones-own-and-a-copy-is-made-once-a-press.md).
 */
export async function copyShared(
  db: Db,
  userId: number,
  token: string,
  publicUrl: string,
  copyKey?: string,
): Promise<{ copy: SharedCopy; created: boolean }> {
  try {
    return { copy: await copyAnew(db, userId, token, publicUrl, copyKey), created: true };
  } catch (error) {
    const madeMeanwhile = copyKey && (await copyMadeWith(db, userId, copyKey, publicUrl));
    if (madeMeanwhile) return { copy: madeMeanwhile, created: false };
    throw error;
  }
}

/** The copy the person's press with this key made, or undefined when none is kept (not made, or deleted since). */
async function copyMadeWith(
  db: Db,
  userId: number,
  copyKey: string,
  publicUrl: string,
): Promise<SharedCopy | undefined> {
  const [subliminal] = await db
    .select({ id: savedSubliminals.id })
    .from(savedSubliminals)
    .where(and(eq(savedSubliminals.userId, userId), eq(savedSubliminals.copyKey, copyKey)));
  if (subliminal) return { kind: 'subliminal', subliminal: await getSubliminal(db, userId, subliminal.id, publicUrl) };
  const [category] = await db
    .select({ id: ownCategories.id })
    .from(ownCategories)
    .where(and(eq(ownCategories.userId, userId), eq(ownCategories.copyKey, copyKey)));
  if (category) return { kind: 'messages', category: await getOwnCategory(db, userId, category.id, publicUrl) };
  return undefined;
}

async function copyAnew(
  db: Db,
  userId: number,
  token: string,
  publicUrl: string,
  copyKey: string | undefined,
): Promise<SharedCopy> {
  const found = await findShared(db, token);
  if (found.kind === 'subliminal') {
    await assertFeature(db, userId, 'savedSubliminals');
    const { name, settings } = found;
    const mine = found.ownerId === userId;
    const playlist = mine ? found.playlist : copiedPlaylist(found.playlist);
    // The copy keeps the layers the copier's plan plays (and never another person's own music).
    const { sound: shared } = await sharedSound(db, found.sound, mine);
    const layers = shared ? playableMix(shared, await planOfSignedIn(db, userId)).layers : [];
    const sound = shared && layers.length > 0 ? { ...shared, layers } : null;
    // What sharedSound left out is the share's to name (gone_tracks of the view), so the copy has none of its own.
    const { gone_tracks: _none, ...subliminal } = await createSubliminal(
      db,
      userId,
      { name, playlist, settings, sound },
      publicUrl,
      copyKey,
    );
    return { kind: 'subliminal', subliminal };
  }
  await assertFeature(db, userId, 'ownMessages');
  return {
    kind: 'messages',
    category: await createOwnCategory(db, userId, found.name, found.messages, { numbered: true, copyKey }),
  };
}
