import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
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
      const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `The data folder ${dataDir} is in use by another Innerwave process (pid ${owner}). ` +
            'Stop it first, or give this one its own DATA_DIR (or a DATABASE_URL).',
        );
      }
      // A stale lock from a process that died, or from an earlier process of this pid (above): take it over.
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dataDir}.`);
}
