import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audioItems, desktopApplications, ownTracks, profiles, voiceRecordings } from '../db/schema';
import { formatBytes } from '@shared/bytes';

// The media store: files under DATA_DIR/media, or objects in S3-compatible storage (s3-store.ts), behind
// one interface (MediaStore). An upload is streamed to a temporary file on this machine's disk, hashed on
// the way, and placed (renamed into the folder, or PUT as one object) in the transaction that writes the
// row naming it, so a reader never sees a half-written file and a failed request leaves nothing behind. Files are
// content-addressed (the same bytes, one file), so several rows may name one file: adding a reference
// and removing a file nobody references any more take the same per-file lock, and no row is ever left
// naming a deleted file.

const TEMP_DIR = '.incoming';
/** Enough for the headers sniffAudio checks (a WAV's chunks before its data, an Ogg page, an MP4 `ftyp`). */
const HEAD_BYTES = 4096;

export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${formatBytes(maxBytes)}.`);
  }
}

/** A file written completely to a temporary name, not yet in its final place. */
export interface StagedFile {
  tempPath: string;
  size: number;
  sha256: string;
  /** The first bytes, for sniffing the type. */
  head: Buffer;
}

/** `<sha256><ext>`: the same bytes always get the same name, so a re-upload never duplicates a file. */
export const contentAddressedName = (sha256: string, ext: string) => `${sha256}${ext}`;

/** Resolves a stored relative path inside the media folder, refusing anything that would leave it. */
export function mediaPath(mediaRoot: string, relative: string): string {
  const full = path.resolve(mediaRoot, relative);
  if (!full.startsWith(path.resolve(mediaRoot) + path.sep))
    throw new Error(`media path escapes the media folder: ${relative}`);
  return full;
}

/** Streams `source` to a temporary file in the media folder, failing with FileTooLargeError past maxBytes. */
export async function stageStream(source: Readable, mediaRoot: string, maxBytes: number): Promise<StagedFile> {
  const dir = path.join(mediaRoot, TEMP_DIR);
  await mkdir(dir, { recursive: true });
  const tempPath = path.join(dir, `${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) return callback(new FileTooLargeError(maxBytes));
      hash.update(chunk);
      if (headLength < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      callback(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(tempPath, { flags: 'wx' }));
    // Durable before it can be renamed into place.
    const handle = await open(tempPath, 'r');
    await handle.sync().finally(() => handle.close());
  } catch (error) {
    await rm(tempPath, { force: true });
    // A stream that stops early (busboy's own limit) must not leave its remainder unread.
    if (!source.destroyed) source.resume();
    throw error;
  }
  return { tempPath, size, sha256: hash.digest('hex'), head: Buffer.concat(headChunks) };
}

/** Stages bytes already in memory (a re-encoded cover image). */
export async function stageBuffer(bytes: Buffer, mediaRoot: string): Promise<StagedFile> {
  const dir = path.join(mediaRoot, TEMP_DIR);
  await mkdir(dir, { recursive: true });
  const tempPath = path.join(dir, `${randomBytes(12).toString('hex')}.part`);
  await writeFile(tempPath, bytes, { flag: 'wx' });
  return {
    tempPath,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    head: bytes.subarray(0, HEAD_BYTES),
  };
}

export async function discardStaged(staged: StagedFile | undefined): Promise<void> {
  if (staged) await rm(staged.tempPath, { force: true });
}

/** A byte range of a file, both ends included (as in an HTTP Range header). */
export interface ByteRange {
  start: number;
  end?: number | undefined;
}

/** Reading a file that is not stored (the caller answers 404). */
export class MediaFileMissingError extends Error {
  override name = 'MediaFileMissingError';
  readonly statusCode = 404;
  constructor(readonly relative: string) {
    super(`No stored media file ${relative}.`);
  }
}

/**
 * Where media files live: one interface, two implementations (the local folder, the default, and
 * S3-compatible object storage). Names are relative paths such as `covers/<sha-256>.webp`.
 */
export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** The local folder uploads are staged in before they are placed (DATA_DIR/media in both cases). */
  readonly stagingRoot: string;
  /** Places a staged file under `relative`, whole or not at all; `created: false` when it was already there. */
  place(staged: StagedFile, relative: string): Promise<{ created: boolean }>;
  /** The file's bytes (or a range of them); MediaFileMissingError when it is not stored. */
  read(relative: string, range?: ByteRange): Promise<Readable>;
  /** The size of a stored file, or null when it is missing. */
  size(relative: string): Promise<number | null>;
  /** Removes a stored file; a file already gone is fine (the row is what matters). */
  remove(relative: string): Promise<void>;
}

/** The default store: files under `mediaRoot` (DATA_DIR/media), placed by an atomic rename. */
export function localMediaStore(mediaRoot: string): MediaStore {
  return {
    kind: 'local',
    stagingRoot: mediaRoot,
    async place(staged, relative) {
      const target = mediaPath(mediaRoot, relative);
      for (let attempt = 1; ; attempt++) {
        try {
          await mkdir(path.dirname(target), { recursive: true });
          const existed = await stat(target).then(
            () => true,
            () => false,
          );
          if (existed) {
            await rm(staged.tempPath, { force: true });
            return { created: false };
          }
          await rename(staged.tempPath, target);
          return { created: true };
        } catch (error) {
          // The folder went while it was being made or filled, its last other file removed (remove):
          // made again.
          const folderGone = errorCode(error) === 'ENOENT' && (await stat(staged.tempPath).catch(() => null));
          if (!folderGone || attempt >= PLACE_ATTEMPTS) throw error;
        }
      }
    },
    async read(relative, range) {
      const file = mediaPath(mediaRoot, relative);
      const handle = await open(file, 'r').catch(() => {
        throw new MediaFileMissingError(relative);
      });
      return createReadStream(file, { fd: handle, start: range?.start, end: range?.end });
    },
    async size(relative) {
      try {
        return (await stat(mediaPath(mediaRoot, relative))).size;
      } catch {
        return null;
      }
    },
    async remove(relative) {
      const file = mediaPath(mediaRoot, relative);
      await rm(file, { force: true });
      // A folder this leaves empty goes too: own-music/<id>/ once its person's last track is gone, and
      // with the account. rmdir removes only an empty folder, so a file placed into it at the same moment
      // either is there first (the folder stays) or finds it gone and makes it again (place).
      const folder = path.dirname(file);
      if (folder !== path.resolve(mediaRoot))
        await rmdir(folder).catch((error: unknown) => {
          if (!FOLDER_IN_USE.has(errorCode(error) ?? '')) throw error;
        });
    },
  };
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | null | undefined)?.code;
/** What rmdir says of a folder gone already or not empty (EEXIST on some systems). */
const FOLDER_IN_USE = new Set(['ENOENT', 'ENOTEMPTY', 'EEXIST']);
/** How many times a file is placed when its folder keeps being removed under it. */
const PLACE_ATTEMPTS = 5;

/** An arbitrary constant naming Innerwave's per-file locks among PostgreSQL advisory locks. */
const FILE_LOCK_NAMESPACE = 724_311_902;

/** Holds the file's lock until the transaction ends (PostgreSQL and PGlite alike). */
const lockFile = (tx: Db, relative: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(${FILE_LOCK_NAMESPACE}, hashtext(${relative}))`);

/** Whether any row names the file: a profile image, an audio file or cover, an installer, own music or voice. */
async function fileInUse(tx: Db, relative: string): Promise<boolean> {
  const result = (await tx.execute(sql`
    select 1 from ${profiles} where ${profiles.profileImage} = ${relative}
    union all select 1 from ${audioItems} where ${audioItems.audioFile} = ${relative} or ${audioItems.coverImage} = ${relative}
    union all select 1 from ${desktopApplications} where ${desktopApplications.applicationFile} = ${relative}
    union all select 1 from ${ownTracks} where ${ownTracks.audioFile} = ${relative}
    union all select 1 from ${voiceRecordings} where ${voiceRecordings.audioFile} = ${relative}
    limit 1`)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/**
 * Places the staged files and runs `write` (the rows that name them) in one transaction holding each
 * file's lock, so a concurrent removal either ran before (and the file is placed again) or waits until
 * the rows exist. If anything fails, the files this call created are removed; staged files never stay.
 */
export async function placeAndReference<T>(
  db: Db,
  store: MediaStore,
  files: ReadonlyArray<{ staged: StagedFile; relative: string }>,
  write: (tx: Db) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      for (const file of [...files].sort((a, b) => a.relative.localeCompare(b.relative)))
        await lockFile(tx, file.relative);
      const created: string[] = [];
      try {
        for (const file of files) {
          if ((await store.place(file.staged, file.relative)).created) created.push(file.relative);
        }
        return await write(tx);
      } catch (error) {
        // Still under the locks: nobody can have come to rely on these files meanwhile.
        for (const relative of created) await store.remove(relative);
        throw error;
      }
    });
  } finally {
    for (const file of files) await discardStaged(file.staged);
  }
}

/** Removes each file that no row names any more, under its lock (after the rows that named it are gone). */
export async function releaseUnreferenced(
  db: Db,
  store: MediaStore,
  paths: ReadonlyArray<string | null | undefined>,
): Promise<void> {
  for (const relative of new Set(paths)) {
    if (!relative) continue;
    await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      await lockFile(tx, relative);
      if (!(await fileInUse(tx, relative))) await store.remove(relative);
    });
  }
}

/** Where files left behind are reported, for staff: a request's logger, or the CLI's standard error. */
export interface LeftFilesLog {
  error(details: { err: unknown; files: string[] }, message: string): void;
}

/**
 * releaseUnreferenced once a change that stopped naming the files (a deletion, a replacement) has been
 * committed, which stands whatever the storage says: a file it cannot remove now (the storage not answering)
 * is logged as an error naming it, for staff, rather than answered as a failure the person would retry
 * against a change already made.
 */
export async function releaseAfterCommit(
  db: Db,
  store: MediaStore,
  paths: ReadonlyArray<string | null | undefined>,
  log: LeftFilesLog,
): Promise<void> {
  await releaseUnreferenced(db, store, paths).catch((error: unknown) =>
    log.error(
      { err: error, files: paths.filter((file): file is string => Boolean(file)) },
      'files no row names any more could not all be removed: remove those left from the media storage',
    ),
  );
}

/** Stores bytes under `<folder>/<sha-256>.<ext>`, atomically; the same bytes are written once (the seed). */
export async function storeMediaFile(
  store: MediaStore,
  folder: string,
  bytes: Uint8Array,
  extension: string,
): Promise<{ relativePath: string; created: boolean }> {
  const bytesBuffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const relativePath = `${folder}/${contentAddressedName(createHash('sha256').update(bytesBuffer).digest('hex'), `.${extension}`)}`;
  // Already stored (a restart, another server seeding too): nothing to write.
  if ((await store.size(relativePath)) !== null) return { relativePath, created: false };
  const staged = await stageBuffer(bytesBuffer, store.stagingRoot);
  try {
    return { relativePath, ...(await store.place(staged, relativePath)) };
  } finally {
    await discardStaged(staged);
  }
}

/**
 * Removes uploads cut off by a crash: staged parts older than `maxAgeMs` (younger ones may belong to an
 * upload still under way in another process sharing the folder). Answers how many were removed.
 */
export async function sweepStaleUploads(mediaRoot: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  const dir = path.join(mediaRoot, TEMP_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile() && now - info.mtimeMs > maxAgeMs) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
