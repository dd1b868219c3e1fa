import { and, asc, eq, max, sql } from 'drizzle-orm';
import { audioTextFieldsSchema, type AdminAudioItem, type AudioItemUpdate, type AudioKind } from '@shared/contract';
import { isolated } from '@shared/contract/plain';
import { audioItems, displayedName, removedAudioItems } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import {
  contentAddressedName,
  discardStaged,
  placeAndReference,
  releaseAfterCommit,
  stageBuffer,
  type LeftFilesLog,
  type StagedFile,
} from '../media/store';
import { rethrowUniqueAs } from '../db/errors';
import { refuseIfChangedMeanwhile } from '../db/changed-meanwhile';
import { followTrackRename } from '../guidance/programs';
import { coverToWebp, InvalidImageError, sniffAudio } from '../media/file-types';
import type { ContentStore, StaffCheck } from './media-context';

type AudioRow = typeof audioItems.$inferSelect;

const AUDIO_TYPES_TEXT = 'Upload an audio file: MP3, OGG, WAV, M4A/AAC or FLAC.';
const duplicateName = () => badRequest({ name: ['An audio item with this name already exists in this library.'] });
const withUniqueName = <T>(write: () => Promise<T>) =>
  rethrowUniqueAs('audio_items_kind_displayed_name_unique', write, duplicateName);

const toAdmin = async (store: ContentStore, row: AudioRow): Promise<AdminAudioItem> => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  description: row.description,
  cover_image: row.coverImage ? await store.mediaUrl(row.coverImage) : null,
  audio_file: await store.mediaUrl(row.audioFile),
  position: row.position,
  date_added: row.dateAdded.toISOString(),
});

export async function listAudioItems(store: ContentStore, kind: AudioKind): Promise<AdminAudioItem[]> {
  const rows = await store.db
    .select()
    .from(audioItems)
    .where(eq(audioItems.kind, kind))
    .orderBy(asc(audioItems.position), asc(audioItems.id));
  return Promise.all(rows.map((row) => toAdmin(store, row)));
}

async function findRow(store: ContentStore, kind: AudioKind, id: number): Promise<AudioRow> {
  const [row] = await store.db
    .select()
    .from(audioItems)
    .where(and(eq(audioItems.kind, kind), eq(audioItems.id, id)));
  if (!row) throw notFound();
  return row;
}

/** Checks the staged audio's magic bytes and names its final place. */
function audioTarget(kind: AudioKind, audio: StagedFile): string {
  const type = sniffAudio(audio.head, audio.size);
  if (!type) throw badRequest({ audio_file: [AUDIO_TYPES_TEXT] });
  return `audio/${kind}/${contentAddressedName(audio.sha256, type.ext)}`;
}

/** Decodes the staged cover, replaces it by its 512 px WebP, and names its final place. */
async function coverTarget(store: ContentStore, raw: StagedFile): Promise<{ staged: StagedFile; relative: string }> {
  try {
    const webp = await coverToWebp(raw.tempPath);
    const staged = await stageBuffer(webp, store.files.stagingRoot);
    return { staged, relative: `covers/${contentAddressedName(staged.sha256, '.webp')}` };
  } catch (error) {
    if (error instanceof InvalidImageError) throw badRequest({ cover_image: [error.message] });
    throw error;
  } finally {
    await discardStaged(raw);
  }
}

export interface NewAudioItem {
  kind: AudioKind;
  fields: Record<string, unknown>;
  audio: StagedFile | undefined;
  cover?: StagedFile | undefined;
  assertUploader?: StaffCheck | undefined;
}

/** Validates and stores a new audio item; the staged files are placed or discarded, never left behind. */
export async function createAudioItem(store: ContentStore, input: NewAudioItem): Promise<AdminAudioItem> {
  const staged = [input.audio, input.cover];
  try {
    await input.assertUploader?.(store.db);
    const fields = audioTextFieldsSchema.safeParse(input.fields);
    const errors: Record<string, string[]> = fields.success ? {} : fieldErrors(fields.error.issues);
    if (!input.audio) errors.audio_file = ['No file was submitted.'];
    if (Object.keys(errors).length || !fields.success || !input.audio) throw badRequest(errors);
    const audioRelative = audioTarget(input.kind, input.audio);
    const cover = input.cover ? await coverTarget(store, input.cover) : undefined;
    staged.push(cover?.staged);
    const files = [{ staged: input.audio, relative: audioRelative }, ...(cover ? [cover] : [])];
    const row = await withUniqueName(() =>
      placeAndReference(store.db, store.files, files, async (tx) => {
        await input.assertUploader?.(tx);
        const [last] = await tx
          .select({ n: max(audioItems.position) })
          .from(audioItems)
          .where(eq(audioItems.kind, input.kind));
        const [inserted] = await tx
          .insert(audioItems)
          .values({
            kind: input.kind,
            name: fields.data.name,
            description: fields.data.description,
            audioFile: audioRelative,
            coverImage: cover?.relative ?? null,
            position: (last?.n ?? -1) + 1,
          })
          .returning();
        if (!inserted) throw new Error('audio insert returned no row');
        return inserted;
      }),
    );
    return await toAdmin(store, row);
  } finally {
    for (const file of staged) await discardStaged(file);
  }
}

/**
 * Changes an item's name, its description or both; what the edit leaves out stays as it is. Given the text an edit
 * began from (`previous_name`, `previous_description`), an item that reads otherwise now is refused 409 and stays as
 * it is (docs/decisions/084-a-staff-edit-of-a-name-names-the-name-it-began-from.md). A new name follows into the
 * programs' days that play the item (docs/decisions/094-a-renamed-track-stays-in-its-programs.md).
 */
export async function updateAudioItem(
  store: ContentStore,
  kind: AudioKind,
  id: number,
  update: AudioItemUpdate,
): Promise<AdminAudioItem> {
  const row = await withUniqueName(() =>
    store.db.transaction(async (tx) => {
      // Locked until the change commits: two edits from one text compare in turn, and the second sees the first.
      const [stored] = await tx
        .select({ name: audioItems.name, description: audioItems.description })
        .from(audioItems)
        .where(and(eq(audioItems.kind, kind), eq(audioItems.id, id)))
        .for('update');
      if (!stored) throw notFound();
      refuseIfChangedMeanwhile('name', { stored: stored.name, next: update.name, previous: update.previous_name });
      refuseIfChangedMeanwhile('description', {
        stored: stored.description,
        next: update.description,
        previous: update.previous_description,
      });
      const [updated] = await tx
        .update(audioItems)
        .set({
          ...(update.name !== undefined && { name: update.name }),
          ...(update.description !== undefined && { description: update.description }),
        })
        .where(eq(audioItems.id, id))
        .returning();
      if (!updated) throw notFound();
      await followTrackRename(tx, kind, stored.name, updated.name);
      return updated;
    }),
  );
  return toAdmin(store, row);
}

/** Replaces the audio file and/or the cover of an item; the old files go once the row points elsewhere. */
export async function replaceAudioFiles(
  store: ContentStore,
  kind: AudioKind,
  id: number,
  input: { audio?: StagedFile | undefined; cover?: StagedFile | undefined; assertUploader?: StaffCheck | undefined },
  log: LeftFilesLog,
): Promise<AdminAudioItem> {
  const staged = [input.audio, input.cover];
  try {
    await input.assertUploader?.(store.db);
    if (!input.audio && !input.cover)
      throw badRequest({ audio_file: ['Give a new audio file, a new cover image, or both.'] });
    // An unknown item is refused before its cover is converted; the files it names are read again below.
    await findRow(store, kind, id);
    const audioRelative = input.audio ? audioTarget(kind, input.audio) : undefined;
    const cover = input.cover ? await coverTarget(store, input.cover) : undefined;
    staged.push(cover?.staged);
    const files = [
      ...(input.audio && audioRelative ? [{ staged: input.audio, relative: audioRelative }] : []),
      ...(cover ? [cover] : []),
    ];
    const { row, before } = await placeAndReference(store.db, store.files, files, async (tx) => {
      await input.assertUploader?.(tx);
      // The files it names as this change takes its row: another replacement that came first put in the ones this
      // one lets go of, and they go, not those it read before it waited.
      const [before] = await tx
        .select()
        .from(audioItems)
        .where(and(eq(audioItems.kind, kind), eq(audioItems.id, id)))
        .for('update');
      if (!before) throw notFound();
      const [row] = await tx
        .update(audioItems)
        .set({ ...(audioRelative && { audioFile: audioRelative }), ...(cover && { coverImage: cover.relative }) })
        .where(eq(audioItems.id, id))
        .returning();
      if (!row) throw notFound();
      return { row, before };
    });
    await releaseAfterCommit(
      store.db,
      store.files,
      [audioRelative ? before.audioFile : null, cover ? before.coverImage : null],
      log,
    );
    return await toAdmin(store, row);
  } finally {
    for (const file of staged) await discardStaged(file);
  }
}

export async function deleteAudioItem(
  store: ContentStore,
  kind: AudioKind,
  id: number,
  log: LeftFilesLog,
): Promise<AdminAudioItem> {
  // Its id is kept with its name: a saved sound still playing it is saved without it, and told so. The files that go
  // are those the row named as it went, also when a replacement landed since this was asked for.
  const row = await store.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(audioItems)
      .where(and(eq(audioItems.kind, kind), eq(audioItems.id, id)))
      .returning();
    if (!removed) throw notFound();
    await tx
      .insert(removedAudioItems)
      .values({ id: removed.id, kind: removed.kind, name: removed.name })
      .onConflictDoNothing();
    return removed;
  });
  await releaseAfterCommit(store.db, store.files, [row.audioFile, row.coverImage], log);
  return toAdmin(store, row);
}

/** The item of a library with this name as a reader tells it (for the CLI), or a 404 naming it. */
export async function findAudioItemByName(store: ContentStore, kind: AudioKind, name: string): Promise<number> {
  const [row] = await store.db
    .select({ id: audioItems.id })
    .from(audioItems)
    .where(
      and(eq(audioItems.kind, kind), eq(displayedName(audioItems.name), displayedName(sql`${name.trim()}::text`))),
    );
  if (!row) throw notFound(`No ${kind} audio item named "${isolated(name.trim())}".`);
  return row.id;
}

/** Zod issues as DRF field errors. */
export function fieldErrors(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[String(issue.path[0] ?? 'non_field_errors')] ??= []).push(issue.message);
  return errors;
}
