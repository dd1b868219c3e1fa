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
import { keepStatistics, tablesToAnalyse, userTables } from './statistics';

// The planner's statistics: every table analysed after migrations (both engines), and the embedded database's
// kept as autovacuum keeps PostgreSQL's (docs/decisions/095-the-embedded-database-keeps-its-statistics.md).

interface TableStatistics {
  name: string;
  reltuples: number;
  analyses: number;
}

/** Each table's rows as its statistics say (-1: never analysed) and its analyses since the database was opened. */
async function statisticsOf(db: Db): Promise<Map<string, TableStatistics>> {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const rows = await queryRows<TableStatistics>(
    db,
    sql`select s.relname as name, c.reltuples::float8 as reltuples, s.analyze_count::int as analyses
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.schemaname = 'public'`,
  );
  return new Map(rows.map((row) => [row.name, row]));
}

const addEvents = (db: Db, from: number, to: number) =>
  db.execute(
    sql.raw(`insert into stripe_events (id, type) select 'evt_' || n, 'test' from generate_series(${from}, ${to}) n`),
  );
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
