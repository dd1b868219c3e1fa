import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config';
import { DataDirLockedError } from '../db/data-dir-lock';
import { formatBytes } from '@shared/bytes';
import { EXIT, type CliIo } from '../admin/cli-io';
import { BackupRefusedError, writeBackup } from './backup';
import { restoreBackup, RestoreRefusedError } from './restore';
import { listScheduledBackups, scheduleWords } from './schedule';

// `npm run backup -- <file>` and `npm run restore -- <file>`: commands of their own, not the admin CLI's, which
// opens the database before any command and so needs the server stopped; a backup must also work while it runs
// (docs/decisions/128-a-backup-of-the-embedded-database-and-the-media.md).

const USAGE = {
  backup: `Usage: npm run backup -- <file>
  Writes a backup of DATA_DIR to <file> (a .tar.gz): the embedded database, the media files on disk and the
  generated secret, whether the server runs or not. With DATABASE_URL the database is not in it: back it up with
  pg_dump.
       npm run backup -- --list
  Lists the backups the server took on its schedule (BACKUP_DIR), newest first.`,
  restore: `Usage: npm run restore -- <file>
  Puts a backup written by "npm run backup" in place of DATA_DIR's data, with the server stopped. What it
  replaces is moved aside into DATA_DIR/before-restore-<time>.`,
};

/** Runs `backup <file>` or `restore <file>` and answers its exit code; never throws. */
export async function runBackupCli(argv: string[], io: CliIo, env?: NodeJS.ProcessEnv): Promise<number> {
  const [command, file, ...extra] = argv;
  if (command !== 'backup' && command !== 'restore') {
    io.stderr.write(`${USAGE.backup}\n${USAGE.restore}\n`);
    return EXIT.usage;
  }
  if (file === '--help' || file === '-h') {
    io.stdout.write(`${USAGE[command]}\n`);
    return EXIT.ok;
  }
  if (command === 'backup' && file === '--list' && extra.length === 0) return listBackups(io, env);
  if (!file || extra.length > 0 || file.startsWith('-')) {
    io.stderr.write(`${USAGE[command]}\n`);
    return EXIT.usage;
  }
  try {
    const config = loadConfig(env);
    if (command === 'backup') {
      const started = performance.now();
      const report = await writeBackup(config, file);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      for (const note of report.notes) io.stdout.write(`${note}\n`);
      io.stdout.write(
        `Backup written to ${report.file}: ${formatBytes(report.bytes)}, ${report.files} files, in ${seconds} s` +
          `${report.manifest.database === 'embedded' ? (report.fromServer ? ` (taken by the running server, its database paused ${report.pausedMs} ms)` : ' (the server was stopped)') : ''}.\n`,
      );
    } else {
      const report = await restoreBackup(config, file);
      io.stdout.write(
        `Restored the backup of ${report.manifest.createdAt} into ${config.dataDir} (${report.manifest.contains.join(', ')}; ` +
          `${report.files} files).\nWhat it replaced is in ${report.aside}: remove it once the restored data looks right.\n` +
          (report.manifest.database === 'postgresql'
            ? 'The database is on PostgreSQL (DATABASE_URL): restore it with pg_restore from the dump of the same time.\n'
            : 'Start Innerwave with "npm start".\n'),
      );
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    if (
      error instanceof BackupRefusedError ||
      error instanceof RestoreRefusedError ||
      error instanceof DataDirLockedError
    ) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.refused;
    }
    io.stderr.write(`${command === 'backup' ? 'The backup' : 'The restore'} failed: ${(error as Error).message}\n`);
    return EXIT.unavailable;
  }
}

/** `backup --list`: the schedule's backups, newest first, and the schedule itself (decision 147). */
async function listBackups(io: CliIo, env: NodeJS.ProcessEnv | undefined): Promise<number> {
  try {
    const schedule = loadConfig(env).backupSchedule;
    if (!schedule) {
      io.stdout.write('No backups on a schedule: BACKUP_DIR is not set (docs/product/operations.md).\n');
      return EXIT.ok;
    }
    const backups = await listScheduledBackups(schedule.dir);
    io.stdout.write(
      `Backups in ${schedule.dir}, taken ${scheduleWords(schedule)} while the server runs, the newest ` +
        `${schedule.keep} kept: ${backups.length === 0 ? 'none yet.' : `${backups.length}, newest first:`}\n`,
    );
    for (const backup of backups)
      io.stdout.write(`  ${backup.takenAt.toISOString()}  ${formatBytes(backup.bytes).padStart(9)}  ${backup.name}\n`);
    return EXIT.ok;
  } catch (error) {
    io.stderr.write(`${error instanceof ConfigError ? '' : 'The list failed: '}${(error as Error).message}\n`);
    return error instanceof ConfigError ? EXIT.usage : EXIT.unavailable;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  process.exitCode = await runBackupCli(process.argv.slice(2), io);
}
