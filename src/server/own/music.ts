import type { FastifyBaseLogger } from 'fastify';
import { and, asc, count, eq, sum } from 'drizzle-orm';
import { formatBytes } from '@shared/bytes';
import { OWN_MUSIC, ownTrackFieldsSchema, type OwnMusic, type OwnTrack } from '@shared/contract';
import type { Db } from '../db/client';
import { ownTracks, removedOwnTracks } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/errors';
import { hasVisibleText, leadingCharacters } from '@shared/contract/plain';
import { trackNameOfFile } from '@shared/contract/portal-plain';
import { sniffAudio } from '../media/file-types';
import { uploadBodySize } from '../media/upload';
import type { UploadUnderWay } from '../media/upload-slots';
import {
  contentAddressedName,
  discardStaged,
  placeAndReference,
  releaseAfterCommit,
  type MediaStore,
  type StagedFile,
} from '../media/store';
import type { MediaUrls } from '../media/urls';
import { assertStillSignedIn } from '../auth/authenticate';
import type { SessionUser } from '../auth/sessions';
import { lockUserRow } from '../db/user-lock';
import { isolated } from '@shared/contract/plain';
import { assertFeature } from './service';

// A person's own music (Pro; docs/product/api.md#own-music): audio files they upload, checked like
// staff uploads, kept privately under their own folder, within a quota of tracks and bytes.

export const AUDIO_TYPES_TEXT = 'Upload an audio file: MP3, OGG, WAV, M4A/AAC or FLAC.';

type Row = typeof ownTracks.$inferSelect;

const toTrack = async (urls: MediaUrls, row: Row): Promise<OwnTrack> => ({
  id: row.id,
  name: row.name,
  url: await urls.url(row.audioFile),
  bytes: row.bytes,
  created_at: row.createdAt.toISOString(),
});

async function usage(db: Db, userId: number) {
  const [row] = await db
    .select({ tracks: count(), bytes: sum(ownTracks.bytes) })
    .from(ownTracks)
    .where(eq(ownTracks.userId, userId));
  return { tracks: row?.tracks ?? 0, bytes: Number(row?.bytes ?? 0) };
}

export async function listOwnMusic(db: Db, urls: MediaUrls, userId: number): Promise<OwnMusic> {
  const rows = await db
    .select()
    .from(ownTracks)
    .where(eq(ownTracks.userId, userId))
    .orderBy(asc(ownTracks.createdAt), asc(ownTracks.id));
  return {
    tracks: await Promise.all(rows.map((row) => toTrack(urls, row))),
    used_bytes: rows.reduce((total, row) => total + row.bytes, 0),
    max_bytes: OWN_MUSIC.maxBytes,
    max_tracks: OWN_MUSIC.maxTracks,
  };
}

/**
 * Refuses a file the person's music already holds, naming its track: a file is named by its bytes'
 * SHA-256, computed as the upload streamed in (own-music/<user id>/<sha-256>.<ext>), so the same
 * bytes under any file name are the same file, and a second track of them would only count twice
 * against the quota and show twice.
 */
async function assertNotThere(db: Db, userId: number, relative: string): Promise<void> {
  const [there] = await db
    .select({ name: ownTracks.name })
    .from(ownTracks)
    .where(and(eq(ownTracks.userId, userId), eq(ownTracks.audioFile, relative)));
  if (there) throw badRequest({ audio_file: [`This file is already in your music as “${isolated(there.name)}”.`] });
}

const fullText = `Your music keeps up to ${OWN_MUSIC.maxTracks} tracks. Delete one to add another.`;

/** What an upload of a track adds (its upload slot's kind). */
export const OWN_MUSIC_UPLOAD = 'own-music';

/** Refuses a second upload of a track under way when the music has room for one more only. */
export const ONE_TRACK_LEFT_TEXT =
  'Your music has room for one more track, and an upload of one is already on its way. Wait for it to finish.';

/** An upload of a track let in: the bytes its slot keeps of the room, and the room its file is staged within. */
export interface AdmittedTrack {
  keeps: number;
  /**
   * The bytes its file may take, and the refusal of one past them before its size is known. None for a body with a
   * length beside no upload that keeps bytes: its file passes the room by no more than its fields may hold, and is
   * told its own size once it is in (decision 081).
   */
  room?: { bytes: number; refusal: () => ApiError };
}

/**
 * Lets an upload of a track in before its body is read, with the person's row locked and their other uploads under way
 * (`holdUploadSlot`), so that a full music costs no upload streamed to disk for nothing, nor two uploads at once more
 * than its room (docs/product/api.md#own-music, docs/decisions/076-an-upload-keeps-the-room-it-may-take.md). Refused:
 * a music that holds as many tracks as it may, or as many as are on their way; one with no bytes left; and a body whose
 * declared length (Content-Length, `declaredBytes`) is more than a file filling the bytes left could come in, the bytes
 * kept by the uploads on their way taken from them (then `409`: that room may come back). It keeps what its file may
 * take of the bytes left: its declared length, or, sent without one (chunked), as much as a file may be. Asked again,
 * with the file's own size, once the file is in (`assertRoomForTrack`).
 */
export async function admitTrackUpload(
  db: Db,
  userId: number,
  declaredBytes: number | undefined,
  others: readonly UploadUnderWay[],
): Promise<AdmittedTrack> {
  const used = await usage(db, userId);
  if (used.tracks >= OWN_MUSIC.maxTracks) throw new ApiError(403, { detail: fullText });
  const onTheirWay = others.filter((upload) => upload.kind === OWN_MUSIC_UPLOAD);
  if (onTheirWay.length >= OWN_MUSIC.maxTracks - used.tracks) throw new ApiError(409, { detail: ONE_TRACK_LEFT_TEXT });
  const left = Math.max(0, OWN_MUSIC.maxBytes - used.bytes);
  const kept = onTheirWay.reduce((sum, upload) => sum + upload.bytes, 0);
  const free = Math.max(0, left - kept);
  const whole = formatBytes(OWN_MUSIC.maxBytes);
  /** Why a file that needs more than `free` cannot come in now: the room it would take is kept for another upload. */
  const keptFor = (start: string) =>
    new ApiError(409, {
      detail: `${start} the ${formatBytes(left)} your music has left, ${formatBytes(Math.min(kept, left))} ${onTheirWay.length === 1 ? 'is kept for an upload already on its way' : 'are kept for uploads already on their way'}. Try this one again once ${onTheirWay.length === 1 ? 'it has' : 'they have'} finished.`,
    });
  if (left === 0)
    throw new ApiError(403, { detail: `Your music has used all of its ${whole}. Delete a track to make room.` });
  const size = declaredBytes === undefined ? undefined : formatBytes(declaredBytes);
  if (free === 0) throw keptFor(size ? `This upload is ${size}, and of` : 'Of');
  if (declaredBytes !== undefined && free < OWN_MUSIC.maxFileBytes && declaredBytes > uploadBodySize(free)) {
    if (left < OWN_MUSIC.maxFileBytes && declaredBytes > uploadBodySize(left))
      throw new ApiError(403, {
        detail: `This upload is ${size}, and your music has ${formatBytes(left)} of ${whole} left. Delete a track to make room.`,
      });
    throw keptFor(`This upload is ${size}, and of`);
  }
  const refusal = () =>
    kept > 0
      ? keptFor(`This file needs more than ${formatBytes(free)}: of`)
      : new ApiError(403, {
          detail: `This file needs more than ${formatBytes(free)}, and your music has ${formatBytes(free)} of ${whole} left. Delete a track to make room.`,
        });
  // A declared length may pass `free` by what the fields may hold, which is no room for the file: beside uploads that
  // keep bytes, a file past `free` would take theirs.
  const bounded = declaredBytes === undefined || kept > 0;
  return {
    keeps: Math.min(declaredBytes ?? Infinity, free, OWN_MUSIC.maxFileBytes),
    ...(bounded ? { room: { bytes: free, refusal } } : {}),
  };
}

/** Refuses a track past the quota: the number of tracks, or the bytes they may take together. */
async function assertRoomForTrack(db: Db, userId: number, bytes: number): Promise<void> {
  const used = await usage(db, userId);
  if (used.tracks >= OWN_MUSIC.maxTracks) throw new ApiError(403, { detail: fullText });
  if (used.bytes + bytes > OWN_MUSIC.maxBytes) {
    const left = formatBytes(Math.max(0, OWN_MUSIC.maxBytes - used.bytes));
    throw new ApiError(403, {
      detail: `This file needs ${formatBytes(bytes)}, and your music has ${left} of ${formatBytes(OWN_MUSIC.maxBytes)} left. Delete a track to make room.`,
    });
  }
}

/** Why a track sent without a name has none: its file's name shows nothing before the extension (".wav"). */
export const TRACK_NAME_NEEDED = 'The file’s name has nothing before its extension: give the track a name.';

/**
 * The name given, else the file's own name less its extension (cut to the longest name allowed, counted as the
 * limit counts, never inside an emoji). A file name with nothing that shows before its extension gives no name:
 * the person is asked for one (tracks cannot be renamed later) rather than getting a track named "" or ".wav".
 */
function trackName(given: string | undefined, fileName: string | undefined): string {
  const fallback = leadingCharacters(trackNameOfFile(fileName ?? '').trim(), OWN_MUSIC.nameMax);
  if (!given?.trim() && !hasVisibleText(fallback)) throw badRequest({ name: [TRACK_NAME_NEEDED] });
  const parsed = ownTrackFieldsSchema.safeParse({ name: given?.trim() ? given : fallback });
  if (!parsed.success) {
    throw badRequest({ name: parsed.error.issues.map((issue) => issue.message) });
  }
  return parsed.data.name;
}

/**
 * Stores an uploaded file as the person's track: audio by its bytes, not one of their tracks already,
 * within the quota (checked with the person's row locked, so two uploads at once cannot both pass). The
 * staged file is placed or removed, never left behind.
 */
export async function addOwnTrack(
  db: Db,
  files: MediaStore,
  urls: MediaUrls,
  user: SessionUser,
  upload: { staged: StagedFile | undefined; fileName?: string; name?: string },
): Promise<OwnTrack> {
  const { staged } = upload;
  const userId = user.id;
  try {
    // The plan was checked before the body: one that ended while the file streamed in keeps nothing.
    await assertFeature(db, userId, 'ownMusic');
    if (!staged) throw badRequest({ audio_file: ['No file was submitted.'] });
    const type = sniffAudio(staged.head, staged.size);
    if (!type) throw badRequest({ audio_file: [AUDIO_TYPES_TEXT] });
    const name = trackName(upload.name, upload.fileName);
    const relative = `own-music/${userId}/${contentAddressedName(staged.sha256, type.ext)}`;
    // Checked first so a file already there or a full quota costs no transfer to the storage, then
    // again where it counts (the plan too).
    await assertNotThere(db, userId, relative);
    await assertRoomForTrack(db, userId, staged.size);
    const row = await placeAndReference(db, files, [{ staged, relative }], async (tx) => {
      await lockUserRow(tx, userId);
      await assertStillSignedIn(tx, user);
      await assertFeature(tx, userId, 'ownMusic');
      await assertNotThere(tx, userId, relative);
      await assertRoomForTrack(tx, userId, staged.size);
      const [inserted] = await tx
        .insert(ownTracks)
        .values({ userId, name, audioFile: relative, bytes: staged.size })
        .returning();
      return inserted!;
    });
    return await toTrack(urls, row);
  } finally {
    // A file refused before it was placed is still staged (removing a placed one's old name does nothing).
    await discardStaged(staged);
  }
}

/**
 * Deletes one of the person's tracks, and its file once nothing names it. Its id is kept with its name
 * (removed_own_tracks): a Save from another tab still playing it is saved without it, and told so.
 */
export async function deleteOwnTrack(
  db: Db,
  files: MediaStore,
  userId: number,
  id: number,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<void> {
  const deleted = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(ownTracks)
      .where(and(eq(ownTracks.id, id), eq(ownTracks.userId, userId)))
      .returning({ file: ownTracks.audioFile, name: ownTracks.name });
    if (row) await tx.insert(removedOwnTracks).values({ id, userId, name: row.name }).onConflictDoNothing();
    return row;
  });
  if (!deleted) throw notFound();
  await releaseAfterCommit(db, files, [deleted.file], log);
}
