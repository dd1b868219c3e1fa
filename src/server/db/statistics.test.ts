import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, createUnmigratedTestDatabase } from '../test/database';
import { queryRows, type Database, type Db } from './client';
import { migrateDatabase } from './migrate';
import { openPglite } from './pglite';
import { openPreparedDatabase } from './prepare';
import { keepStatistics, tablesToAnalyse, tablesToVacuum, userTables } from './statistics';

// The planner's statistics: every table analysed after migrations (both engines), and the embedded database's
// statistics and dead rows kept as autovacuum keeps PostgreSQL's
// (docs/decisions/095-the-embedded-database-keeps-its-statistics.md,
// docs/decisions/102-the-embedded-database-vacuums-its-dead-rows.md).

interface TableStatistics {
  name: string;
  reltuples: number;
  analyses: number;
  vacuums: number;
  /** Dead rows counted since the database was opened, of the table and of its TOAST. */
  dead: number;
  toastDead: number;
}

/** Each table's rows as its statistics say (-1: never analysed) and its analyses since the database was opened. */
async function statisticsOf(db: Db): Promise<Map<string, TableStatistics>> {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const rows = await queryRows<TableStatistics>(
    db,
    sql`select s.relname as name, c.reltuples::float8 as reltuples, s.analyze_count::int as analyses,
          s.vacuum_count::int as vacuums, s.n_dead_tup::int as dead, coalesce(t.n_dead_tup, 0)::int as "toastDead"
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        left join pg_stat_all_tables t on t.relid = c.reltoastrelid
        where s.schemaname = 'public'`,
  );
  return new Map(rows.map((row) => [row.name, row]));
}

const addEvents = (db: Db, from: number, to: number) =>
  db.execute(
    sql.raw(`insert into stripe_events (id, type) select 'evt_' || n, 'test' from generate_series(${from}, ${to}) n`),
  );
const deleteEvents = (db: Db, count: number) =>
  db.execute(sql`delete from stripe_events where id in (select id from stripe_events order by id limit ${count})`);
/** The table's size on disk, in pages. */
const pagesOf = async (db: Db, table: string) =>
  (
    await queryRows<{ pages: number }>(
      db,
      sql`select (pg_relation_size(${table}::regclass) / current_setting('block_size')::int)::int as pages`,
    )
  )[0]!.pages;
const addCategories = (db: Db, from: number, to: number) =>
  db.execute(
    sql.raw(`insert into message_categories (name) select 'Category ' || n from generate_series(${from}, ${to}) n`),
  );

describe('statistics after migrations', { timeout: 90_000 }, () => {
  it('exist for every table once a run has applied migrations, and a run that applied none analyses nothing', async () => {
    const database = await createUnmigratedTestDatabase();
    try {
      await migrateDatabase(database);
      const analysed = await statisticsOf(database.db);
      expect(analysed.size).toBeGreaterThan(20);
      for (const table of analysed.values()) expect(table, table.name).toMatchObject({ reltuples: 0, analyses: 1 });

      await addEvents(database.db, 1, 500);
      await migrateDatabase(database);
      expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({ reltuples: 0, analyses: 1 });
    } finally {
      await database.close();
    }
  });
});

describe.runIf(inject('dbKind') === 'pglite')('the embedded database’s statistics', () => {
  describe('at open', () => {
    let dataDir: string;
    beforeEach(() => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-statistics-'));
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

    it('are gathered where a table was never analysed, or changed by the rule while the database was closed', async () => {
      // Migrated (so analysed), then given a table that never was, as by hand or an older release.
      const first = await openPglite(dataDir);
      await migrateDatabase(first);
      await first.pglite!.exec(
        `create table never_analysed (id int); insert into never_analysed select generate_series(1, 10)`,
      );
      await first.close();

      const opened = await openPreparedDatabase({ dataDir });
      try {
        const statistics = await statisticsOf(opened.database.db);
        expect(statistics.get('never_analysed')).toMatchObject({ reltuples: 10, analyses: 1 });
        // Analysed by the migrations, and unchanged since: not again.
        expect(statistics.get('message_categories')).toMatchObject({ reltuples: 0, analyses: 0 });
        // Filled while it runs (counted), and while closed (not counted: PGlite forgets its counters).
        await addCategories(opened.database.db, 1, 1000);
      } finally {
        await opened.close();
      }
      const filled = await PGlite.create({ dataDir: path.join(dataDir, 'db') });
      await filled.query(
        `insert into stripe_events (id, type) select 'evt_' || n, 'test' from generate_series(1, 3000) n`,
      );
      await filled.close();

      const reopened = await openPreparedDatabase({ dataDir });
      try {
        const statistics = await statisticsOf(reopened.database.db);
        expect(statistics.get('message_categories')).toMatchObject({ reltuples: 1000, analyses: 1 });
        expect(statistics.get('stripe_events')).toMatchObject({ reltuples: 3000, analyses: 1 });
        expect(statistics.get('users')).toMatchObject({ reltuples: 0, analyses: 0 });
      } finally {
        await reopened.close();
      }
    }, 180_000);

    it('vacuums every table, taking back the dead rows an earlier run left and PGlite forgot', async () => {
      const first = await openPreparedDatabase({ dataDir });
      try {
        await addEvents(first.database.db, 1, 3000);
        await deleteEvents(first.database.db, 1500);
      } finally {
        await first.close();
      }
      const reopened = await openPreparedDatabase({ dataDir });
      try {
        const { db } = reopened.database;
        const events = (await statisticsOf(db)).get('stripe_events');
        expect(events).toMatchObject({ vacuums: 1, dead: 0 });
        // Vacuumed at open (so analysed by the size rule too), every table: none waits for the keeper's round.
        for (const table of (await statisticsOf(db)).values()) expect(table.vacuums, table.name).toBe(1);
        // The room of the 1,500 deleted rows is used again: the table does not grow by the next 1,500.
        const pages = await pagesOf(db, 'stripe_events');
        await addEvents(db, 3001, 4500);
        expect(await pagesOf(db, 'stripe_events')).toBe(pages);
      } finally {
        await reopened.close();
      }
    }, 180_000);
  });

  describe('while it runs', () => {
    let database: Database;
    beforeEach(async () => {
      database = await createTestDatabase();
    });
    afterEach(() => database.close());

    it('starts from a template whose tables are analysed, and nothing is stale in it', async () => {
      const statistics = await statisticsOf(database.db);
      for (const table of statistics.values()) expect(table.reltuples, table.name).toBe(0);
      expect(await tablesToAnalyse(database.db)).toEqual([]);
    });

    it('analyses a table again once more than 50 rows and a tenth of it changed since it was last', async () => {
      const keeper = keepStatistics(database.db, { isQuiet: () => true });
      try {
        await addEvents(database.db, 1, 50);
        expect(await keeper.round()).toEqual([]);
        await addEvents(database.db, 51, 51);
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({ reltuples: 51, analyses: 1 });

        await addEvents(database.db, 52, 1051);
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        // 1,051 rows: the next analysis after 50 + 105.1 changes, updates and deletions counted as inserts are.
        await database.db.execute(
          sql`update stripe_events set type = 'changed' where id in (select id from stripe_events limit 50)`,
        );
        await database.db.execute(sql`delete from stripe_events where id in (select id from stripe_events limit 105)`);
        expect(await keeper.round()).toEqual([]);
        await database.db.execute(sql`delete from stripe_events where id in (select id from stripe_events limit 1)`);
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({ reltuples: 945, analyses: 3 });
      } finally {
        await keeper.stop();
      }
    });

    it('vacuums a table once more than 50 rows and a fifth of it are dead, with an analysis where one is due', async () => {
      const keeper = keepStatistics(database.db, { isQuiet: () => true });
      try {
        await addEvents(database.db, 1, 1000);
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        // 200 of 1,000 dead: more than 50 + 100 changed (an analysis), not more than 50 + 200 dead (no vacuum).
        await deleteEvents(database.db, 200);
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({
          reltuples: 800,
          analyses: 2,
          vacuums: 0,
          dead: 200,
        });
        // Of 800 rows, 50 + 160 dead are not yet enough; one more is, with 11 changes since the analysis: no analysis.
        await deleteEvents(database.db, 10);
        expect(await tablesToVacuum(database.db)).toEqual([]);
        await deleteEvents(database.db, 1);
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({
          analyses: 2,
          vacuums: 1,
          dead: 0,
        });

        // Dead enough for both at once: one VACUUM (ANALYZE).
        await deleteEvents(database.db, 400);
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({
          reltuples: 389,
          analyses: 3,
          vacuums: 2,
          dead: 0,
        });
      } finally {
        await keeper.stop();
      }
    });

    it('vacuums a table whose TOAST holds the dead rows: a full player saved again', async () => {
      const keeper = keepStatistics(database.db, { isQuiet: () => true });
      try {
        await database.db.execute(
          sql`insert into users (email, password_hash) select 'p' || n || '@example.com', 'x' from generate_series(1, 5) n`,
        );
        // A playlist that compresses badly enough to be stored out of line, in many TOAST rows.
        const save = (n: number) =>
          database.db.execute(
            sql`insert into player_states (user_id, playlist, settings)
                select id, (select jsonb_agg(md5(id || ':' || ${n} || ':' || m)) from generate_series(1, 1000) m), '{}'
                from users
                on conflict (user_id) do update set playlist = excluded.playlist, updated_at = now()`,
          );
        for (let n = 1; n <= 5; n++) await save(n);
        const saved = (await statisticsOf(database.db)).get('player_states')!;
        // The rows themselves are far from the rule (five rows, a few dead); their TOAST is past it.
        expect(saved.dead).toBeLessThanOrEqual(50);
        expect(saved.toastDead).toBeGreaterThan(50 + 0.2 * 5 * 20);
        expect(await keeper.round()).toContain('public.player_states');
        expect((await statisticsOf(database.db)).get('player_states')).toMatchObject({ vacuums: 1, toastDead: 0 });
      } finally {
        await keeper.stop();
      }
    });

    it('vacuums only at a quiet moment: a database never quiet has its analyses, and its vacuums wait', async () => {
      let quiet = false;
      const keeper = keepStatistics(database.db, { isQuiet: () => quiet, pollMs: 20, maxWaitMs: 200 });
      try {
        await addEvents(database.db, 1, 1000);
        await deleteEvents(database.db, 500);
        // Both due: the analysis runs once the wait is over; the vacuum does not.
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({ analyses: 1, vacuums: 0 });
        // Only the vacuum due: nothing runs while the database is busy, and it runs once it is quiet.
        expect(await keeper.round()).toEqual([]);
        expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({ analyses: 1, vacuums: 0 });
        quiet = true;
        expect(await keeper.round()).toEqual(['public.stripe_events']);
        expect((await statisticsOf(database.db)).get('stripe_events')).toMatchObject({ analyses: 1, vacuums: 1 });
      } finally {
        await keeper.stop();
      }
    });

    it('never runs a round beside another: each stale table is analysed once', async () => {
      const keeper = keepStatistics(database.db, { isQuiet: () => true });
      try {
        await addEvents(database.db, 1, 200);
        await addCategories(database.db, 1, 200);
        const rounds = await Promise.all([keeper.round(), keeper.round()]);
        expect(rounds).toEqual([
          ['public.message_categories', 'public.stripe_events'],
          ['public.message_categories', 'public.stripe_events'],
        ]);
        const statistics = await statisticsOf(database.db);
        expect(statistics.get('stripe_events')?.analyses).toBe(1);
        expect(statistics.get('message_categories')?.analyses).toBe(1);
      } finally {
        await keeper.stop();
      }
    });

    it('waits for a quiet moment before analysing, and no longer than it is told', async () => {
      let quiet = false;
      const keeper = keepStatistics(database.db, { isQuiet: () => quiet, pollMs: 20, maxWaitMs: 60_000 });
      const impatient = keepStatistics(database.db, { isQuiet: () => false, pollMs: 20, maxWaitMs: 200 });
      try {
        await addEvents(database.db, 1, 200);
        const round = keeper.round();
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect((await statisticsOf(database.db)).get('stripe_events')?.analyses).toBe(0);
        quiet = true;
        expect(await round).toEqual(['public.stripe_events']);

        await addEvents(database.db, 201, 400);
        expect(await impatient.round()).toEqual(['public.stripe_events']);
      } finally {
        await Promise.all([keeper.stop(), impatient.stop()]);
      }
    });

    it('stops cleanly in a round: the table it sent is analysed whole, no other starts, the database closes', async () => {
      await addEvents(database.db, 1, 2000);
      await addCategories(database.db, 1, 200);
      const pglite = database.pglite!;
      let held: Promise<unknown> | undefined;
      let stopped: Promise<void> | undefined;
      const keeper = keepStatistics(database.db, {
        isQuiet: () => {
          // A worker's transaction takes the database as the first ANALYZE is sent, which waits behind it; SIGTERM
          // comes meanwhile: the server stops the keeper, then closes the database.
          held ??= pglite.transaction(async (tx) => {
            await tx.query('select 1');
            await new Promise((resolve) => setTimeout(resolve, 100));
            stopped = keeper.stop().then(() => database.close());
            await new Promise((resolve) => setTimeout(resolve, 100));
          });
          return true;
        },
      });
      // The ANALYZE sent before the stop committed (a round rejects when one fails), and the next never started.
      expect(await keeper.round()).toEqual(['public.message_categories']);
      await held;
      await stopped;
      expect(pglite.closed).toBe(true);
      // A round asked for after the stop does nothing.
      expect(await keeper.round()).toEqual([]);
      database = await createTestDatabase();
    });

    it('names the application’s tables, not the system’s', async () => {
      const tables = await userTables(database.db);
      expect(tables).toContain('public.listening_history');
      expect(tables.filter((name) => name.startsWith('pg_catalog.'))).toEqual([]);
    });
  });
});
