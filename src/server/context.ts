import type { Config } from './config';
import type { Database } from './db/client';
import type { TokenService } from './auth/tokens';
import { createTokenService } from './auth/tokens';
import { createAuthenticate, type Authenticate } from './auth/authenticate';
import { createSessionLookup, type SessionLookup } from './auth/sessions';
import { createMailer, type Mailer } from './mail/mailer';
import type { MediaUrls } from './media/urls';
import type { MediaStore } from './media/store';
import { createMediaStorage } from './media/storage';
import { localNotices, type Notices } from './cluster/notices';
import { localRateLimits, type RateLimitCounters } from './cluster/rate-limit-store';
import { processLogger } from './http/logger';
import { createJobRunner, localJobQueue, type JobLog, type JobQueue } from './jobs/runner';
import { mailJobHandlers } from './jobs/mail-jobs';
import { billingJobHandlers } from './billing/customer-email';
import { backupStatus } from './backup/status';
import type { AdminBackupStatus } from '@shared/contract';

/** What every module is given: configuration, the database and the shared services. */
export interface AppContext {
  config: Config;
  database: Database;
  tokens: TokenService;
  /** The live session behind a token (kept in memory, cleared by notices). */
  sessions: SessionLookup;
  /** Pre-handlers for routes that need a signed-in user, or a staff user. */
  authenticate: Authenticate;
  authenticateStaff: Authenticate;
  /** Account e-mail: SMTP when configured, else the outbox folder. */
  mailer: Mailer;
  /** Signed URLs of media files (the app's, or the storage's own), and their check. */
  media: MediaUrls;
  /** The media files: DATA_DIR/media, or S3-compatible storage. */
  mediaFiles: MediaStore;
  /** Changes every worker must hear of before the next request (sessions ended, content edited). */
  notices: Notices;
  /** Where the rate limits keep their counters: Redis, or the primary's in a cluster; else this process's. */
  rateLimits: RateLimitCounters;
  /** Background work that must not be lost (account e-mails): the job table, run by the primary in a cluster. */
  jobs: JobQueue;
  /** The backups' state for staff: the primary's schedule in a cluster (docs/decisions/154-backups-at-a-time-of-day-and-their-state-for-staff.md). */
  backups: BackupStatusSource;
}

export interface BackupStatusSource {
  status(): Promise<AdminBackupStatus>;
}

export interface ContextOptions {
  notices?: Notices;
  rateLimits?: RateLimitCounters;
  /** A cluster worker's: its jobs run in the primary. Unset: this process runs them (tests, a single process). */
  jobs?: JobQueue;
  /** A cluster worker's: asks the primary, which runs the schedule. Unset: this process's configuration and folder. */
  backups?: BackupStatusSource;
}

export function createContext(config: Config, database: Database, options: ContextOptions = {}): AppContext {
  const tokens = createTokenService(config.secretKey, {
    access: config.tokens.accessTtlSeconds,
    refresh: config.tokens.refreshTtlSeconds,
  });
  const notices = options.notices ?? localNotices();
  const sessions = createSessionLookup(database.db, notices);
  const storage = createMediaStorage(config);
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logLinks: config.env !== 'production',
  });
  return {
    config,
    database,
    tokens,
    sessions,
    authenticate: createAuthenticate(sessions, tokens),
    authenticateStaff: createAuthenticate(sessions, tokens, { staffOnly: true }),
    media: storage.urls,
    mediaFiles: storage.files,
    notices,
    rateLimits: options.rateLimits ?? localRateLimits(),
    mailer,
    jobs: options.jobs ?? localJobs(config, database, mailer),
    backups: options.backups ?? { status: () => backupStatus(config, database.kind, undefined) },
  };
}

/**
 * This process runs its own jobs, polling and woken by its own enqueues (started at once). It logs
 * through the app's logger once the app exists (`JobQueue.useLog`), like the requests that cause them.
 */
function localJobs(config: Config, database: Database, mailer: Mailer): JobQueue {
  let current: JobLog = processLogger(config.logLevel);
  const forward =
    (level: 'info' | 'error') =>
    (...args: unknown[]) =>
      (current[level] as (...values: unknown[]) => void)(...args);
  const log = { info: forward('info'), error: forward('error') } as JobLog;
  const runner = createJobRunner({
    db: database.db,
    handlers: {
      ...mailJobHandlers({ config, db: database.db, mailer, log }),
      ...billingJobHandlers({ config, db: database.db, log }),
    },
    log,
  });
  runner.start();
  return { ...localJobQueue(runner), useLog: (appLog) => void (current = appLog) };
}
