import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db } from './client';

// The planner's statistics (ANALYZE) and the dead rows (VACUUM) of the embedded database, which has no autovacuum,
// kept by PostgreSQL's own rules, and statistics on both engines after migrations
// (docs/decisions/095-the-embedded-database-keeps-its-statistics.md,
// docs/decisions/102-the-embedded-database-vacuums-its-dead-rows.md).

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

/**
 * The tables with dead rows to take back, by autovacuum's rule for a vacuum (its defaults: more than 50 rows + 20 %
 * of the table dead), counting a table's TOAST apart as autovacuum does: a player saved again leaves its old playlist
 * dead there while the row itself is updated in place (HOT). The counts are since the database was opened: what
 * an earlier run left is taken back at open (`keepTablesAtOpen`).
 */
export async function tablesToVacuum(db: Db): Promise<string[]> {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select format('%I.%I', s.schemaname, s.relname) as name
        from pg_stat_user_tables s
        join pg_class c on c.oid = s.relid
        left join pg_stat_all_tables ts on ts.relid = c.reltoastrelid
        left join pg_class tc on tc.oid = c.reltoastrelid
        where s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
          or ts.n_dead_tup > 50 + 0.2 * greatest(tc.reltuples, 0)
        order by s.schemaname, s.relname`,
  );
  return rows.map((row) => row.name);
}

/** A plain VACUUM (never FULL: it would rewrite the table) of one table and its TOAST, with ANALYZE when asked. */
export const vacuumTable = (db: Db, name: string, analyse = false) =>
  db.execute(sql.raw(`vacuum ${analyse ? '(analyze) ' : ''}${name}`));

/**
 * What the process that opens the embedded database does before it serves: every table vacuumed, and analysed as
 * well where `tablesToAnalyse` says (asked first: a vacuum rewrites the sizes its rule reads). PGlite forgot the
 * dead rows it counted, and an older release never vacuumed: a vacuum finds them by the visibility map, and a table
 * with none is done in a millisecond or two, whatever its size.
 */
export async function keepTablesAtOpen(db: Db): Promise<{ vacuumed: string[]; analysed: string[] }> {
  const analysed = await tablesToAnalyse(db);
  const vacuumed = await userTables(db);
  for (const table of vacuumed) await vacuumTable(db, table, analysed.includes(table));
  return { vacuumed, analysed };
}

export interface StatisticsKeeperOptions {
  /** Whether nobody is waiting for the database, nor has been for a moment (pgliteCallHandlers' `isQuiet`). */
  isQuiet: () => boolean;
  /** How often the tables are looked at: autovacuum's naptime. */
  intervalMs?: number;
  /**
   * How long a table waits for a quiet moment: then an analysis runs all the same (a busy server needs its plans),
   * and a vacuum waits for a later round (dead rows cost only room meanwhile).
   */
  maxWaitMs?: number;
  /** How often a waiting analysis looks again. */
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>;
}

export interface StatisticsKeeper {
  /**
   * Looks at the tables now, vacuums and analyses those the rules name, and answers the tables it vacuumed or
   * analysed; while a round runs, it is that round.
   */
  round(): Promise<string[]>;
  /** Stops the timer and waits for the table being vacuumed or analysed, if any; no other starts. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Vacuums and analyses the embedded database's tables as autovacuum would, off the request path: on a timer, one
 * table at a time, each when the database has had nothing to do for a moment. PGlite runs one statement at a time,
 * so every query waits for a VACUUM or ANALYZE under way (an ANALYZE: 110–160 ms of CPU for 200,000 sessions of
 * history; a VACUUM of a million rows a tenth to a fifth dead: 0.35–0.7 s): a round never runs beside another, and
 * a table's turn starts only once no worker's call is in flight or was lately. After `maxWaitMs` of a database never
 * quiet an analysis runs all the same; a vacuum never does
 * (docs/decisions/102-the-embedded-database-vacuums-its-dead-rows.md).
 */
export function keepStatistics(
  db: Db,
  { isQuiet, intervalMs = 60_000, maxWaitMs = 60_000, pollMs = 100, log }: StatisticsKeeperOptions,
): StatisticsKeeper {
  let running: Promise<string[]> | undefined;
  let stopping = false;

  /** Whether the database is quiet, once it is or `maxWaitMs` went by. */
  const quietMoment = async () => {
    for (let waited = 0; !isQuiet() && waited < maxWaitMs && !stopping; waited += pollMs) await sleep(pollMs);
    return isQuiet();
  };

  const keepStale = async () => {
    const toVacuum = new Set(await tablesToVacuum(db));
    const toAnalyse = new Set(await tablesToAnalyse(db));
    const kept: string[] = [];
    for (const table of [...new Set([...toVacuum, ...toAnalyse])].sort()) {
      const quiet = await quietMoment();
      if (stopping) break;
      const analyse = toAnalyse.has(table);
      if (quiet && toVacuum.has(table)) await vacuumTable(db, table, analyse);
      else if (analyse) await analyseTable(db, table);
      else continue;
      kept.push(table);
    }
    return kept;
  };

  const round = () => {
    if (stopping) return Promise.resolve([]);
    running ??= keepStale().finally(() => (running = undefined));
    return running;
  };

  const timer = setInterval(
    () =>
      void round().catch((error: unknown) =>
        log?.error(
          { err: error },
          'the embedded database could not be vacuumed or analysed; it is tried again in a minute',
        ),
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
