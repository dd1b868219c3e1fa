import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type * as NodeFs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDirsOfFile } from '../test/temp-dirs';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock';

// A system without /proc (not Linux), for the tests that ask for one: the lock then knows its holder by pid alone.
const proc = vi.hoisted(() => ({ missing: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const readFileSync = ((file: Parameters<typeof fs.readFileSync>[0], ...rest: [never]) => {
    if (proc.missing && String(file).startsWith('/proc/'))
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${String(file)}'`), { code: 'ENOENT' });
    return fs.readFileSync(file, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

const linux = existsSync('/proc/self/stat');

const tempDir = tempDirsOfFile();
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  proc.missing = false;
  for (const child of children.splice(0)) child.kill();
});
/** A live process that is not this one and holds no lock. */
const bystander = () => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
};
/** A process that takes the lock, then works a while (what changes in /proc as it runs must not count), then waits. */
const lockInChild = (dir: string) => [
  '--import',
  'tsx',
  '-e',
  `import('${path.resolve(import.meta.dirname, 'data-dir-lock.ts')}').then(m => {
    m.acquireDataDirLock(${JSON.stringify(dir)});
    const until = Date.now() + 300;
    const kept = [];
    while (Date.now() < until) kept.push(new Array(1000).fill(kept.length));
    console.log('locked', kept.length);
    setInterval(() => {}, 1000);
  })`,
];

describe('data folder lock', () => {
  it('lets a second process fail fast with a clear message while the first holds it', () => {
    const dir = tempDir('lock');
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

  it.runIf(linux)('writes its pid and, on Linux, when its process started, the pid on the first line as before', () => {
    const lock = acquireDataDirLock(tempDir('lock'));
    expect(readFileSync(lock.file, 'utf8')).toMatch(new RegExp(`^${process.pid}\\nstart \\d+\\n$`));
    lock.release();
  });

  it('refuses a lock held by another live process, however long it has run', async () => {
    const dir = tempDir('lock');
    const holder = spawn(process.execPath, lockInChild(dir), { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(holder);
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    expect(() => acquireDataDirLock(dir)).toThrow(
      new DataDirLockedError(
        `The data folder ${dir} is in use by another Innerwave process (pid ${holder.pid}). ` +
          'Stop it first, or give this one its own DATA_DIR (or a DATABASE_URL).',
      ),
    );
  });

  it('refuses a lock of an earlier release, holding only the pid, while a process of that pid runs', () => {
    const dir = tempDir('lock');
    writeFileSync(path.join(dir, 'innerwave.lock'), `${bystander()}\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
  });

  it.runIf(linux)(
    'takes over a lock naming a live process that started at another time: its holder died and the pid was given again',
    () => {
      const dir = tempDir('lock');
      writeFileSync(path.join(dir, 'innerwave.lock'), `${bystander()}\nstart 1\n`);
      const lock = acquireDataDirLock(dir);
      expect(readFileSync(lock.file, 'utf8')).toMatch(new RegExp(`^${process.pid}\\n`));
      lock.release();
      expect(existsSync(lock.file)).toBe(false);
    },
  );

  it('without /proc knows the holder by its pid alone: a live one keeps the lock whatever start it names', () => {
    proc.missing = true;
    const dir = tempDir('lock');
    writeFileSync(path.join(dir, 'innerwave.lock'), `${bystander()}\nstart 1\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    rmSync(path.join(dir, 'innerwave.lock'));
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
  });

  it('is never seen half-written by a process starting beside it, which would take an empty lock for a stale one', async () => {
    const dir = tempDir('lock');
    const file = path.join(dir, 'innerwave.lock');
    // Another process reads the lock file as fast as it can while this one takes and gives it back.
    const reader = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); let found = 0, empty = 0; const until = Date.now() + 1500;
        while (Date.now() < until) { try { found++; if (fs.readFileSync(${JSON.stringify(file)}, 'utf8') === '') empty++; } catch { found--; } }
        console.log(JSON.stringify({ found, empty }));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(reader);
    let out = '';
    reader.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const done = new Promise((resolve) => reader.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const until = Date.now() + 1300;
    while (Date.now() < until) acquireDataDirLock(dir).release();
    await done;
    const { found, empty } = JSON.parse(out) as { found: number; empty: number };
    expect(found).toBeGreaterThan(100);
    expect(empty).toBe(0);
  });

  it('names a lock it cannot read, as a lock, not as a raw file system error', () => {
    const dir = tempDir('lock');
    mkdirSync(path.join(dir, 'innerwave.lock'));
    expect(() => acquireDataDirLock(dir)).toThrow(
      new DataDirLockedError(
        `The data folder's lock ${path.join(dir, 'innerwave.lock')} cannot be read (EISDIR). ` +
          'Make it a file this user can read, or remove it if no Innerwave process uses the folder.',
      ),
    );
  });

  it('refuses a second open of the folder in this process, which would open PGlite twice on it', () => {
    const dir = tempDir('lock');
    const first = acquireDataDirLock(dir);
    const written = readFileSync(first.file, 'utf8');
    expect(() => acquireDataDirLock(dir)).toThrow(
      new DataDirLockedError(
        `The data folder ${dir} is open in this process already: it cannot be opened a second time until the first is closed.`,
      ),
    );
    // The refusal leaves the first holder's lock in place: another process is still kept out.
    expect(readFileSync(first.file, 'utf8')).toBe(written);
    first.release();
    const again = acquireDataDirLock(dir);
    expect(existsSync(again.file)).toBe(true);
    again.release();
  });

  it.each([
    ['its pid only (an earlier release)', `${process.pid}\n`],
    ['its pid and an earlier start', `${process.pid}\nstart 1\n`],
  ])(
    'takes over a lock naming its own pid that it does not hold: an earlier process of that pid (a restarted container), %s',
    (_, text) => {
      const dir = tempDir('lock');
      writeFileSync(path.join(dir, 'innerwave.lock'), text);
      const lock = acquireDataDirLock(dir);
      expect(readFileSync(lock.file, 'utf8')).toMatch(new RegExp(`^${process.pid}\\n`));
      expect(() => acquireDataDirLock(dir)).toThrow('is open in this process already');
      lock.release();
      expect(existsSync(lock.file)).toBe(false);
    },
  );

  it('takes over a lock left by a process that died', () => {
    const dir = tempDir('lock');
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(path.join(dir, 'innerwave.lock'), dead.stdout);
    const lock = acquireDataDirLock(dir);
    expect(lock.file).toBe(path.join(dir, 'innerwave.lock'));
    lock.release();
  });
});
