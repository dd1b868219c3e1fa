import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import sharp from 'sharp';
import S3rver from '@20minutes/s3rver';
import { hash } from '@node-rs/argon2';
import { buildServer, buildWeb, ROOT, startArgs } from './build-state.mjs';

// `npm run test:cluster` (issue 19): two app servers, each started as `npm start` starts it (a primary
// and its workers), behind nginx on loopback, on one PostgreSQL, one Redis and one S3-compatible store
// (s3rver, the stand-in the media tests use). A mixed load (signups, logins, profile writes, profile
// image uploads, reads) runs through nginx while one server is killed with SIGKILL and started again.
// Then: were acknowledged writes and uploads kept, did the surviving server fail any request, is a
// logout on one server refused at once by the other, do rate limits count across both, is an upload
// through one server downloadable through the other. Prints the figures; exits 1 when a check fails.
// Needs nginx (Debian: apt-get install nginx-light), PostgreSQL and Redis.
//
// Settings (environment): CLUSTER_TEST_SECONDS (load duration, default 40), CLUSTER_TEST_PORT (nginx's
// port; the servers take the next two, the S3 stand-in the third; default 4121), DATABASE_URL (an administrative connection: a
// database of the test's own is created and dropped; default postgres://postgres@127.0.0.1:5432/postgres),
// REDIS_URL (default redis://127.0.0.1:6379/11; keys go under innerwave:11:).

const SECONDS = Number(process.env.CLUSTER_TEST_SECONDS ?? 40);
const NGINX_PORT = Number(process.env.CLUSTER_TEST_PORT ?? 4121);
const PORTS = [NGINX_PORT + 1, NGINX_PORT + 2];
const S3_PORT = NGINX_PORT + 3;
const S3_BUCKET = 'innerwave-cluster';
/** s3rver's built-in key pair. */
const S3_ENV = {
  S3_URL: `http://127.0.0.1:${S3_PORT}`,
  S3_BUCKET,
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
};
const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379/11';
const CLIENTS = 8;
const USERS_PER_CLIENT = 40;
const PASSWORD = 'Cluster-Test-Password-42';
const WORK = path.join(tmpdir(), `innerwave-cluster-${process.pid}`);
const DB_NAME = `innerwave_cluster_${process.pid}`;
const dbUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

const children = new Set();
const log = (message) => console.log(`[cluster-test ${new Date().toISOString().slice(11, 23)}] ${message}`);

function spawnTracked(command, args, options) {
  const child = spawn(command, args, { detached: true, ...options });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Kills a process and everything it started (its process group). */
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function waitFor(check, what, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const healthy = async (port) => (await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200;

function startServer(index) {
  const port = PORTS[index];
  const dataDir = path.join(WORK, `app${index + 1}`);
  mkdirSync(dataDir, { recursive: true });
  const child = spawnTracked(process.execPath, startArgs(), {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${NGINX_PORT}`,
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      REDIS_URL,
      ...S3_ENV,
      SECRET_KEY: 'cluster-test-secret-key-that-is-long-enough-0123456789',
      TRUST_PROXY: '127.0.0.1',
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'warn',
      // The load comes from one address; the per-account limit is the one checked across servers.
      AUTH_RATE_LIMIT_PER_ADDRESS: '1000000',
      AUTH_RATE_LIMIT_PER_EMAIL: '10',
    },
  });
  return child;
}

function startNginx() {
  const dir = path.join(WORK, 'nginx');
  mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream app {
    server 127.0.0.1:${PORTS[0]} max_fails=1 fail_timeout=2s;
    server 127.0.0.1:${PORTS[1]} max_fails=1 fail_timeout=2s;
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${NGINX_PORT};
    client_max_body_size 20m;
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      # A refused connection is tried on the other server; a request already sent is not (not idempotent).
      proxy_next_upstream error timeout;
      proxy_connect_timeout 1s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`,
  );
  return spawnTracked('nginx', ['-c', conf, '-p', dir, '-e', `${dir}/error.log`], { stdio: 'inherit' });
}

// The figures.
const stats = {
  requests: 0,
  failures: 0,
  /** Failures answered by (or attempted on) the server that was not killed. */
  survivorFailures: 0,
  byKind: {},
  acknowledgedWrites: 0,
  lostWrites: 0,
  acknowledgedUploads: 0,
  lostUploads: 0,
};
const failureSamples = [];

async function request(kind, method, url, { body, form, token } = {}) {
  stats.requests++;
  const counts = (stats.byKind[kind] ??= { requests: 0, failures: 0 });
  counts.requests++;
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`http://127.0.0.1:${NGINX_PORT}${url}`, {
      method,
      headers,
      body: form ?? (body ? JSON.stringify(body) : undefined),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const upstream = res.headers.get('x-upstream') ?? '';
    if (res.status >= 500) {
      stats.failures++;
      counts.failures++;
      // Every upstream nginx tried is named; the survivor's port alone means the survivor failed.
      if (!upstream.includes(String(PORTS[1]))) stats.survivorFailures++;
      if (failureSamples.length < 10)
        failureSamples.push(
          `${kind} ${res.status} via ${upstream}: ${text
            .replace(/<[^>]*>|\s+/g, ' ')
            .trim()
            .slice(0, 80)}`,
        );
    }
    return { status: res.status, json: () => JSON.parse(text), upstream };
  } catch (error) {
    stats.failures++;
    counts.failures++;
    if (failureSamples.length < 10) failureSamples.push(`${kind}: ${error.message}`);
    return { status: 0, json: () => ({}), upstream: '' };
  }
}

/** A few small images, each of its own colour (the store names a file by its bytes). */
const IMAGES = await Promise.all(
  [0x2f6f8f, 0x8f2f6f, 0x6f8f2f, 0x4a4a9a].map((rgb) =>
    sharp({
      create: { width: 24, height: 24, channels: 3, background: { r: rgb >> 16, g: (rgb >> 8) & 255, b: rgb & 255 } },
    })
      .png()
      .toBuffer(),
  ),
);

async function client(index, users, until, writes, signups, uploads) {
  const mine = users.slice(index * USERS_PER_CLIENT, (index + 1) * USERS_PER_CLIENT);
  const tokens = new Map();
  let seq = 0;
  while (Date.now() < until) {
    const user = mine[Math.floor(Math.random() * mine.length)];
    const roll = Math.random();
    if (roll < 0.1) {
      const email = `signup-${index}-${seq++}-${randomBytes(3).toString('hex')}@example.com`;
      const res = await request('signup', 'POST', '/api/users/', {
        body: { email, password: PASSWORD, re_password: PASSWORD, accept_terms: true },
      });
      if (res.status === 201) signups.push(email);
    } else if (roll < 0.3 || !tokens.has(user.id)) {
      const res = await request('login', 'POST', '/api/jwt/create/', {
        body: { email: user.email, password: PASSWORD },
      });
      if (res.status === 200) tokens.set(user.id, res.json().access);
    } else if (roll < 0.55) {
      const value = `v${index}-${seq++}`;
      const form = new FormData();
      form.set('first_name', value);
      form.set('last_name', 'Cluster');
      // One write in five carries a new profile image: an upload to S3 through whichever server answers.
      const withImage = Math.random() < 0.2;
      if (withImage)
        form.set('profile_image', new Blob([IMAGES[seq % IMAGES.length]], { type: 'image/png' }), 'me.png');
      if (!writes.has(user.id)) writes.set(user.id, { acknowledged: undefined, after: [] });
      const entry = writes.get(user.id);
      entry.after.push(value);
      const res = await request('profile write', 'PUT', '/api/user/profile/update/', {
        form,
        token: tokens.get(user.id),
      });
      if (res.status === 200) {
        stats.acknowledgedWrites++;
        entry.acknowledged = value;
        entry.after = [];
        if (withImage) {
          stats.acknowledgedUploads++;
          uploads.add(user.id);
        }
      } else if (res.status === 401) tokens.delete(user.id);
    } else {
      const url = Math.random() < 0.5 ? '/api/user/profile/' : '/api/user/message-categories/';
      const res = await request('read', 'GET', url, { token: tokens.get(user.id) });
      if (res.status === 401) tokens.delete(user.id);
    }
  }
}

/** A logout through one server, then the session's next request on the other: refused at once? */
async function logoutAcrossServers(users) {
  let honoured = 0;
  const tries = 10;
  for (const user of users.slice(0, tries)) {
    const auth = await loginOn(PORTS[0], user.email);
    const before = (await direct(PORTS[1], '/api/users/me/', { headers: auth })).status;
    const logout = (await direct(PORTS[0], '/api/logout/', { method: 'POST', headers: auth })).status;
    const after = (await direct(PORTS[1], '/api/users/me/', { headers: auth })).status;
    if (before === 200 && logout === 204 && after === 401) honoured++;
  }
  return { tries, honoured };
}

const direct = (port, url, init = {}) => fetch(`http://127.0.0.1:${port}${url}`, init);

async function loginOn(port, email) {
  const res = await direct(port, '/api/jwt/create/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return { authorization: `Bearer ${(await res.json()).access}` };
}

/** The profile image a server names for a user (a URL signed by the store), fetched: its bytes, or null. */
async function profileImageVia(port, auth) {
  const profile = await (await direct(port, '/api/user/profile/', { headers: auth })).json();
  if (!profile.profile_image) return null;
  const image = await fetch(profile.profile_image);
  return image.ok ? Buffer.from(await image.arrayBuffer()) : null;
}

const isJpeg = (bytes) => bytes !== null && bytes[0] === 0xff && bytes[1] === 0xd8;

/** An image uploaded through one server, then read through the other: the same JPEG bytes? */
async function uploadAcrossServers(users) {
  let downloadable = 0;
  for (const [i, user] of users.entries()) {
    const auth = await loginOn(PORTS[0], user.email);
    const form = new FormData();
    form.set('first_name', 'Across');
    form.set('last_name', 'Servers');
    form.set('profile_image', new Blob([IMAGES[i % IMAGES.length]], { type: 'image/png' }), 'me.png');
    const upload = await direct(PORTS[0], '/api/user/profile/update/', { method: 'PUT', headers: auth, body: form });
    const viaFirst = await profileImageVia(PORTS[0], auth);
    const viaSecond = await profileImageVia(PORTS[1], await loginOn(PORTS[1], user.email));
    if (upload.status === 200 && isJpeg(viaSecond) && viaFirst?.equals(viaSecond)) downloadable++;
  }
  return { tries: users.length, downloadable };
}

/** Wrong passwords for one account, alternately on each server: the limit (10) counts once across both. */
async function rateLimitAcrossServers() {
  const email = `limited-${randomBytes(4).toString('hex')}@example.com`;
  const statuses = [];
  for (let i = 0; i < 11; i++) {
    const res = await fetch(`http://127.0.0.1:${PORTS[i % 2]}/api/jwt/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Not-The-Password-1' }),
    });
    statuses.push(res.status);
  }
  return { statuses, countsOnce: statuses.slice(0, 10).every((s) => s === 401) && statuses[10] === 429 };
}

async function main() {
  if (spawnSync('nginx', ['-v']).error) throw new Error('nginx is not installed (Debian: apt-get install nginx-light)');
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${DB_NAME}"`);
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: S3_PORT,
    silent: true,
    directory: path.join(WORK, 's3'),
    vhostBuckets: false,
    configureBuckets: [{ name: S3_BUCKET }],
  });
  await s3.run();
  try {
    log('building (if stale)…');
    buildWeb();
    await buildServer();

    log(`starting two app servers on ${PORTS.join(' and ')} and nginx on ${NGINX_PORT}`);
    const servers = [startServer(0)];
    // The first applies the migrations; the second then starts on a migrated database.
    await waitFor(() => healthy(PORTS[0]), 'server 1');
    servers.push(startServer(1));
    await waitFor(() => healthy(PORTS[1]), 'server 2');
    startNginx();
    await waitFor(() => healthy(NGINX_PORT), 'nginx');

    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const passwordHash = await hash(PASSWORD);
    const users = [];
    for (let i = 0; i < CLIENTS * USERS_PER_CLIENT; i++) {
      const email = `load-${i}@example.com`;
      const { rows } = await db.query(
        `insert into users (email, password_hash, is_active) values ($1, $2, true) returning id`,
        [email, passwordHash],
      );
      users.push({ id: rows[0].id, email });
    }

    log(`load: ${CLIENTS} clients for ${SECONDS} s; server 2 is killed (SIGKILL) at ${Math.round(SECONDS / 3)} s`);
    const started = Date.now();
    const until = started + SECONDS * 1000;
    const writes = new Map();
    const signups = [];
    const uploads = new Set();
    const load = Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => client(i, users, until, writes, signups, uploads)),
    );

    await sleep((SECONDS / 3) * 1000);
    const killedAt = Date.now();
    killGroup(servers[1], 'SIGKILL');
    log('server 2 killed; restarting it in 2 s');
    await sleep(2000);
    servers[1] = startServer(1);
    const restartedAt = Date.now();
    await waitFor(() => healthy(PORTS[1]), 'server 2 after its restart');
    const recoveredAt = Date.now();
    log(`server 2 answers again, ${recoveredAt - killedAt} ms after it was killed`);
    await load;

    // Every acknowledged write must be there.
    const { rows: found } = await db.query(`select email from users where email = any($1)`, [signups]);
    const lostSignups = signups.length - found.length;
    const { rows: profiles } = await db.query(`select id, first_name from users where id = any($1)`, [
      [...writes.keys()],
    ]);
    let lostProfileWrites = 0;
    for (const row of profiles) {
      const entry = writes.get(row.id);
      if (!entry.acknowledged) continue;
      // A later write whose answer was lost (its server killed) may have been applied: that is no loss.
      if (row.first_name !== entry.acknowledged && !entry.after.includes(row.first_name)) lostProfileWrites++;
    }
    stats.acknowledgedWrites += signups.length;
    stats.lostWrites = lostSignups + lostProfileWrites;
    // Every acknowledged upload: the profile names an image, and the store hands it out (read through
    // the restarted server, which saw none of the uploads the survivor took).
    for (const id of uploads) {
      const user = users.find((candidate) => candidate.id === id);
      if (!isJpeg(await profileImageVia(PORTS[1], await loginOn(PORTS[1], user.email)))) stats.lostUploads++;
    }

    const logout = await logoutAcrossServers(users.slice(CLIENTS * USERS_PER_CLIENT - 10));
    const rateLimit = await rateLimitAcrossServers();
    const upload = await uploadAcrossServers(
      users.slice(CLIENTS * USERS_PER_CLIENT - 15, CLIENTS * USERS_PER_CLIENT - 10),
    );
    await db.end();

    const figures = {
      seconds: SECONDS,
      requests: stats.requests,
      failures: stats.failures,
      failuresOnTheSurvivor: stats.survivorFailures,
      byKind: stats.byKind,
      acknowledgedWrites: stats.acknowledgedWrites,
      lostWrites: stats.lostWrites,
      acknowledgedUploads: stats.acknowledgedUploads,
      lostUploads: stats.lostUploads,
      uploadThroughOneDownloadableThroughTheOther: `${upload.downloadable}/${upload.tries}`,
      timeToRecoverMs: { sinceKill: recoveredAt - killedAt, sinceRestart: recoveredAt - restartedAt },
      logoutHonouredAtOnceOnTheOtherServer: `${logout.honoured}/${logout.tries}`,
      rateLimitAcrossServers: rateLimit.statuses.join(' '),
    };
    console.log(JSON.stringify(figures, null, 2));
    if (failureSamples.length)
      console.log(`failures (first ${failureSamples.length}):\n  ${failureSamples.join('\n  ')}`);
    const ok =
      stats.lostWrites === 0 &&
      stats.lostUploads === 0 &&
      upload.downloadable === upload.tries &&
      stats.survivorFailures === 0 &&
      logout.honoured === logout.tries &&
      rateLimit.countsOnce;
    log(ok ? 'PASS' : 'FAIL');
    process.exitCode = ok ? 0 : 1;
    for (const child of [...children]) killGroup(child, 'SIGTERM');
    await sleep(1500);
  } finally {
    for (const child of [...children]) killGroup(child, 'SIGKILL');
    await sleep(300);
    await admin.query(`drop database if exists "${DB_NAME}" with (force)`).catch(() => undefined);
    await admin.end();
    await s3.close().catch(() => undefined);
    rmSync(WORK, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  for (const child of [...children]) killGroup(child, 'SIGKILL');
  process.exit(1);
});
