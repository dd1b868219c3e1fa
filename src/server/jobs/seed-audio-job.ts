import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs } from './table';

// The build of the seeded audio library as a job (docs/decisions/018-a-job-table-in-postgresql.md),
// apart from its handler so that a worker can ask after it without loading the seed.

export const SEED_AUDIO_JOB = 'seed.audio-library';

/** What the start that asks for the build knew: whether any seeded track or file is missing. */
export type SeedAudioPayload = { building: boolean };

/**
 * Whether the seeded audio library is still being built: its job waits, runs, or waits to be tried
 * again (the states its unique key allows once), and has tracks to build. The first start takes about a
 * minute; a later one with the library complete only checks the files, which is not preparing it. A job
 * that does not say (queued by an earlier version) is taken as building.
 */
export async function audioLibraryPreparing(db: Db): Promise<boolean> {
  const [pending] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.uniqueKey, SEED_AUDIO_JOB),
        inArray(jobs.status, ['queued', 'running', 'failed']),
        sql`coalesce(${jobs.payload} ->> 'building', 'true') <> 'false'`,
      ),
    )
    .limit(1);
  return pending !== undefined;
}
