import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, constants as zlib } from 'node:zlib';
import type { Config } from '../config';
import { acquireDataDirLock } from '../db/data-dir-lock';
import { TarWriter } from './archive';
import {
  askServerForSnapshot,
  linkMedia,
  NoServerError,
  snapshotEmbedded,
  SNAPSHOT_PREFIX,
  type AppliedMigrations,
  type Snapshot,
} from './snapshot';

// `npm run backup -- <file>`: what a member would lose, in one file (the format: archive.ts and
// docs/decisions/128-a-backup-of-the-embedded-database-and-the-media.md).

export const MANIFEST = 'innerwave-backup.json';
export const SUMS = 'innerwave-backup.sha256';
export const FORMAT = 'innerwave-backup';
export const FORMAT_VERSION = 1;
/** The signing secret generated into DATA_DIR: without it every session and media link ends at a restore. */
export const SECRET_FILE = 'secret-key';

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** `embedded`: the backup holds the database; `postgresql`: the operator backs it up with pg_dump. */
  database: 'embedded' | 'postgresql';
  migrations: AppliedMigrations | null;
  /** What of DATA_DIR it holds, each restored in place of the folder's own. */
  contains: Array<'db' | 'media' | typeof SECRET_FILE>;
}

export interface BackupReport {
  file: string;
  bytes: number;
  files: number;
  /** Whether the running server took the snapshot (else this process did, the server being stopped). */
  fromServer: boolean;
  /** How long the embedded database's queries waited for its copy. */
  pausedMs: number | undefined;
  manifest: Manifest;
  notes: string[];
}

export class BackupRefusedError extends Error {
  override name = 'BackupRefusedError';
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

/** The embedded database copied by this process, the server being stopped: it holds the data folder meanwhile. */
async function snapshotHere(dataDir: string, into: string): Promise<Snapshot> {
  if (!(await exists(path.join(dataDir, 'db', 'PG_VERSION'))))
    throw new BackupRefusedError(`There is no embedded database in ${dataDir} to back up.`);
  const lock = acquireDataDirLock(dataDir);
  try {
    const { createPglite } = await import('../db/pglite');
    const database = await createPglite({ dataDir: path.join(dataDir, 'db') });
    try {
      return await snapshotEmbedded(database.pglite!, dataDir, into);
    } finally {
      await database.close();
    }
  } finally {
    lock.release();
  }
}

/** Every file and folder under `root`, as paths relative to it, each folder before what it holds. */
async function entriesUnder(root: string): Promise<Array<{ relative: string; folder: boolean }>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() || entry.isDirectory())
    .map((entry) => ({
      relative: path.relative(root, path.join(entry.parentPath, entry.name)),
      folder: entry.isDirectory(),
    }))
    .sort((a, b) => (a.relative < b.relative ? -1 : 1));
}

/** The `.partial` name a backup is written under, beside its own: `.<name>.<random>.partial`. */
export const partialName = (name: string) => `.${name}.${randomBytes(6).toString('hex')}.partial`;

/**
 * Writes a backup of `config`'s data to `file`: under a temporary name beside it, synced, then renamed, so the
 * name never holds half a backup. With the embedded database the running server takes the snapshot when it
 * answers; otherwise this process does, holding the data folder. The server's own primary, which holds the
 * database, gives its `takeSnapshot` (the scheduled backups: docs/decisions/147-backups-on-a-schedule-kept-to-a-count.md).
 */
export async function writeBackup(
  config: Config,
  file: string,
  { takeSnapshot }: { takeSnapshot?: (into: string) => Promise<Snapshot> } = {},
): Promise<BackupReport> {
  const target = path.resolve(file);
  if (await exists(target)) throw new BackupRefusedError(`${target} exists already: give the backup a new name.`);
  const embedded = !config.databaseUrl;
  const mediaOnDisk = !config.s3;
  if (!embedded && !mediaOnDisk)
    throw new BackupRefusedError(
      'The database is on PostgreSQL (DATABASE_URL) and no media are kept on this machine: there is nothing here ' +
        'to back up. Back up the database with pg_dump.',
    );
  const notes: string[] = [];
  if (!embedded)
    notes.push(
      'The database is on PostgreSQL (DATABASE_URL): it is not in this backup. Back it up with pg_dump, ' +
        'at the same time as this one.',
    );

  await mkdir(config.dataDir, { recursive: true });
  const staging = path.join(config.dataDir, `${SNAPSHOT_PREFIX}${randomBytes(8).toString('hex')}`);
  const partial = path.join(path.dirname(target), partialName(path.basename(target)));
  try {
    let snapshot: Snapshot | undefined;
    let fromServer = false;
    if (embedded && takeSnapshot) {
      snapshot = await takeSnapshot(staging);
      fromServer = true;
    } else if (embedded) {
      try {
        snapshot = await askServerForSnapshot(config.dataDir, staging);
        fromServer = true;
      } catch (error) {
        if (!(error instanceof NoServerError)) throw error;
        await mkdir(staging, { mode: 0o700 });
        snapshot = await snapshotHere(config.dataDir, staging);
      }
    } else {
      await mkdir(staging, { mode: 0o700 });
      await linkMedia(config.dataDir, path.join(staging, 'media'));
    }
    const contains: Manifest['contains'] = [];
    if (embedded) contains.push('db');
    if (mediaOnDisk) contains.push('media');
    const secret = path.join(config.dataDir, SECRET_FILE);
    const hasSecret = await exists(secret);
    if (hasSecret) contains.push(SECRET_FILE);
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      database: embedded ? 'embedded' : 'postgresql',
      migrations: snapshot?.migrations ?? null,
      contains,
    };

    // Level 1: the database's files are mostly empty pages and compress at once; media hardly compress at all.
    const gzip = createGzip({ level: zlib.Z_BEST_SPEED });
    const out = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    // A failure to write (a full disk) destroys the gzip stream too, and so fails the tar's next write.
    const written = pipeline(gzip, out);
    written.catch(() => undefined);
    const tar = new TarWriter(gzip);
    await tar.addBuffer(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    let count = 0;
    for (const folder of ['db', 'media'] as const) {
      if (!contains.includes(folder)) continue;
      for (const { relative, folder: isFolder } of await entriesUnder(path.join(staging, folder))) {
        const source = path.join(staging, folder, relative);
        const name = `${folder}/${relative.split(path.sep).join('/')}`;
        const stats = await lstat(source);
        if (isFolder) await tar.addFolder(name, stats.mtimeMs);
        else {
          await tar.addFile(name, source, stats.size, stats.mtimeMs);
          count++;
        }
      }
    }
    if (hasSecret) {
      const stats = await lstat(secret);
      await tar.addFile(SECRET_FILE, secret, stats.size, stats.mtimeMs);
    }
    // Last, `sha256sum -c` style: a restore checks every file against it before anything is replaced.
    const sums = [...tar.sums].map(([name, sum]) => `${sum}  ${name}\n`).join('');
    await tar.addBuffer(SUMS, Buffer.from(sums));
    await tar.end();
    await written;

    const handle = await open(partial, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const { size } = await lstat(partial);
    await rename(partial, target);
    await syncFolder(path.dirname(target));
    return { file: target, bytes: size, files: count, fromServer, pausedMs: snapshot?.pausedMs, manifest, notes };
  } finally {
    await rm(partial, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/** Makes a rename in `folder` durable. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
