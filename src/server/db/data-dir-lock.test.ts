import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-lock-'));
  dirs.push(dir);
  return dir;
};

describe('data folder lock', () => {
  it('lets a second process fail fast with a clear message while the first holds it', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    try {
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import('${path.resolve(import.meta.dirname, 'data-dir-lock.ts')}').then(m => m.acquireDataDirLock(${JSON.stringify(dir)}))`,
        ],
        { encoding: 'utf8' },
      );
      expect(child.status).not.toBe(0);
      expect(child.stderr).toContain(`in use by another Innerwave process (pid ${process.pid})`);
    } finally {
      lock.release();
    }
    expect(existsSync(lock.file)).toBe(false);
  });

  it('refuses a lock held by another live process in this one too', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'innerwave.lock'), `${process.ppid}\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
  });

  it('refuses a second open of the folder in this process, which would open PGlite twice on it', () => {
    const dir = tempDir();
    const first = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(
      new DataDirLockedError(
        `The data folder ${dir} is open in this process already: it cannot be opened a second time until the first is closed.`,
      ),
    );
    // The refusal leaves the first holder's lock in place: another process is still kept out.
    expect(readFileSync(first.file, 'utf8')).toBe(`${process.pid}\n`);
    first.release();
    const again = acquireDataDirLock(dir);
    expect(existsSync(again.file)).toBe(true);
    again.release();
  });

  it('takes over a lock naming its own pid that it does not hold: an earlier process of that pid (a restarted container)', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'innerwave.lock'), `${process.pid}\n`);
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('takes over a lock left by a process that died', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(path.join(dir, 'innerwave.lock'), dead.stdout);
    const lock = acquireDataDirLock(dir);
    expect(lock.file).toBe(path.join(dir, 'innerwave.lock'));
    lock.release();
  });
});
