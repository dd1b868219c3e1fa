import { lstat, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '@shared/bytes';
import type { BackupSchedule, Config } from '../config';
import { writeBackup } from './backup';
import type { SnapshotTaker } from './snapshot';

// Backups of the embedded database taken by the primary every BACKUP_EVERY_SECONDS (or daily at BACKUP_AT, UTC:
// docs/decisions/154-backups-at-a-time-of-day-and-their-state-for-staff.md) into BACKUP_DIR, the oldest
// beyond BACKUP_KEEP removed (docs/decisions/147-backups-on-a-schedule-kept-to-a-count.md). The folder is the
// schedule's record: its newest backup says when the last one was taken, whatever the database or a restore says.

/** A scheduled backup's name: its time, UTC, to the second. Nothing of any other name is ever removed. */
const BACKUP_NAME = /^innerwave-backup-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.tar\.gz$/;
/** One being written (`partialName` of a backup's name): left by a process that died while writing it. */
const PARTIAL_NAME = /^\.innerwave-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.gz\.[0-9a-f]{12}\.partial$/;
/** A partial file untouched this long is no backup's being written (each writes it as it goes). */
const STALE_PARTIAL_MS = 60 * 60_000;
/** The time from a start to the backup it missed: the server's own start settles first. */
export const MISSED_BACKUP_DELAY_MS = 60_000;
/** setTimeout's longest wait; a longer one would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

const DAY_MS = 24 * 60 * 60_000;

/** How the schedule says when it takes its backups: `every 86400 s` or `daily at 03:00 UTC`. */
export function scheduleWords(schedule: BackupSchedule): string {
  return schedule.at ? `daily at ${schedule.at} UTC` : `every ${schedule.everySeconds} s`;
}

/** The first time after `after` (not at it) that is `at` (`HH:MM`, UTC) on the clock. */
export function nextTimeOfDay(at: string, after: Date): Date {
  const [hours, minutes] = at.split(':').map(Number) as [number, number];
  const sameDay = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), hours, minutes);
  return new Date(sameDay > after.getTime() ? sameDay : sameDay + DAY_MS);
}

export function scheduledBackupName(at: Date): string {
  return `innerwave-backup-${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z.tar.gz`;
}

export interface ScheduledBackup {
  name: string;
  file: string;
  takenAt: Date;
  bytes: number;
}

/** The schedule's backups in `dir`, newest first: regular files of its name only. A folder not made yet holds none. */
export async function listScheduledBackups(dir: string): Promise<ScheduledBackup[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const backups: ScheduledBackup[] = [];
  for (const name of names) {
    const parts = BACKUP_NAME.exec(name)?.slice(1).map(Number);
    if (!parts) continue;
    const [year, month, day, hours, minutes, seconds] = parts as [number, number, number, number, number, number];
    const takenAt = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
    // A time that is not one (month 13) is not a name the schedule wrote.
    if (scheduledBackupName(takenAt) !== name) continue;
    const file = path.join(dir, name);
    const stats = await lstat(file).catch(() => undefined);
    if (stats?.isFile()) backups.push({ name, file, takenAt, bytes: stats.size });
  }
  return backups.sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

/**
 * Removes what a backup that died while being written left in `dir` (its `.partial` file), once clearly stale: by
 * the file system's clock, which gave its time.
 */
async function removeStalePartials(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!PARTIAL_NAME.test(name)) continue;
    const stats = await lstat(path.join(dir, name)).catch(() => undefined);
    if (stats?.isFile() && Date.now() - stats.mtimeMs > STALE_PARTIAL_MS)
      await rm(path.join(dir, name), { force: true });
  }
}

export interface BackupLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What the schedule knows beside its folder: what staff read (status.ts). */
export interface BackupScheduleState {
  /** When the next is due; undefined until the start has read the folder, and once stopped. */
  next: Date | undefined;
  /** The last failure since this start; a later backup does not clear it. */
  lastFailure: { at: Date; reason: string } | undefined;
}

export interface BackupScheduler {
  /** No further backup; waits for one being written (the database closes after it). */
  stop(): Promise<void>;
  state(): BackupScheduleState;
}

/**
 * Takes a backup every `schedule.everySeconds` after the newest in `schedule.dir`, or daily at `schedule.at` (UTC),
 * one missed while the server was down `missedDelayMs` after this start (once), and keeps the newest `schedule.keep`.
 * A failed one is logged at error with its reason and tried again at the next time; nothing of it stops the server.
 */
export function scheduleBackups({
  config,
  schedule,
  taker,
  log,
  now = () => new Date(),
  missedDelayMs = MISSED_BACKUP_DELAY_MS,
}: {
  config: Config;
  schedule: BackupSchedule;
  taker: SnapshotTaker;
  log: BackupLog;
  now?: () => Date;
  missedDelayMs?: number;
}): BackupScheduler {
  const everyMs = schedule.everySeconds * 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let nextDue: Date | undefined;
  let lastFailure: BackupScheduleState['lastFailure'];

  const at = (due: Date) => {
    if (stopped) return;
    nextDue = due;
    const wait = Math.max(0, due.getTime() - now().getTime());
    timer = setTimeout(
      () => {
        // A wait longer than a timer's is taken in parts.
        if (now().getTime() < due.getTime()) return at(due);
        running = run().finally(() => (running = undefined));
      },
      Math.min(wait, LONGEST_TIMER_MS),
    );
    timer.unref();
  };

  /** The time after a backup taken at `taken`: the time of day's next, not a day after a late one (a missed one). */
  const nextAfter = (taken: Date) =>
    schedule.at ? nextTimeOfDay(schedule.at, taken) : new Date(taken.getTime() + everyMs);

  async function run(): Promise<void> {
    // To the second, as its name says it: the next start counts from the name.
    const started = new Date(Math.floor(now().getTime() / 1000) * 1000);
    const next = nextAfter(started);
    const file = path.join(schedule.dir, scheduledBackupName(started));
    const clock = performance.now();
    try {
      await mkdir(schedule.dir, { recursive: true, mode: 0o700 });
      await removeStalePartials(schedule.dir);
      const report = await writeBackup(config, file, { takeSnapshot: (into) => taker.take(into) });
      const removed = await removeBeyondKeep();
      log.info(
        {
          file: report.file,
          bytes: report.bytes,
          files: report.files,
          pausedMs: report.pausedMs,
          ms: Math.round(performance.now() - clock),
          removed,
          next: next.toISOString(),
        },
        `backup: ${report.file} written (${formatBytes(report.bytes)}, its database paused ${report.pausedMs ?? 0} ms)` +
          `${removed.length ? `; removed ${removed.length} older` : ''}; the next at ${next.toISOString()}`,
      );
    } catch (error) {
      lastFailure = { at: started, reason: (error as Error).message };
      log.error(
        { err: error, file, next: next.toISOString() },
        `backup: the scheduled backup failed (${(error as Error).message}); the next try at ${next.toISOString()}`,
      );
    }
    at(next);
  }

  /** The schedule's backups beyond the newest `keep`: only after a new one is written, never below `keep`. */
  async function removeBeyondKeep(): Promise<string[]> {
    const removed: string[] = [];
    for (const backup of (await listScheduledBackups(schedule.dir)).slice(schedule.keep)) {
      try {
        await rm(backup.file);
        removed.push(backup.name);
      } catch (error) {
        log.error({ err: error, file: backup.file }, `backup: an old backup could not be removed (${backup.file})`);
      }
    }
    return removed;
  }

  void (async () => {
    let newest: ScheduledBackup | undefined;
    try {
      [newest] = await listScheduledBackups(schedule.dir);
    } catch (error) {
      log.error({ err: error, dir: schedule.dir }, `backup: ${schedule.dir} cannot be read`);
    }
    const started = now();
    // One due before this start (or none taken yet) was missed: a minute after the start.
    const due = newest ? nextAfter(newest.takenAt) : started;
    const first = new Date(Math.max(due.getTime(), started.getTime() + missedDelayMs));
    log.info(
      {
        dir: schedule.dir,
        everySeconds: schedule.everySeconds,
        at: schedule.at,
        keep: schedule.keep,
        next: first.toISOString(),
      },
      `backup: ${scheduleWords(schedule)} into ${schedule.dir}, keeping ${schedule.keep}; ` +
        `${newest ? `the last at ${newest.takenAt.toISOString()}` : 'none yet'}, the next at ${first.toISOString()}`,
    );
    at(first);
  })();

  return {
    async stop() {
      stopped = true;
      nextDue = undefined;
      clearTimeout(timer);
      await running;
    },
    state: () => ({ next: nextDue, lastFailure }),
  };
}
