import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import type { Config } from '../config';
import { acquireDataDirLock, DataDirLockedError } from '../db/data-dir-lock';
import { MIGRATIONS_FOLDER } from '../db/migrate';
import { BadArchiveError, extractTar, type Placement } from './archive';
import { FORMAT, FORMAT_VERSION, MANIFEST, SECRET_FILE, SUMS, syncFolder, type Manifest } from './backup';
import { serverAnswers } from './snapshot';

// `npm run restore -- <file>`: a backup put back in place of DATA_DIR's data, the server stopped
// (docs/decisions/128-a-backup-of-the-embedded-database-and-the-media.md).

export const RESTORE_PREFIX = '.restore-';
export const ASIDE_PREFIX = 'before-restore-';

/** The restore did not happen; the data folder is as it was. */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

export interface RestoreReport {
  manifest: Manifest;
  files: number;
  /** Where the data the backup replaced was moved (the operator removes it once satisfied). */
  aside: string;
}

const NOT_OURS = (file: string, why: string) =>
  `${file} is not a backup of Innerwave, or it is damaged (${why}). Nothing was changed.`;

/** What the code's migrations are, from drizzle's journal. */
async function codeMigrations(): Promise<{ count: number; latest: number }> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ when: number }>;
  };
  return { count: journal.entries.length, latest: Math.max(...journal.entries.map((entry) => entry.when)) };
}

/** The most a manifest (a few lines) and the checksums (a line a file: 64 MiB is some 400,000 files) may weigh. */
const MANIFEST_BYTES = 1024 * 1024;
const SUMS_BYTES = 64 * 1024 * 1024;
/** What of DATA_DIR a backup may hold, each swapped in whole: nothing else of the folder is a restore's. */
const PARTS: ReadonlySet<string> = new Set<Manifest['contains'][number]>(['db', 'media', SECRET_FILE]);

function allowedEntry(name: string, index: number, folder: boolean): Placement {
  if (index === 0 && name !== MANIFEST) throw new BadArchiveError('it does not begin with its manifest');
  if (!folder && name === MANIFEST) return { inMemoryUpTo: MANIFEST_BYTES };
  if (!folder && name === SUMS) return { inMemoryUpTo: SUMS_BYTES };
  // A folder too: one outside these was made in the staging folder and could be swapped in by the manifest.
  if ((!folder && name === SECRET_FILE) || name.startsWith('db/') || name.startsWith('media/')) return 'disk';
  throw new BadArchiveError(`it holds ${JSON.stringify(name.slice(0, 80))}`);
}

function checkManifest(bytes: Buffer | undefined, config: Config): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes!.toString('utf8')) as Manifest;
  } catch {
    throw new BadArchiveError('its manifest cannot be read');
  }
  // Each part it names is swapped in place of the data folder's own: only ours, each once, the database with an
  // embedded one.
  if (
    typeof manifest !== 'object' ||
    manifest === null ||
    manifest.format !== FORMAT ||
    !Array.isArray(manifest.contains) ||
    !manifest.contains.every((part) => PARTS.has(part)) ||
    new Set(manifest.contains).size !== manifest.contains.length ||
    (manifest.database === 'embedded' && !manifest.contains.includes('db'))
  )
    throw new BadArchiveError('its manifest is not ours');
  if (typeof manifest.version !== 'number' || manifest.version > FORMAT_VERSION)
    throw new RestoreRefusedError(
      `This backup was written by a newer Innerwave (format ${String(manifest.version)}): update the code first. Nothing was changed.`,
    );
  const embedded = !config.databaseUrl;
  if (embedded && manifest.database !== 'embedded')
    throw new RestoreRefusedError(
      'This backup was taken on PostgreSQL (DATABASE_URL) and holds no database; restore it with the same ' +
        'DATABASE_URL set, and the database with pg_restore. Nothing was changed.',
    );
  if (!embedded && manifest.database === 'embedded')
    throw new RestoreRefusedError(
      'This backup holds an embedded database, and DATABASE_URL is set: restore it without DATABASE_URL. Nothing was changed.',
    );
  return manifest;
}

/**
 * Restores `file` into `config.dataDir`: refused while a server runs on the folder, and unless the whole file is a
 * backup of ours whose every file matches its checksum and whose database opens, at the code's migrations or older.
 * Only then is each part it holds swapped in, the folder's own moved aside into `before-restore-…`.
 */
export async function restoreBackup(config: Config, file: string): Promise<RestoreReport> {
  const source = path.resolve(file);
  if (!(await lstat(source).catch(() => null))?.isFile())
    throw new RestoreRefusedError(`There is no backup file at ${source}. Nothing was changed.`);
  const dataDir = path.resolve(config.dataDir);
  const running = (detail: string) =>
    new RestoreRefusedError(
      `${detail}\nInnerwave is running on this data folder: stop it, then run the restore again. Nothing was changed.`,
    );
  if (await serverAnswers(dataDir)) throw running(`A server answers on ${dataDir}.`);
  let lock;
  try {
    lock = acquireDataDirLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) throw running(error.message);
    throw error;
  }

  const staging = path.join(dataDir, `${RESTORE_PREFIX}${randomBytes(8).toString('hex')}`);
  try {
    await mkdir(staging, { mode: 0o700 });
    let index = 0;
    let extracted;
    try {
      const gunzip = createReadStream(source).pipe(createGunzip());
      extracted = await extractTar(gunzip, staging, (name, folder) => allowedEntry(name, index++, folder));
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof BadArchiveError) throw new RestoreRefusedError(NOT_OURS(source, message));
      // zlib: not gzip at all, or cut short.
      if ((error as { errno?: number }).errno !== undefined && (error as { code?: string }).code?.startsWith('Z_'))
        throw new RestoreRefusedError(NOT_OURS(source, message.toLowerCase()));
      // The disk's (a full one): the staging folder goes below, the data folder was not touched.
      throw new Error(`${message}. Nothing was changed.`, { cause: error });
    }
    let manifest: Manifest;
    try {
      manifest = checkManifest(extracted.memory.get(MANIFEST), config);
      const sums = new Map(
        (extracted.memory.get(SUMS)?.toString('utf8') ?? '')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(66), line.slice(0, 64)] as const),
      );
      if (sums.size === 0) throw new BadArchiveError('it has no checksums');
      for (const entry of extracted.files) {
        if (entry.name === SUMS) continue;
        if (sums.get(entry.name) !== entry.sha256)
          throw new BadArchiveError(`${entry.name} does not match its checksum`);
        sums.delete(entry.name);
      }
      if (sums.size > 0) throw new BadArchiveError(`${[...sums.keys()][0]} is missing`);
      for (const part of manifest.contains)
        if (part !== 'media' && !(await lstat(path.join(staging, part)).catch(() => null)))
          throw new BadArchiveError(`${part} is missing`);
    } catch (error) {
      if (error instanceof BadArchiveError) throw new RestoreRefusedError(NOT_OURS(source, error.message));
      throw error;
    }

    if (manifest.contains.includes('db')) await checkDatabase(path.join(staging, 'db'), manifest);
    // Media may be none at all: an empty folder, which the archive does not hold.
    if (manifest.contains.includes('media')) await mkdir(path.join(staging, 'media'), { recursive: true });

    const aside = path.join(dataDir, `${ASIDE_PREFIX}${new Date().toISOString().replace(/[:.]/g, '-')}`);
    await mkdir(aside, { mode: 0o700 });
    await swapIn(dataDir, staging, aside, manifest.contains);
    return {
      manifest,
      files: extracted.files.filter((entry) => entry.name.startsWith('db/') || entry.name.startsWith('media/')).length,
      aside,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
    lock.release();
  }
}

/** The backup's database opens, and its migrations are the code's or older (the server applies the rest). */
async function checkDatabase(dir: string, manifest: Manifest): Promise<void> {
  const code = await codeMigrations();
  const { createPglite } = await import('../db/pglite');
  let applied: { count: number; latest: number | null };
  try {
    const database = await createPglite({ dataDir: dir });
    try {
      const { rows } = await database.pglite!.query<{ count: number; latest: string | null }>(
        'select count(*)::int as count, max(created_at)::text as latest from drizzle.__drizzle_migrations',
      );
      applied = { count: rows[0]!.count, latest: rows[0]!.latest ? Number(rows[0]!.latest) : null };
    } finally {
      await database.close();
    }
  } catch (error) {
    throw new RestoreRefusedError(
      `The backup's database does not open (${(error as Error).message}). Nothing was changed.`,
    );
  }
  if (applied.count > code.count || (applied.latest ?? 0) > code.latest)
    throw new RestoreRefusedError(
      `This backup's database has migrations newer than this code's (${applied.count} applied, the code has ` +
        `${code.count}): restore it with the release that wrote it, or a newer one. Nothing was changed.`,
    );
  if (manifest.migrations && manifest.migrations.count !== applied.count)
    throw new RestoreRefusedError(
      `The backup's database does not hold what its manifest says (${applied.count} migrations, not ` +
        `${manifest.migrations.count}). Nothing was changed.`,
    );
}

/**
 * Each part moved aside, then the backup's renamed into place (renames in one folder: each is whole or not at all).
 * A failure puts back what was moved, so the folder is as it was.
 */
async function swapIn(dataDir: string, staging: string, aside: string, parts: readonly string[]): Promise<void> {
  const done: Array<() => Promise<void>> = [];
  try {
    for (const part of parts) {
      const live = path.join(dataDir, part);
      if (await lstat(live).catch(() => null)) {
        await rename(live, path.join(aside, part));
        done.push(() => rename(path.join(aside, part), live));
      }
      await rename(path.join(staging, part), live);
      done.push(() => rename(live, path.join(staging, part)));
    }
    await syncFolder(dataDir);
  } catch (error) {
    for (const undo of done.reverse()) await undo().catch(() => undefined);
    throw error;
  }
}
