import type { FastifyBaseLogger } from 'fastify';
import { and, asc, count, eq } from 'drizzle-orm';
import { VOICE_RECORDINGS, voiceRecordingFieldsSchema, type MyVoice, type VoiceRecording } from '@shared/contract';
import type { Db } from '../db/client';
import { voiceRecordings } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/errors';
import { pcmWav } from '../media/file-types';
import {
  contentAddressedName,
  discardStaged,
  placeAndReference,
  releaseAfterCommit,
  type LeftFilesLog,
  type MediaStore,
  type StagedFile,
} from '../media/store';
import type { MediaUrls } from '../media/urls';
import { assertStillSignedIn } from '../auth/authenticate';
import type { SessionUser } from '../auth/sessions';
import { lockUserRow } from '../db/user-lock';
import { assertFeature } from './service';

// Recordings of a person's own voice (Pro; docs/product/api.md#own-voice): one take per message text,
// a 16-bit mono PCM WAV file of a sentence's length, kept privately under their own folder. A new take
// of the same text replaces the old one.

const { sampleRates, maxSeconds, minMilliseconds, maxRecordings } = VOICE_RECORDINGS;
export const VOICE_FORMAT_TEXT = `Upload the recording as a WAV file: 16-bit PCM, one channel, ${sampleRates.min / 1000} to ${sampleRates.max / 1000} kHz.`;

type Row = typeof voiceRecordings.$inferSelect;

const toRecording = async (urls: MediaUrls, row: Row): Promise<VoiceRecording> => ({
  id: row.id,
  text: row.text,
  url: await urls.url(row.audioFile),
  duration_ms: row.durationMs,
  bytes: row.bytes,
  created_at: row.createdAt.toISOString(),
});

export async function listVoiceRecordings(db: Db, urls: MediaUrls, userId: number): Promise<MyVoice> {
  const rows = await db
    .select()
    .from(voiceRecordings)
    .where(eq(voiceRecordings.userId, userId))
    .orderBy(asc(voiceRecordings.createdAt), asc(voiceRecordings.id));
  return {
    recordings: await Promise.all(rows.map((row) => toRecording(urls, row))),
    max_recordings: maxRecordings,
    max_seconds: maxSeconds,
  };
}

/** The recording's length in milliseconds, when it is a take the voice layer can play; else a 400. */
function takeLength(staged: StagedFile): number {
  const wav = pcmWav(staged.head, staged.size);
  if (
    !wav ||
    wav.channels !== 1 ||
    wav.bitsPerSample !== 16 ||
    wav.rate < sampleRates.min ||
    wav.rate > sampleRates.max
  )
    throw badRequest({ audio_file: [VOICE_FORMAT_TEXT] });
  const milliseconds = Math.round((wav.frames / wav.rate) * 1000);
  if (milliseconds > maxSeconds * 1000)
    throw badRequest({ audio_file: [`Ensure this recording is no longer than ${maxSeconds} seconds.`] });
  if (milliseconds < minMilliseconds) throw badRequest({ audio_file: ['This recording is too short to hear.'] });
  return milliseconds;
}

function textOf(given: string | undefined): string {
  const parsed = voiceRecordingFieldsSchema.safeParse({ text: given });
  if (!parsed.success) throw badRequest({ text: parsed.error.issues.map((issue) => issue.message) });
  return parsed.data.text;
}

const fullText = `Your voice keeps up to ${maxRecordings} recordings. Delete one to record another.`;

const recordingsHeld = async (db: Db, userId: number) => {
  const [held] = await db.select({ n: count() }).from(voiceRecordings).where(eq(voiceRecordings.userId, userId));
  return held?.n ?? 0;
};

/**
 * Refuses a take of a text that has no recording when the person's voice already holds as many as it may: asked as
 * the file begins, with the text sent before it (as the portal sends it), so that a full voice costs no upload
 * streamed to disk for nothing (docs/product/api.md#own-voice), and again with the person's row locked once the file
 * is in. A text not sent before the file waits for that second check (a new take of a text it has still goes).
 */
export async function assertRoomForTake(db: Db, userId: number, given: string | undefined): Promise<void> {
  if (given === undefined) return;
  const text = textOf(given);
  if ((await recordingsHeld(db, userId)) < maxRecordings) return;
  const [existing] = await db
    .select({ id: voiceRecordings.id })
    .from(voiceRecordings)
    .where(and(eq(voiceRecordings.userId, userId), eq(voiceRecordings.text, text)));
  if (!existing) throw new ApiError(403, { detail: fullText });
}

/**
 * Stores a take of `text`: a new recording, or the new file of the one that text has (the old file is
 * removed once nothing names it). Checked with the person's row locked, so two takes at once cannot
 * pass the limit or both insert. The staged file is placed or removed, never left behind.
 */
export async function recordVoice(
  db: Db,
  files: MediaStore,
  urls: MediaUrls,
  user: SessionUser,
  upload: { staged: StagedFile | undefined; text?: string },
  log: LeftFilesLog,
): Promise<{ recording: VoiceRecording; replaced: boolean }> {
  const { staged } = upload;
  const userId = user.id;
  try {
    // The plan was checked before the body: one that ended while the take streamed in keeps nothing
    // (checked again where it counts, below).
    await assertFeature(db, userId, 'spokenSubliminals');
    const text = textOf(upload.text);
    if (!staged) throw badRequest({ audio_file: ['No file was submitted.'] });
    const durationMs = takeLength(staged);
    const relative = `own-voice/${userId}/${contentAddressedName(staged.sha256, '.wav')}`;
    const { row, oldFile } = await placeAndReference(db, files, [{ staged, relative }], async (tx) => {
      await lockUserRow(tx, userId);
      await assertStillSignedIn(tx, user);
      await assertFeature(tx, userId, 'spokenSubliminals');
      const take = { audioFile: relative, bytes: staged.size, durationMs, createdAt: new Date() };
      // Held, so that a take deleted in another tab at this moment is either replaced here or found gone (this take is
      // then a new recording), never updated after it went (no row to answer: a 500).
      const [existing] = await tx
        .select({ id: voiceRecordings.id, file: voiceRecordings.audioFile })
        .from(voiceRecordings)
        .where(and(eq(voiceRecordings.userId, userId), eq(voiceRecordings.text, text)))
        .for('update');
      if (existing) {
        const [updated] = await tx
          .update(voiceRecordings)
          .set(take)
          .where(eq(voiceRecordings.id, existing.id))
          .returning();
        return { row: updated!, oldFile: existing.file };
      }
      if ((await recordingsHeld(tx, userId)) >= maxRecordings) throw new ApiError(403, { detail: fullText });
      const [inserted] = await tx
        .insert(voiceRecordings)
        .values({ userId, text, ...take })
        .returning();
      return { row: inserted!, oldFile: undefined };
    });
    if (oldFile && oldFile !== relative) await releaseAfterCommit(db, files, [oldFile], log);
    return { recording: await toRecording(urls, row), replaced: oldFile !== undefined };
  } finally {
    await discardStaged(staged);
  }
}

/** Deletes one of the person's recordings, and its file once nothing names it. */
export async function deleteVoiceRecording(
  db: Db,
  files: MediaStore,
  userId: number,
  id: number,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<void> {
  const [deleted] = await db
    .delete(voiceRecordings)
    .where(and(eq(voiceRecordings.id, id), eq(voiceRecordings.userId, userId)))
    .returning({ file: voiceRecordings.audioFile });
  if (!deleted) throw notFound();
  await releaseAfterCommit(db, files, [deleted.file], log);
}
