import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { E2E } from '../../playwright.config';

export interface InsertedApplication {
  version: string;
  fileName: string;
  bytes: Buffer;
}

/**
 * Test-only: puts an installer into the server's media folder and its row into the database.
 * The embedded database is locked by the running server, so this needs the run to use
 * PostgreSQL (`DATABASE_URL`, which the server inherits); `canInsertDesktopApplications` says
 * whether it can. The admin API (its own issue) will replace this with an HTTP call.
 */
export const canInsertDesktopApplications = () => Boolean(process.env.DATABASE_URL);

export async function insertDesktopApplication(version: string, description: string): Promise<InsertedApplication> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('insertDesktopApplication needs DATABASE_URL (PostgreSQL) for the e2e run');
  const fileName = `Innerwave-Setup-${version}.exe`;
  const bytes = Buffer.from(`MZ innerwave test installer ${version}`);
  const relative = `applications/${fileName}`;
  const file = path.join(E2E.dataDir, 'media', relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('insert into desktop_applications (application_version, description, application_file) values ($1, $2, $3)', [version, description, relative]);
  } finally {
    await client.end();
  }
  return { version, fileName, bytes };
}
