import { spawn } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { buildSync } from 'esbuild';
import pg from 'pg';
import { ROOT, startArgs } from '../scripts/build-state.mjs';
import { admin, backendsOf, createDatabase, dropDatabase, waitForHealth } from './app-calls.mjs';
import { freePort } from './free-port.mjs';

// `npm run bench:data-export [-- --subliminals=2000] [--messages=1000] [--chars=200] [--history=100000]
// [--deleted-tracks=5000] [--client-kbps=0] [--port=N] [--json=out.json] [--backup=1]`: a person's data export
// (GET /api/user/export/, docs/product/accounts.md#downloading-ones-data) at the plan's limits. Starts Innerwave as `npm start` does (temporary data folder; on PostgreSQL in a database of its own when
// DATABASE_URL is set), fills one Pro account directly in the database (its saved subliminals of `--messages`
// messages of `--chars` characters each, 500 categories holding 10,000 own messages, a full player, 50 tracks,
// 100 voice recordings, 100 support requests, `--deleted-tracks` deleted tracks and `--history` sessions of history:
// no plan bounds either, and 100,000 sessions is a heavy listener's decade, 27 sounds a day), downloads the
// export over HTTP into a file and prints: its bytes, the time to the first byte and to the last, and the peak
// resident memory (VmRSS, sampled from /proc every 20 ms) of the worker that served it and of the primary (which
// runs the embedded database), each beside its idle value, and the CPU time each spent on the download (and the
// PostgreSQL backends', on PostgreSQL): on a busy machine the wall times vary with the load, the CPU times far
// less. The file is then read back a subliminal at a time, and every part checked against the contract. `--backup=1` then
// runs `npm run backup` of the data folder against the running server and prints its time and size.
// `--client-kbps` reads the answer no faster than that (a slow network: what the server keeps while the socket is
// full); 0 reads it as fast as it comes.

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const SUBLIMINALS = Number(args.subliminals ?? 2000);
const MESSAGES = Number(args.messages ?? 1000);
const CHARS = Number(args.chars ?? 200);
const HISTORY = Number(args.history ?? 100_000);
const DELETED_TRACKS = Number(args['deleted-tracks'] ?? 5000);
const CLIENT_KBPS = Number(args['client-kbps'] ?? 0);
const EMAIL = 'export@bench.innerwave.test';
const PASSWORD = 'Bench-password-2026';
const SAMPLE_MS = 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const work = mkdtempSync(path.join(tmpdir(), 'innerwave-bench-data-export-'));
const env = {
  ...process.env,
  DATA_DIR: path.join(work, 'data'),
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789',
  LOG_LEVEL: 'info',
  AUTH_RATE_LIMIT_PER_ADDRESS: '10000',
  AUTH_RATE_LIMIT_PER_EMAIL: '10000',
};
let database;
let server;

/** The contract's schemas, bundled from the TypeScript sources, to check the file with. */
async function loadContract() {
  const file = path.join(work, 'contract.mjs');
  buildSync({
    stdin: {
      contents: `export { userExportSchema } from './account-export';\nexport { subliminalSchema } from './subliminals';`,
      resolveDir: path.join(ROOT, 'src/shared/contract'),
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: file,
  });
  return import(pathToFileURL(file).href);
}

/**
 * Fills the account in SQL, each table in a few statements that PostgreSQL expands (generate_series): uploads over
 * HTTP would take hours at this size. Every message differs, as a person's do, so no two rows store alike.
 */
async function fill(query) {
  const [{ id: userId }] = (await query('select id from users where email = $1', [EMAIL])).rows;
  const settings = JSON.stringify({
    flashSpeed: 100,
    displayInterval: 2000,
    messageColor: '#00DC82',
    fontSize: 20,
    theme: 'classic',
  });
  const text = (n, of) =>
    `left(format('Message %s of ${of} %s: ', m, ${n}) || repeat('I breathe in calm and let it settle. ', 20), ${CHARS})`;
  const playlist = (n, of) =>
    `(select jsonb_agg(jsonb_build_object('message_text', ${text(n, of)}, 'source', 'own', 'message_id', m) order by m)
      from generate_series(1, ${MESSAGES}) m)`;
  const BATCH = 50;
  for (let first = 1; first <= SUBLIMINALS; first += BATCH) {
    await query(
      `insert into saved_subliminals (user_id, name, playlist, settings)
       select $1, 'Bench subliminal ' || g, ${playlist('g', 'subliminal')}, $2::jsonb
       from generate_series(${first}, ${Math.min(SUBLIMINALS, first + BATCH - 1)}) g`,
      [userId, settings],
    );
    process.stdout.write(`\rsaved subliminals: ${Math.min(SUBLIMINALS, first + BATCH - 1)} of ${SUBLIMINALS}`);
  }
  process.stdout.write('\n');
  await query(
    `insert into player_states (user_id, playlist, settings) select $1, ${playlist(0, 'the player')}, $2::jsonb
     on conflict (user_id) do update set playlist = excluded.playlist`,
    [userId, settings],
  );
  await query(
    `insert into own_categories (user_id, name, position) select $1, 'Bench category ' || c, c from generate_series(1, 500) c`,
    [userId],
  );
  await query(
    `insert into own_messages (category_id, user_id, message_text, position)
     select c.id, $1, left(format('Own message %s of %s: ', m, c.name) || repeat('I am steady. ', 20), 200), m
     from own_categories c, generate_series(1, 20) m where c.user_id = $1`,
    [userId],
  );
  await query(
    `insert into own_tracks (user_id, name, audio_file, bytes)
     select $1, 'Bench track ' || t, format('own-music/%s/%s.mp3', $1::int, md5(t::text)), 10000000 from generate_series(1, 50) t`,
    [userId],
  );
  await query(
    `insert into removed_own_tracks (id, user_id, name, removed_at)
     select 1000000 + t, $1, 'Deleted bench track ' || t, now() - t * interval '1 hour'
     from generate_series(1, ${DELETED_TRACKS}) t`,
    [userId],
  );
  await query(
    `insert into voice_recordings (user_id, text, audio_file, bytes, duration_ms)
     select $1, left(format('Recorded message %s: ', v) || repeat('I am steady. ', 20), 200),
       format('own-voice/%s/%s.wav', $1::int, md5(v::text)), 1920044, 20000 from generate_series(1, 100) v`,
    [userId],
  );
  await query(
    `insert into support_requests (user_id, email, plan, subject, message, priority)
     select $1, $2, 'pro', 'Bench request ' || r, left(repeat('Please help me with the bench. ', 200), 5000), true
     from generate_series(1, 100) r`,
    [userId, EMAIL],
  );
  await query(
    `insert into listening_history (user_id, kind, ref, title, seconds, finished, started_at)
     select $1, 'subliminal', 'bench-' || h, 'Bench session ' || h, 600, true, now() - h * interval '53 minutes'
     from generate_series(1, ${HISTORY}) h`,
    [userId],
  );
}

/** The server's processes: the primary, then its workers. */
const serverPids = () => [
  server.pid,
  ...readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8')
    .split(/\s+/)
    .filter((pid) => pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('start.mjs'))
    .map(Number),
];
const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
/** User and system CPU time of a process, in clock ticks: the worker whose time rose the most served the export. */
const cpuTicksOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

/** Nanoseconds a process (or a backend of PostgreSQL on this machine) has run on a CPU; 0 once it is gone. */
const cpuNsOf = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
};

/** GETs the export into `file`, no faster than CLIENT_KBPS when set; the times are from the request's start. */
function download(origin, token, file) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(
      `${origin}/api/user/export/`,
      { headers: { authorization: `Bearer ${token}` } },
      (response) => {
        const firstByteMs = performance.now() - started;
        const out = createWriteStream(file);
        let bytes = 0;
        response.on('data', (chunk) => {
          bytes += chunk.length;
          if (!out.write(chunk)) {
            response.pause();
            out.once('drain', () => response.resume());
          }
          if (CLIENT_KBPS > 0) {
            const due = (bytes * 8) / CLIENT_KBPS - (performance.now() - started - firstByteMs);
            if (due > 0) {
              response.pause();
              setTimeout(() => response.resume(), due);
            }
          }
        });
        response.on('end', () =>
          out.end(() =>
            resolve({
              status: response.statusCode,
              headers: response.headers,
              bytes,
              firstByteMs,
              totalMs: performance.now() - started,
            }),
          ),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/**
 * Reads the file back as JSON, a saved subliminal at a time (the whole file can be more than a string holds): the
 * export is laid out as JSON.stringify(data, null, 2) writes it, so each subliminal runs from a line "    {" to a
 * line "    }" or "    },", and the rest, with the list empty, is the file's other sections.
 */
async function checkFile(file, { userExportSchema, subliminalSchema }) {
  const rest = [];
  let item = null;
  let inList = false;
  let subliminals = 0;
  let messages = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!inList) {
      rest.push(line);
      if (line === '  "saved_subliminals": [') inList = true;
    } else if (line.startsWith('  ]')) {
      rest.push(line);
      inList = false;
    } else if (line === '    {') item = [line];
    else if (line === '    }' || line === '    },') {
      const subliminal = subliminalSchema.parse(JSON.parse([...item, '    }'].join('\n')));
      subliminals++;
      messages += subliminal.playlist.length;
      item = null;
    } else if (item) item.push(line);
    else throw new Error(`an unexpected line in the saved subliminals: ${line.slice(0, 80)}`);
  }
  const sections = userExportSchema.parse(JSON.parse(rest.join('\n')));
  return {
    subliminals,
    messages,
    ownMessages: sections.own_categories.reduce((sum, c) => sum + c.messages.length, 0),
    sections,
  };
}

async function cleanUp() {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
  }
  if (database) await dropDatabase(process.env.DATABASE_URL, database);
  rmSync(work, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

try {
  const contract = await loadContract();
  if (process.env.DATABASE_URL) {
    database = `innerwave_bench_export_${process.pid}`;
    env.DATABASE_URL = await createDatabase(process.env.DATABASE_URL, database);
  } else delete env.DATABASE_URL;

  admin(env.DATA_DIR, ['create-staff', '--email', EMAIL], `${PASSWORD}\n`, env.DATABASE_URL);
  admin(env.DATA_DIR, ['set-plan', EMAIL, 'pro'], undefined, env.DATABASE_URL);
  const filling = performance.now();
  if (database) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    await fill((sql, params) => client.query(sql, params));
    await client.end();
  } else {
    // The embedded database is the primary's once it runs: filled before, as the admin CLI is run.
    const db = await PGlite.create({ dataDir: path.join(env.DATA_DIR, 'db') });
    await fill((sql, params) => db.query(sql, params));
    await db.close();
  }
  console.log(`filled in ${((performance.now() - filling) / 1000).toFixed(0)} s`);

  const port = Number(args.port ?? (await freePort()));
  const origin = `http://127.0.0.1:${port}`;
  const serverLog = path.join(work, 'server.log');
  server = spawn(process.execPath, startArgs(), {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', openSync(serverLog, 'w'), 'inherit'],
  });
  // A first start after a change builds the web app and the server first (`npm start` does).
  await waitForHealth(origin, server).catch(() => waitForHealth(origin, server));
  // A first start builds the seeded audio library in the primary (a minute of CPU): measured beside it, the
  // primary's memory and the times would be the build's.
  for (let waited = 0; !readFileSync(serverLog, 'utf8').includes('seed: audio library ready'); waited += 500) {
    if (waited > 600_000) throw new Error('the seeded audio library was not ready after 10 minutes');
    await sleep(500);
  }
  const login = await fetch(`${origin}/api/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const { access } = await login.json();

  await sleep(2000);
  const pids = serverPids();
  const idle = new Map(pids.map((pid) => [pid, rssOf(pid)]));
  const peak = new Map(idle);
  const cpuBefore = new Map(pids.map((pid) => [pid, cpuTicksOf(pid)]));
  // The worker's pool keeps its connections open: the backends at the start are the ones the export reads through.
  const backends = database ? await backendsOf(process.env.DATABASE_URL, database) : [];
  const nsBefore = new Map([...pids, ...backends].map((pid) => [pid, cpuNsOf(pid)]));
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const pid of pids) peak.set(pid, Math.max(peak.get(pid), rssOf(pid)));
      await sleep(SAMPLE_MS);
    }
  })();
  const file = path.join(work, 'export.json');
  const result = await download(origin, access, file).finally(() => (sampling = false));
  const cpuMs = new Map([...pids, ...backends].map((pid) => [pid, (cpuNsOf(pid) - nsBefore.get(pid)) / 1e6]));
  await sampler;
  if (result.status !== 200)
    throw new Error(`the export answered ${result.status}: ${readFileSync(file, 'utf8').slice(0, 500)}`);
  const [, ...workers] = pids;
  const served = workers.reduce((best, pid) =>
    cpuTicksOf(pid) - cpuBefore.get(pid) > cpuTicksOf(best) - cpuBefore.get(best) ? pid : best,
  );
  const checked = await checkFile(file, contract);
  if (checked.subliminals !== SUBLIMINALS || checked.messages !== SUBLIMINALS * MESSAGES)
    throw new Error(`the file holds ${checked.subliminals} subliminals of ${checked.messages} messages in all`);
  const { listening_history: history } = checked.sections.guidance;
  if (history.length !== HISTORY || checked.sections.deleted_own_music.length !== DELETED_TRACKS)
    throw new Error(
      `the file holds ${history.length} sessions and ${checked.sections.deleted_own_music.length} deleted tracks`,
    );
  if (statSync(file).size !== result.bytes) throw new Error('the file is not the bytes received');

  const mb = (bytes) => (bytes / 1e6).toFixed(0);
  const row = {
    database: database ? 'PostgreSQL' : 'embedded',
    subliminals: SUBLIMINALS,
    messages: MESSAGES,
    history: HISTORY,
    'client kbit/s': CLIENT_KBPS || '—',
    'file MB': (result.bytes / 1e6).toFixed(1),
    'first byte ms': result.firstByteMs.toFixed(0),
    'total s': (result.totalMs / 1000).toFixed(1),
    'worker RSS MB idle→peak': `${mb(idle.get(served))}→${mb(peak.get(served))}`,
    'primary RSS MB idle→peak': `${mb(idle.get(server.pid))}→${mb(peak.get(server.pid))}`,
    'worker CPU ms': cpuMs.get(served).toFixed(0),
    'primary CPU ms': cpuMs.get(server.pid).toFixed(0),
    ...(database && { 'PostgreSQL CPU ms': backends.reduce((sum, pid) => sum + cpuMs.get(pid), 0).toFixed(0) }),
  };
  console.log(
    `\nThe export (${result.headers['content-type']}; ${result.headers['content-disposition']}) parses and matches the contract: ` +
      `${checked.subliminals} saved subliminals of ${checked.messages} messages, ${checked.ownMessages} own messages, ` +
      `${history.length} sessions of history, ${checked.sections.deleted_own_music.length} deleted tracks.`,
  );
  if (args.backup) {
    // `npm run backup` of this data, taken by the running server (docs/decisions/128-a-backup-of-the-embedded-database-and-the-media.md).
    const backupFile = path.join(work, 'backup.tar.gz');
    const started = performance.now();
    const backup = spawn(process.execPath, ['--import', 'tsx', 'src/server/backup/cli.ts', 'backup', backupFile], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await new Promise((resolve) => backup.once('exit', resolve));
    if (code !== 0) throw new Error(`npm run backup exited with ${code}`);
    row['backup s'] = ((performance.now() - started) / 1000).toFixed(1);
    row['backup MB'] = (statSync(backupFile).size / 1e6).toFixed(1);
  }
  console.table([row]);
  if (args.json)
    writeFileSync(args.json, `${JSON.stringify({ ...row, result, idle: [...idle], peak: [...peak] }, null, 2)}\n`);
} finally {
  await cleanUp();
}
