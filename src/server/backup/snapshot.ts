import { chmod, copyFile, cp, link, mkdir, readdir, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { mediaDir } from '../paths';

// A consistent copy of the data folder, taken by whoever holds the embedded database: the server's primary,
// asked over a socket in DATA_DIR, or the backup command itself when the server is stopped. Two processes must
// never open one PGlite folder (docs/decisions/007-postgresql-or-embedded-pglite-one-set-of-migrations.md), so
// while the server runs only it copies the database
// (docs/decisions/128-a-backup-of-the-embedded-database-and-the-media.md).

/** The migrations a database had applied: their number and the newest one's time (drizzle's `created_at`). */
export interface AppliedMigrations {
  count: number;
  latest: number | null;
}

/** A snapshot's migrations, and how long every query of the database waited for it. */
export interface Snapshot {
  migrations: AppliedMigrations;
  pausedMs: number;
}

/** Where a snapshot is staged, inside DATA_DIR (a hard link needs the same file system as the media). */
export const SNAPSHOT_PREFIX = '.backup-';
export const controlSocket = (dataDir: string) => path.join(dataDir, 'innerwave.sock');
/** PostgreSQL's marks of a running server: a copy must not carry them. */
const RUNTIME_FILES = new Set(['postmaster.pid', 'postmaster.opts']);
/** Media being uploaded: placed (or removed) by a transaction that the snapshot does not include. */
const INCOMING = '.incoming';

/**
 * Links every media file into `into` (a new folder). Files are content-addressed and placed by a rename, never
 * written in place (docs/decisions/008-media-files-on-disk-behind-signed-urls.md), so a link holds the bytes a
 * row named at this moment, whatever is removed or placed after.
 */
export async function linkMedia(dataDir: string, into: string): Promise<number> {
  const root = mediaDir(dataDir);
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let count = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const source = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, source);
    if (relative.split(path.sep)[0] === INCOMING) continue;
    const target = path.join(into, relative);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await link(source, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Removed since the listing: no committed row names it any more.
      if (code === 'ENOENT') continue;
      // Media on another file system than DATA_DIR.
      if (code === 'EXDEV' || code === 'EPERM') await copyFile(source, target);
      else throw error;
    }
    count++;
  }
  return count;
}

/**
 * Copies the embedded database and links the media into `into` (DATA_DIR/.backup-…): with PGlite's transaction lock
 * held, so no worker's transaction is open and none begins, after a checkpoint, so the copied files hold every
 * committed row without a WAL to replay. Everything waits for the database meanwhile (tens of milliseconds for a
 * small one: the copy is a local one).
 */
export async function snapshotEmbedded(client: PGlite, dataDir: string, into: string): Promise<Snapshot> {
  // Most dirty pages written first, while queries still run: the checkpoint under the lock then has little to do.
  await client.exec('CHECKPOINT');
  let started = 0;
  const migrations = await client.transaction(async (tx) => {
    started = performance.now();
    await tx.exec('CHECKPOINT');
    const { rows } = await tx.query<{ count: number; latest: string | null }>(
      `select count(*)::int as count, max(created_at)::text as latest from drizzle.__drizzle_migrations`,
    );
    await cp(path.join(dataDir, 'db'), path.join(into, 'db'), {
      recursive: true,
      filter: (source) => !RUNTIME_FILES.has(path.basename(source)),
    });
    await linkMedia(dataDir, path.join(into, 'media'));
    const [row] = rows;
    return { count: row?.count ?? 0, latest: row?.latest ? Number(row.latest) : null };
  });
  return { migrations, pausedMs: Math.round(performance.now() - started) };
}

/** Takes snapshots one at a time: whoever asks while one is taken is refused, not queued behind its pause and copy. */
export interface SnapshotTaker {
  /** Copies the database and links the media into `into`, a new folder it makes (and removes if it fails). */
  take(into: string): Promise<Snapshot>;
}

/**
 * The primary's snapshots of its embedded database, for `npm run backup` over the socket and for the scheduled
 * backups alike (docs/decisions/147-backups-on-a-schedule-kept-to-a-count.md): one at a time between them.
 */
export function snapshotTaker(dataDir: string, client: PGlite): SnapshotTaker {
  let taking = false;
  return {
    async take(into) {
      if (taking) throw new Error('A backup is being taken already: run this one once it has finished.');
      taking = true;
      let made = false;
      try {
        // Only a folder made here is removed on failure: a name taken already may be another backup's.
        await mkdir(into, { mode: 0o700 });
        made = true;
        return await snapshotEmbedded(client, dataDir, into);
      } catch (error) {
        if (made) await rm(into, { recursive: true, force: true }).catch(() => undefined);
        throw error;
      } finally {
        taking = false;
      }
    },
  };
}

/**
 * The primary's side: answers `{"snapshot": ".backup-…"}` with the migrations of a snapshot staged in that folder
 * of DATA_DIR. Only the data folder's owner can reach the socket (mode 600). What any process of that owner may send
 * is handled: one snapshot at a time (`snapshotTaker`), a connection idle for `idleMs` closed (half a request, an
 * answer never read), a snapshot whose asker has gone removed, and a folder the server did not make never removed
 * (docs/decisions/135-a-removed-image-a-paused-read-and-an-outsiders-pass.md).
 */
export async function serveSnapshots(
  dataDir: string,
  taker: SnapshotTaker,
  log: { warn(obj: object, msg: string): void },
  { idleMs = 10_000 }: { idleMs?: number } = {},
): Promise<Server> {
  const file = controlSocket(dataDir);
  // The data folder is locked by this process: a socket left here is a dead server's.
  await rm(file, { force: true });
  const server = createServer((socket) => {
    let request = '';
    let gone = false;
    socket.setEncoding('utf8');
    socket.setTimeout(idleMs, () => socket.destroy());
    socket.on('error', () => undefined);
    socket.on('close', () => (gone = true));
    socket.on('data', (chunk: string) => {
      request += chunk;
      if (!request.includes('\n')) {
        if (request.length > 1000) socket.destroy();
        return;
      }
      socket.removeAllListeners('data');
      void (async () => {
        try {
          const name = (JSON.parse(request) as { snapshot?: unknown }).snapshot;
          if (typeof name !== 'string' || !name.startsWith(SNAPSHOT_PREFIX) || name !== path.basename(name))
            throw new Error('A snapshot is made in a new .backup- folder of the data folder.');
          // The copy may take longer than a request may idle.
          socket.setTimeout(0);
          const into = path.join(dataDir, name);
          const snapshot = await taker.take(into);
          // Nobody will read it or remove it: a whole copy of the database left in DATA_DIR.
          if (gone) await rm(into, { recursive: true, force: true });
          else socket.end(`${JSON.stringify(snapshot)}\n`);
        } catch (error) {
          log.warn({ err: error }, 'backup: the snapshot failed');
          socket.end(`${JSON.stringify({ error: (error as Error).message })}\n`);
        } finally {
          // An answer never read, the connection never closed: it goes after the same wait.
          socket.setTimeout(idleMs, () => socket.destroy());
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket file is made by listen(), synchronously, with the process's umask: owner-only from its first
    // moment, not only once chmod has run (a group-writable umask let the group connect in between).
    const umask = process.umask(0o177);
    try {
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
  await chmod(file, 0o600);
  return server;
}

/** The server is not there to ask (no socket, or nobody listening on it). */
export class NoServerError extends Error {
  override name = 'NoServerError';
}

/** The backup's side: asks the running server for a snapshot into `into`, a new folder name in DATA_DIR. */
export function askServerForSnapshot(dataDir: string, into: string): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(controlSocket(dataDir));
    let answer = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ snapshot: path.basename(into) })}\n`);
    });
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && ['ENOENT', 'ECONNREFUSED'].includes(error.code ?? '')) reject(new NoServerError());
      else reject(error);
    });
    socket.on('end', () => {
      try {
        const parsed = JSON.parse(answer) as Partial<Snapshot> & { error?: string };
        if (parsed.migrations) resolve({ migrations: parsed.migrations, pausedMs: parsed.pausedMs ?? 0 });
        else reject(new Error(`The server could not take the snapshot: ${parsed.error ?? 'no answer'}`));
      } catch {
        reject(new Error('The server closed the connection before taking the snapshot.'));
      }
    });
  });
}

/** Whether an Innerwave server answers on this data folder's socket. */
export function serverAnswers(dataDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(controlSocket(dataDir));
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
