import type { AdminBackupStatus } from '@shared/contract';
import type { Config } from '../config';
import { listScheduledBackups, type BackupScheduleState } from './schedule';

// What staff read of the backups (docs/decisions/154-backups-at-a-time-of-day-and-their-state-for-staff.md): the
// configuration, the folder (the schedule's record, 147) and what the primary's schedule knows of its next time and
// its last failure.

/** The backups' state; `state` is the running schedule's (the primary's), undefined where none runs in this process. */
export async function backupStatus(
  config: Config,
  databaseKind: 'pglite' | 'postgres',
  state: BackupScheduleState | undefined,
): Promise<AdminBackupStatus> {
  const schedule = databaseKind === 'pglite' ? config.backupSchedule : undefined;
  const status: AdminBackupStatus = {
    database: databaseKind === 'pglite' ? 'embedded' : 'postgresql',
    scheduled: !!schedule,
    dir: schedule?.dir ?? null,
    at: schedule?.at ?? null,
    every_seconds: schedule && !schedule.at ? schedule.everySeconds : null,
    keep: schedule?.keep ?? null,
    count: 0,
    last: null,
    last_failure: state?.lastFailure
      ? { at: state.lastFailure.at.toISOString(), reason: state.lastFailure.reason }
      : null,
    next_at: schedule ? (state?.next?.toISOString() ?? null) : null,
    dir_error: null,
  };
  if (!schedule) return status;
  try {
    const backups = await listScheduledBackups(schedule.dir);
    status.count = backups.length;
    const [newest] = backups;
    if (newest) status.last = { name: newest.name, taken_at: newest.takenAt.toISOString(), bytes: newest.bytes };
  } catch (error) {
    // A folder the server cannot read is the news here, not a failed request.
    status.dir_error = (error as Error).message;
  }
  return status;
}
