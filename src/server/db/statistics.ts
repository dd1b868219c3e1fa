import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db } from './client';

// The planner's statistics (ANALYZE) on the embedded database, which has no autovacuum, kept by PostgreSQL's own
// rule, and on both engines after migrations (docs/decisions/095-the-embedded-database-keeps-its-statistics.md).

/**
 * The tables whose statistics are missing or stale, by autovacuum's rule for an analysis (its defaults: more than
 * 50 rows + 10 % of the table changed since the last one). PGlite forgets the changes it counted whenever it is
 * opened again (its counters are not kept in its folder), so a table's size on disk against its size when last
 * analysed stands for them too: a table that grew or shrank by the rule while the counters were lost, by an import
 * or a release, is analysed at the next open (one analysed empty, once it fills more than a page: 50 rows of most
 * tables fit in one). A table never analysed (reltuples -1) always is.
 */
export async function tablesToAnalyse(db: Db): Promise<string[]> {
  // This connection's own changes are counted in the views at its next statement's end, not a second later.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select format('%I.%I', s.schemaname, s.relname) as name
        from pg_stat_user_tables s
        join pg_class c on c.oid = s.relid
        cross join lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) now
        where c.reltuples < 0
          or s.n_mod_since_analyze > 50 + 0.1 * c.reltuples
          or (c.relpages = 0 and now.pages > 1)
          or (c.relpages > 0 and abs(c.reltuples * now.pages / c.relpages - c.reltuples) > 50 + 0.1 * c.reltuples)
        order by s.schemaname, s.relname`,
  );
  return rows.map((row) => row.name);
}

/** Every table of the application's (not the system's catalogs: on PGlite they take twenty times as long). */
export async function userTables(db: Db): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables order by schemaname, relname`,
  );
  return rows.map((row) => row.name);
}

/** ANALYZE of one table, named as `tablesToAnalyse` and `userTables` name it. */
export const analyseTable = (db: Db, name: string) => db.execute(sql.raw(`analyze ${name}`));

/** Analyses the tables `tablesToAnalyse` names, one at a time; the process that opens the embedded database does. */
export async function analyseWhereStale(db: Db): Promise<string[]> {
  const tables = await tablesToAnalyse(db);
  for (const table of tables) await analyseTable(db, table);
  return tables;
}

export interface StatisticsKeeperOptions {
  /** Whether nobody is waiting for the database, nor has been for a moment (pgliteCallHandlers' `isQuiet`). */
  isQuiet: () => boolean;
  /** How often the tables are looked at: autovacuum's naptime. */
  intervalMs?: number;
  /** How long an analysis waits for a quiet moment before it runs all the same: a busy server needs its plans. */
  maxWaitMs?: number;
  /** How often a waiting analysis looks again. */
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>;
}

export interface StatisticsKeeper {
  /** Looks at the tables now and analyses those the rule names; while a round runs, it is that round. */
  round(): Promise<string[]>;
  /** Stops the timer and waits for the table being analysed, if any; no other starts. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Analyses the embedded database's tables as autovacuum would, off the request path: on a timer, one table at a
 * time, each when the database has had nothing to do for a moment. PGlite runs one statement at a time, so every
 * query waits for an ANALYZE under way (110–160 ms of CPU for 200,000 sessions of history, a third of a second on a
 * loaded machine): a round never runs beside another, and a table's analysis starts only once no worker's call is
 * in flight or was lately, or after `maxWaitMs` of a database never quiet.
 */
export function keepStatistics(
  db: Db,
  { isQuiet, intervalMs = 60_000, maxWaitMs = 60_000, pollMs = 100, log }: StatisticsKeeperOptions,
): StatisticsKeeper {
  let running: Promise<string[]> | undefined;
  let stopping = false;

  const quietMoment = async () => {
    for (let waited = 0; !isQuiet() && waited < maxWaitMs && !stopping; waited += pollMs) await sleep(pollMs);
  };

  const analyseStale = async () => {
    const analysed: string[] = [];
    for (const table of await tablesToAnalyse(db)) {
      await quietMoment();
      if (stopping) break;
      await analyseTable(db, table);
      analysed.push(table);
    }
    return analysed;
  };

  const round = () => {
    if (stopping) return Promise.resolve([]);
    running ??= analyseStale().finally(() => (running = undefined));
    return running;
  };

  const timer = setInterval(
    () =>
      void round().catch((error: unknown) =>
        log?.error({ err: error }, 'the embedded database could not be analysed; it is tried again in a minute'),
      ),
    intervalMs,
  );
  timer.unref();

  return {
    round,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
