import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ROOT, startArgs } from '../scripts/build-state.mjs';
import { freePort } from './free-port.mjs';

// What the benches do to the app they start: a PostgreSQL database of its own, the admin CLI on its data, the
// API, and waiting until it answers.

/**
 * Runs the admin CLI on the embedded database in `dataDir` (before the server holds it), or on the PostgreSQL
 * database at `databaseUrl`.
 */
export const admin = (dataDir, command, input, databaseUrl = '') => {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/server/admin/cli.ts', ...command],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl },
      input,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`admin ${command.join(' ')} failed: ${result.stderr}${result.stdout}`);
};

/** Creates the database `name` on the PostgreSQL server of `serverUrl` (a DATABASE_URL); returns its URL. */
export async function createDatabase(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`create database "${name}"`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database `name` made by createDatabase, connections and all. */
export async function dropDatabase(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.end();
}

/** The process ids of the backends connected to the database `name` (PostgreSQL on this machine). */
export async function backendsOf(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  const { rows } = await client.query('select pid from pg_stat_activity where datname = $1', [name]);
  await client.end();
  return rows.map((row) => String(row.pid));
}

/** One JSON call; throws on any answer but 2xx. */
export async function api(origin, method, urlPath, { token, body } = {}) {
  const response = await fetch(`${origin}${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

/** Resolves once the server answers /api/health; throws if it exits or takes over 60 s. */
export async function waitForHealth(origin, server) {
  for (let attempt = 0; attempt < 120; attempt++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not become healthy in 60 s');
}

/**
 * Starts the app as `npm start` does, on a fresh embedded data folder holding one Pro account; `stop()` ends the
 * server and removes the folder.
 */
export async function startWithProAccount({ email, port, dataPrefix }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), dataPrefix));
  const password = 'Bench-password-2026';
  admin(dataDir, ['create-staff', '--email', email], `${password}\n`);
  admin(dataDir, ['set-plan', email, 'pro']);
  const origin = `http://127.0.0.1:${port ?? (await freePort())}`;
  // Every run signs in anew: the sign-in limits (10 an e-mail in 15 minutes) would stop the bench, not a person.
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: new URL(origin).port,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_EMAIL: '10000',
    AUTH_RATE_LIMIT_PER_ADDRESS: '10000',
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, startArgs(), { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(origin, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, password, stop };
}
