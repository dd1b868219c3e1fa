import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Notices } from '../cluster/notices';
import type { MediaStore } from '../media/store';
import { createMailer } from '../mail/mailer';
import { seedAudioComplete, seedAudioItems } from '../seed/service';
import { buildTrackFilesInChildProcess } from '../seed/track-builder';
import { withTrackCache } from '../seed/track-cache';
import { SEED_TRACKS } from '../seed/media/catalog';
import { ENDED_SESSION_KEPT_MS, purgeEndedSessions } from '../auth/sessions';
import { purgeWaitingAccounts, WAITING_ACCOUNT_KEPT_AFTER_LINK_MS } from '../auth/waiting-accounts';
import { billingJobHandlers } from '../billing/customer-email';
import { mailJobHandlers } from './mail-jobs';
import { createJobRunner, type JobLog, type JobRunner } from './runner';
import { insertJob } from './queue';
import { SEED_AUDIO_JOB, type SeedAudioPayload } from './seed-audio-job';

// The jobs a server's primary runs (docs/decisions/018-a-job-table-in-postgresql.md): the account
// e-mails its workers enqueue, a new address sent to Stripe, the build of the seeded audio library, and
// the hourly purge of ended sessions (docs/decisions/045-ended-sessions-are-purged-by-a-recurring-job.md), and the
// hourly purge of accounts whose activation links all expired a day ago
// (docs/decisions/110-an-account-waiting-for-its-link-gives-way-and-ends.md).

export const SESSION_PURGE_JOB = 'sessions.purge';
export const SESSION_PURGE_EVERY_MS = 60 * 60_000;
export const WAITING_ACCOUNT_PURGE_JOB = 'accounts.purge-waiting';
export const WAITING_ACCOUNT_PURGE_EVERY_MS = 60 * 60_000;

export interface ServerJobDeps {
  config: Config;
  db: Db;
  files: MediaStore;
  notices: Notices;
  log: JobLog;
}

export function createServerJobRunner({ config, db, files, notices, log }: ServerJobDeps): {
  runner: JobRunner;
  close(): void;
} {
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logLinks: config.env !== 'production',
  });
  const runner = createJobRunner({
    db,
    log,
    handlers: {
      ...mailJobHandlers({ config, db, mailer, log }),
      ...billingJobHandlers({ config, db, log }),
      // Synthesises what is missing, a child process a track (tens of seconds at a first start), then every
      // worker drops its content lists. Safe to repeat: it only adds what is not there, so a stop ends it
      // at once (the track being built is dropped) and the next start builds the rest.
      [SEED_AUDIO_JOB]: async (_job, stopping) => {
        const started = performance.now();
        const result = await seedAudioItems(
          db,
          files,
          { info: (message) => log.info({}, message) },
          SEED_TRACKS,
          withTrackCache(buildTrackFilesInChildProcess),
          stopping,
        );
        log.info({ ...result, ms: Math.round(performance.now() - started) }, 'seed: audio library ready');
        await notices.publish({ kind: 'content-changed' });
      },
      [SESSION_PURGE_JOB]: async (_job, stopping) => {
        const purged = await purgeEndedSessions(db, new Date(Date.now() - ENDED_SESSION_KEPT_MS), { stopping });
        if (purged > 0) log.info({ purged }, 'sessions: ended sessions purged');
      },
      // A link lives ACTIVATION_TOKEN_TTL_SECONDS from when it was made (the account's updated_at at the latest).
      [WAITING_ACCOUNT_PURGE_JOB]: async (_job, stopping) => {
        const linkLifetimeMs = config.tokens.activationTtlSeconds * 1000;
        const before = new Date(Date.now() - linkLifetimeMs - WAITING_ACCOUNT_KEPT_AFTER_LINK_MS);
        const purged = await purgeWaitingAccounts(db, before, { stopping });
        if (purged > 0) log.info({ purged }, 'accounts: accounts never activated purged');
      },
    },
    recurring: {
      [SESSION_PURGE_JOB]: SESSION_PURGE_EVERY_MS,
      [WAITING_ACCOUNT_PURGE_JOB]: WAITING_ACCOUNT_PURGE_EVERY_MS,
    },
  });
  return { runner, close: () => mailer.close() };
}

/**
 * Every start asks for the audio library once (one pending build across servers: a unique key). A
 * build cut off by a crash runs again once its lease runs out; a failed one is retried with back-off.
 * The job says whether it has anything to build, so that a later start with the library complete is
 * not said to prepare it while the job only checks the files (`audioLibraryPreparing`).
 */
export async function enqueueSeedAudio(db: Db, files: MediaStore): Promise<void> {
  // Not known (the store did not answer): said to build, as the job will find out.
  const building = !(await seedAudioComplete(db, files).catch(() => false));
  const payload: SeedAudioPayload = { building };
  await insertJob(db, { kind: SEED_AUDIO_JOB, uniqueKey: SEED_AUDIO_JOB, maxAttempts: 5, payload });
}
