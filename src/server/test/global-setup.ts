import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../db/client';
import { createPglite } from '../db/pglite';
import { migrateDatabase } from '../db/migrate';
import { databaseUrlFor } from './database';

// Migrates once per run; each test file then starts from a copy (PGlite's first open is slow).

export default async function setup(project: TestProject) {
  const kind = project.config.provide.dbKind;
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-template-'));
    const database = await createPglite();
    // Migrating analyses every table (decision 095). ANALYZE writes a table's row count into pg_class in place, which
    // PGlite's dump leaves out until a checkpoint has written it: without one, every copy was never analysed.
    await migrateDatabase(database);
    await database.pglite!.query('checkpoint');
    const dump = await database.pglite!.dumpDataDir('none');
    await database.close();
    const file = path.join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('dbTemplate', file);
    return () => rmSync(dir, { recursive: true, force: true });
  }

  const adminUrl = project.config.provide.databaseUrl ?? '';
  if (!adminUrl) throw new Error('server-postgres tests need DATABASE_URL');
  const template = `innerwave_tpl_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${template}"`);
  const database = await openPostgres(databaseUrlFor(adminUrl, template));
  await migrateDatabase(database);
  await database.close();
  project.provide('dbTemplate', template);
  return async () => {
    await admin.query(`drop database if exists "${template}" with (force)`);
    await admin.end();
  };
}
