import { readFile } from 'node:fs/promises';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import type * as NodeFs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, inject, it, vi } from 'vitest';
import { formatBytes } from '@shared/bytes';
import { loadConfig, type BackupSchedule, type Config } from '../config';
import type { Database } from '../db/client';
import { createPglite } from '../db/pglite';
import { openPreparedDatabase } from '../db/prepare';
import { runBackupCli } from './cli';
import { restoreBackup } from './restore';
import { listScheduledBackups, scheduleBackups, scheduledBackupName, type BackupLog } from './schedule';
import { snapshotTaker, type SnapshotTaker } from './snapshot';
import { tempDirsOfFile } from '../test/temp-dirs';

// The primary's backups on a schedule (docs/decisions/147-backups-on-a-schedule-kept-to-a-count.md).

/** Writes of a backup's `.partial` file that fail with a full disk once this many bytes are written (-1: none). */
const disk = vi.hoisted(() => ({ failPartialAfterBytes: -1 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const createWriteStream = ((file: string, options?: object) => {
    const stream = fs.createWriteStream(file, options as never) as NodeFs.WriteStream;
    if (disk.failPartialAfterBytes < 0 || !String(file).endsWith('.partial')) return stream;
    const limit = disk.failPartialAfterBytes;
    let written = 0;
    const write = stream.write.bind(stream) as (chunk: Buffer, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: Buffer, ...rest: unknown[]) => {
      written += chunk.length;
      if (written <= limit) return write(chunk, ...rest);
      // After the bytes before it reached the file: a partial file is there when the disk fills.
      stream.once('drain', () => undefined);
      setImmediate(() =>
        stream.destroy(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })),
      );
      return false;
    }) as typeof stream.write;
    return stream;
  }) as typeof fs.createWriteStream;
  return { ...fs, default: { ...fs, createWriteStream }, createWriteStream };
});

const tempDir = tempDirsOfFile();
const HOUR_MS = 60 * 60_000;

/** A data folder as `npm start` leaves it, its database open as the primary holds it. */
async function dataFolder(): Promise<{ dataDir: string; database: Database; config: Config }> {
  const dataDir = tempDir('data');
  const template = new Blob([await readFile(inject('dbTemplate'))]);
  const database = await createPglite({ dataDir: path.join(dataDir, 'db'), loadDataDir: template });
  await database.pglite!.exec('create table backup_probe (n int primary key)');
  mkdirSync(path.join(dataDir, 'media', 'covers'), { recursive: true });
  writeFileSync(path.join(dataDir, 'media', 'covers', 'a.webp'), 'a cover');
  return { dataDir, database, config: loadConfig({ DATA_DIR: dataDir }) };
}

/** A log that keeps what was said, and says when `count` backups were written. */
function recordingLog() {
  const lines: Array<{ level: 'info' | 'error'; obj: Record<string, unknown>; msg: string }> = [];
  const waiters: Array<{ count: number; level: 'info' | 'error'; resolve: () => void }> = [];
  const written = () => lines.filter((line) => line.level === 'info' && line.obj.file).length;
  const failed = () => lines.filter((line) => line.level === 'error').length;
  const settle = () => {
    for (const waiter of [...waiters])
      if ((waiter.level === 'info' ? written() : failed()) >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  const log: BackupLog = {
    info: (obj, msg) => (lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }), settle()),
    error: (obj, msg) => (lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }), settle()),
  };
  const until = (count: number, level: 'info' | 'error' = 'info') =>
    new Promise<void>((resolve) => {
      waiters.push({ count, level, resolve });
      settle();
    });
  return { log, lines, until };
}

/**
 * A clock an hour on at each snapshot, so that backups taken a second apart have the names of backups taken hours
 * apart, and a taker that inserts a row before each snapshot: the restored backup shows which it holds.
 */
function hourlyClock(dataDir: string, database: Database) {
  let skewMs = 0;
  let rows = 0;
  const real = snapshotTaker(dataDir, database.pglite!);
  const taker: SnapshotTaker = {
    async take(into) {
      await database.pglite!.query('insert into backup_probe values ($1)', [++rows]);
      const snapshot = await real.take(into);
      skewMs += HOUR_MS;
      return snapshot;
    },
  };
  return { taker, now: () => new Date(Date.now() + skewMs), rows: () => rows };
}

async function probeRows(dataDir: string): Promise<number[]> {
  const prepared = await openPreparedDatabase({ dataDir });
  try {
    const { rows } = await prepared.database.pglite!.query<{ n: number }>('select n from backup_probe order by n');
    return rows.map((row) => row.n);
  } finally {
    await prepared.close();
  }
}

describe.skipIf(inject('dbKind') !== 'pglite')('backups on a schedule', { timeout: 120_000 }, () => {
  it('takes restorable backups at each time, keeps exactly BACKUP_KEEP of them, and touches nothing else in the folder', async () => {
    const { dataDir, database, config } = await dataFolder();
    const dir = tempDir('backups');
    // What else lives in the folder: files, a folder and a link named almost as the schedule's, a time that is
    // none, another tool's partial file, and the schedule's own partial left by a process that died an hour ago.
    const foreign: Record<string, string> = {
      'notes.txt': 'the operator’s notes',
      'innerwave-backup-latest.tar.gz': 'a copy made by hand',
      'innerwave-backup-2020-13-01T00-00-00Z.tar.gz': 'not a time',
      'innerwave-backup-2020-01-01T00-00-00Z.tar.gz.bak': 'a suffix',
      'my-innerwave-backup-2020-01-01T00-00-00Z.tar.gz': 'a prefix',
      '.other.tar.gz.0123456789ab.partial': 'another tool’s',
      '.innerwave-backup-2020-01-01T00-00-00Z.tar.gz.0123456789ab.partial': 'being written right now',
    };
    for (const [name, content] of Object.entries(foreign)) writeFileSync(path.join(dir, name), content);
    mkdirSync(path.join(dir, 'innerwave-backup-2020-01-02T00-00-00Z.tar.gz'));
    writeFileSync(path.join(dataDir, 'outside.tar.gz'), 'outside');
    symlinkSync(path.join(dataDir, 'outside.tar.gz'), path.join(dir, 'innerwave-backup-2020-01-03T00-00-00Z.tar.gz'));
    const died = path.join(dir, '.innerwave-backup-2020-01-04T00-00-00Z.tar.gz.ba5eba11c0de.partial');
    writeFileSync(died, 'half a backup');
    utimesSync(died, new Date(Date.now() - 2 * HOUR_MS), new Date(Date.now() - 2 * HOUR_MS));

    const clock = hourlyClock(dataDir, database);
    const { log, lines, until } = recordingLog();
    const schedule: BackupSchedule = { dir, everySeconds: 0.2, keep: 2 };
    const scheduler = scheduleBackups({ config, schedule, taker: clock.taker, log, now: clock.now, missedDelayMs: 0 });
    await until(4);
    await scheduler.stop();
    await database.close();

    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    const kept = await listScheduledBackups(dir);
    expect(kept.map((backup) => backup.name)).toEqual(
      lines
        .filter((line) => line.obj.file)
        .map((line) => path.basename(line.obj.file as string))
        .reverse()
        .slice(0, 2),
    );
    expect(readdirSync(dir).sort()).toEqual(
      [
        ...kept.map((backup) => backup.name),
        ...Object.keys(foreign),
        'innerwave-backup-2020-01-02T00-00-00Z.tar.gz',
        'innerwave-backup-2020-01-03T00-00-00Z.tar.gz',
      ].sort(),
    );
    for (const [name, content] of Object.entries(foreign))
      expect(readFileSync(path.join(dir, name), 'utf8')).toBe(content);
    expect(readFileSync(path.join(dataDir, 'outside.tar.gz'), 'utf8')).toBe('outside');
    expect(readdirSync(dataDir).filter((name) => name.startsWith('.backup-'))).toEqual([]);

    // The newest holds every row written before its snapshot, and opens as `npm start` opens it.
    const restored = tempDir('restored');
    await restoreBackup(loadConfig({ DATA_DIR: restored }), kept[0]!.file);
    expect(await probeRows(restored)).toEqual(Array.from({ length: clock.rows() }, (_, index) => index + 1));
    expect(readFileSync(path.join(restored, 'media', 'covers', 'a.webp'), 'utf8')).toBe('a cover');
  });

  it('takes a backup missed while the server was down soon after the start, once, and none sooner than due', async () => {
    const { dataDir, database, config } = await dataFolder();
    const dir = tempDir('backups');
    const old = path.join(dir, scheduledBackupName(new Date(Date.now() - 2 * 24 * HOUR_MS)));
    writeFileSync(old, 'taken two days ago');
    const taker = snapshotTaker(dataDir, database.pglite!);
    const schedule: BackupSchedule = { dir, everySeconds: 24 * 60 * 60, keep: 7 };

    const first = recordingLog();
    const missed = scheduleBackups({ config, schedule, taker, log: first.log, missedDelayMs: 200 });
    await first.until(1);
    // Long enough for a second backup, were one taken.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await missed.stop();
    const backups = await listScheduledBackups(dir);
    expect(backups).toHaveLength(2);
    expect(backups[1]!.file).toBe(old);
    const next = new Date(backups[0]!.takenAt.getTime() + 24 * HOUR_MS).toISOString();
    expect(first.lines.at(-1)!.msg).toMatch(new RegExp(`^backup: .* written \\(.*\\); the next at ${next}$`));

    // The next start, the newest backup a moment old: none until a day after it.
    const second = recordingLog();
    const later = scheduleBackups({ config, schedule, taker, log: second.log, missedDelayMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await later.stop();
    await database.close();
    expect(second.lines.map((line) => line.msg)).toEqual([
      `backup: every 86400 s into ${dir}, keeping 7; the last at ${backups[0]!.takenAt.toISOString()}, the next at ${next}`,
    ]);
    expect((await listScheduledBackups(dir)).length).toBe(2);
  });

  it('BACKUP_AT: takes one missed soon after the start, then the next at the time of day (UTC), not a day after the late one', async () => {
    const { dataDir, database, config } = await dataFolder();
    const dir = tempDir('backups');
    writeFileSync(path.join(dir, 'innerwave-backup-2026-12-06T03-00-00Z.tar.gz'), 'taken two days before');
    const taker = snapshotTaker(dataDir, database.pglite!);
    const schedule: BackupSchedule = { dir, everySeconds: 24 * 60 * 60, at: '03:00', keep: 7 };
    /** A clock that reads `iso` now and goes on as the real one does. */
    const clockAt = (iso: string) => {
      const offset = Date.parse(iso) - Date.now();
      return () => new Date(Date.now() + offset);
    };
    const startedAt = async (iso: string, { missedDelayMs = 0, backups = 1 } = {}) => {
      const { log, lines, until } = recordingLog();
      const scheduler = scheduleBackups({ config, schedule, taker, log, now: clockAt(iso), missedDelayMs });
      if (backups) await until(backups);
      // Long enough for another backup, were one taken.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await scheduler.stop();
      expect(lines.filter((line) => line.level === 'error')).toEqual([]);
      return lines.map((line) => line.msg);
    };
    const written = (name: RegExp, next: string) =>
      expect.stringMatching(new RegExp(`^backup: ${dir}/${name.source} written \\(.*\\); the next at ${next}$`));

    try {
      // Down over the last 03:00: taken once soon after the start, at 14:00, and the next is at 03:00, not 14:00.
      expect(await startedAt('2026-12-08T14:00:00.000Z', { missedDelayMs: 200 })).toEqual([
        expect.stringMatching(
          new RegExp(
            `^backup: daily at 03:00 UTC into ${dir}, keeping 7; the last at 2026-12-06T03:00:00.000Z, ` +
              'the next at 2026-12-08T14:00:00.2\\d\\dZ$',
          ),
        ),
        written(/innerwave-backup-2026-12-08T14-00-0\dZ\.tar\.gz/, '2026-12-09T03:00:00.000Z'),
      ]);
      // Started again just before it: that 03:00's is taken at 03:00, and the next is the day after's.
      const lastAt = (await listScheduledBackups(dir))[0]!.takenAt.toISOString();
      expect(await startedAt('2026-12-09T02:59:59.400Z')).toEqual([
        `backup: daily at 03:00 UTC into ${dir}, keeping 7; the last at ${lastAt}, the next at 2026-12-09T03:00:00.000Z`,
        written(/innerwave-backup-2026-12-09T03-00-0\dZ\.tar\.gz/, '2026-12-10T03:00:00.000Z'),
      ]);
      // Started later that day: nothing missed, nothing until the next 03:00.
      const newest = (await listScheduledBackups(dir))[0]!.takenAt.toISOString();
      expect(await startedAt('2026-12-09T14:00:00.000Z', { backups: 0 })).toEqual([
        `backup: daily at 03:00 UTC into ${dir}, keeping 7; the last at ${newest}, the next at 2026-12-10T03:00:00.000Z`,
      ]);
      expect((await listScheduledBackups(dir)).length).toBe(3);
    } finally {
      await database.close();
    }
  });

  it('leaves no partial file when the disk fails while it writes, says why at error, and tries again at the next time', async () => {
    const { dataDir, database, config } = await dataFolder();
    const dir = tempDir('backups');
    const { log, lines, until } = recordingLog();
    disk.failPartialAfterBytes = 64 * 1024;
    // Two seconds: time to look at the folder between the failure and the next try.
    const scheduler = scheduleBackups({
      config,
      schedule: { dir, everySeconds: 2, keep: 3 },
      taker: snapshotTaker(dataDir, database.pglite!),
      log,
      missedDelayMs: 0,
    });
    try {
      await until(1, 'error');
      // Nothing under a backup's name, no partial file, no staged copy of the database.
      expect(readdirSync(dir)).toEqual([]);
      expect(readdirSync(dataDir).filter((name) => name.startsWith('.backup-'))).toEqual([]);
      // What staff read (status.ts): the failure, why, and the next try, two seconds on.
      const { lastFailure, next } = scheduler.state();
      expect(lastFailure?.reason).toBe('ENOSPC: no space left on device, write');
      expect(next!.getTime() - lastFailure!.at.getTime()).toBe(2000);
      disk.failPartialAfterBytes = -1;
      await until(1);
      // A backup since does not hide it: its time says it came before.
      expect(scheduler.state().lastFailure).toEqual(lastFailure);
    } finally {
      disk.failPartialAfterBytes = -1;
      await scheduler.stop();
      await database.close();
    }
    const failure = lines.find((line) => line.level === 'error')!;
    expect(failure.msg).toMatch(
      /^backup: the scheduled backup failed \(ENOSPC: no space left on device, write\); the next try at /,
    );
    expect(readdirSync(dir)).toEqual((await listScheduledBackups(dir)).map((backup) => backup.name));
    expect(readdirSync(dir)).toHaveLength(1);
  });
});

describe('npm run backup -- --list', () => {
  const list = async (env: NodeJS.ProcessEnv) => {
    let out = '';
    let err = '';
    const stdout = new PassThrough().on('data', (chunk: Buffer) => (out += chunk.toString()));
    const stderr = new PassThrough().on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await runBackupCli(['backup', '--list'], { stdin: new PassThrough(), stdout, stderr }, env);
    return { code, out, err };
  };

  it('shows the schedule and its backups, newest first, and nothing else of the folder', async () => {
    const dataDir = tempDir('data');
    const dir = tempDir('backups');
    writeFileSync(path.join(dir, 'innerwave-backup-2026-12-06T03-00-00Z.tar.gz'), Buffer.alloc(2048));
    writeFileSync(path.join(dir, 'innerwave-backup-2026-12-07T03-00-00Z.tar.gz'), Buffer.alloc(3 * 1024 * 1024));
    writeFileSync(path.join(dir, 'notes.txt'), 'the operator’s notes');
    expect(await list({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_EVERY_SECONDS: '3600', BACKUP_KEEP: '24' })).toEqual(
      {
        code: 0,
        out:
          `Backups in ${dir}, taken every 3600 s while the server runs, the newest 24 kept: 2, newest first:\n` +
          `  2026-12-07T03:00:00.000Z  ${formatBytes(3 * 1024 * 1024).padStart(9)}  innerwave-backup-2026-12-07T03-00-00Z.tar.gz\n` +
          `  2026-12-06T03:00:00.000Z  ${formatBytes(2048).padStart(9)}  innerwave-backup-2026-12-06T03-00-00Z.tar.gz\n`,
        err: '',
      },
    );
    expect((await list({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_AT: '03:00' })).out).toMatch(
      new RegExp(
        `^Backups in ${dir}, taken daily at 03:00 UTC while the server runs, the newest 7 kept: 2, newest first:\n`,
      ),
    );
    expect(await list({ DATA_DIR: dataDir })).toEqual({
      code: 0,
      out: 'No backups on a schedule: BACKUP_DIR is not set (docs/product/operations.md).\n',
      err: '',
    });
    expect(await list({ DATA_DIR: dataDir, BACKUP_KEEP: '3' })).toEqual({
      code: 2,
      out: '',
      err: 'Invalid configuration:\n  BACKUP_KEEP: set only with BACKUP_DIR\n',
    });
  });
});
