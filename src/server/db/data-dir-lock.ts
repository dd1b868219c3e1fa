import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// PGlite lets two processes open one directory and then loses rows silently, so the process that
// opens the embedded database holds this lock for as long as it runs (docs/decisions/007-postgresql-or-embedded-pglite-one-set-of-migrations.md).

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DataDirLock {
  file: string;
  release(): void;
}

/**
 * The lock files this process holds now. A lock naming this process's pid is either one of these (a second open in
 * this process: refused, as two PGlites on one folder lose rows just as two processes do) or one left by an earlier
 * process that had the same pid: a container restarted keeps DATA_DIR and starts its server under the same pid (1,
 * or whatever its start gives it each time), and that lock is stale. Kept on globalThis, so that two copies of this
 * module in one process (a bundle and tsx) still see each other's.
 */
const held: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[
  Symbol.for('innerwave.dataDirLocks')
] ??= new Set());

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When process `pid` started, in clock ticks after boot (field 22 of `/proc/<pid>/stat`): a later process given the
 * same pid has another. Undefined without `/proc` (not Linux), or when the process is gone or hidden from us.
 */
function startTimeOf(pid: number): string | undefined {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2, the name, is in parentheses and may hold spaces and parentheses itself: count from its last ')'.
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/**
 * Whether the process that wrote a lock still runs: its pid is alive and, when the lock says when it started (a lock
 * of an earlier release holds the pid only), it started then and is not a later process that was given the pid.
 */
function holderRuns(pid: number, startedAt: string | undefined): boolean {
  if (!isRunning(pid)) return false;
  const now = startedAt === undefined ? undefined : startTimeOf(pid);
  return now === undefined || now === startedAt;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'innerwave.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    if (held.has(file))
      throw new DataDirLockedError(
        `The data folder ${dataDir} is open in this process already: it cannot be opened a second time ` +
          'until the first is closed.',
      );
    try {
      // Written whole under a name of its own, then linked into place (which fails if a lock is there): a process
      // starting beside this one never reads a lock file still empty, which it would take for a stale one.
      const start = startTimeOf(process.pid);
      const written = `${file}.${process.pid}.tmp`;
      writeFileSync(written, `${process.pid}\n${start === undefined ? '' : `start ${start}\n`}`);
      try {
        linkSync(written, file);
      } finally {
        rmSync(written, { force: true });
      }
      held.add(file);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          held.delete(file);
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let text;
      try {
        text = readFileSync(file, 'utf8');
      } catch (unread) {
        // Given back meanwhile: try again.
        if ((unread as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw new DataDirLockedError(
          `The data folder's lock ${file} cannot be read (${(unread as NodeJS.ErrnoException).code ?? String(unread)}). ` +
            'Make it a file this user can read, or remove it if no Innerwave process uses the folder.',
        );
      }
      const [pidLine = '', startLine = ''] = text.split('\n');
      const owner = Number.parseInt(pidLine, 10);
      const ownerStart = /^start (\d+)$/.exec(startLine)?.[1];
      if (Number.isInteger(owner) && owner !== process.pid && holderRuns(owner, ownerStart)) {
        throw new DataDirLockedError(
          `The data folder ${dataDir} is in use by another Innerwave process (pid ${owner}). ` +
            'Stop it first, or give this one its own DATA_DIR (or a DATABASE_URL).',
        );
      }
      // A stale lock from a process that died, from one whose pid a later process was given, or from an earlier
      // process of this pid (above): take it over.
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dataDir}.`);
}
