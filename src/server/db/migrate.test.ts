import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '../test/database';
import { queryRows, type Database } from './client';
import { migrateDatabase, MIGRATIONS_FOLDER } from './migrate';

describe('migrations', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('create every table of the schema', async () => {
    const rows = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const tables = rows.map((row) => row.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'audio_items',
        'desktop_applications',
        'message_categories',
        'messages',
        'profiles',
        'sessions',
        'users',
      ]),
    );
  });

  it('apply again without error or change', async () => {
    await migrateDatabase(database);
    const [row] = await queryRows<{ count: string | number }>(
      database.db,
      sql`select count(*) as count from drizzle.__drizzle_migrations`,
    );
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    expect(Number(row?.count)).toBe(journal.entries.length);
  });

  it('keep e-mail addresses unique regardless of case', async () => {
    await database.db.execute(sql`insert into users (email, password_hash) values ('Case@Example.com', 'x')`);
    await expect(
      database.db.execute(sql`insert into users (email, password_hash) values ('case@example.COM', 'x')`),
    ).rejects.toThrow();
  });
});
