import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { hash, hashSync } from '@node-rs/argon2';
import path from 'node:path';
import { ROOT, startArgs } from '../scripts/build-state.mjs';
import { backendsOf, createDatabase, dropDatabase } from './app-calls.mjs';
import { freePort } from './free-port.mjs';
import { ensureDebianPackages } from '../scripts/debian-packages.mjs';

// `npm run bench:api [-- --rounds=3] [--duration=10s]`: starts Innerwave as `npm start` does (temporary
// data folder; on PostgreSQL in a database of its own when DATABASE_URL is set), loads 10 categories
// × 50 messages, and measures the hottest calls with wrk against nginx serving the same bytes from a
// file and bare Fastify answering them (the framework's ceiling on this machine), in alternating rounds
// (medians), then a login storm with /api/health sampled beside it.
// Prints one table, with the server's CPU time per request (its own cost, steadier than req/s on a shared
// machine), and a login's CPU split between the workers' other threads (argon2id on libuv's pool), their main threads and the
// primary, and how much CPU processes outside the measurement took (a round with much of it is noise).
// Not a timed test: run it on a quiet machine. `--profile=DIR`: every server process (primary
// and workers) writes a V8 CPU profile into DIR when it stops (open it in Chrome's DevTools).
// `--calls=profile,refresh` (of categories, profile, refresh): only those before the login storm, which
// always runs (`--calls=` for the storm alone, e.g. to profile a login).

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const rounds = Math.max(1, Number(args.rounds ?? 3));
const duration = args.duration ?? '10s';
const chosenCalls = (args.calls ?? 'categories,profile,refresh').split(',');
const WRK = ['-t2', '-c32', `-d${duration}`, '--latency'];
const PASSWORD = 'Bench-Quiet-Harbour-58';
const EMAIL = 'bench@bench.innerwave.test';

ensureDebianPackages([
  { path: '/usr/sbin/nginx', pkg: 'nginx-light' },
  { path: '/usr/bin/wrk', pkg: 'wrk' },
]);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

/** wrk's text output: requests per second, latency percentiles in ms, non-2xx answers and socket errors. */
export function parseWrk(text) {
  const ms = (value, unit) => Number(value) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit];
  const percentile = (p) => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)`, 'm').exec(text);
    return match ? ms(match[1], match[2]) : NaN;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in /.exec(text)?.[1] ?? NaN),
    p50: percentile(50),
    p99: percentile(99),
    errors:
      Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0) +
      (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
  };
}

/**
 * The last MiB of a log: the server writes a line per request, and a fast machine's rounds make more
 * than a string can hold (512 MB); the lines read here are the last ones written.
 */
function logTail(file, bytes = 1 << 20) {
  const fd = openSync(file, 'r');
  try {
    const start = Math.max(0, fstatSync(fd).size - bytes);
    const buffer = Buffer.alloc(bytes);
    const text = buffer.toString('utf8', 0, readSync(fd, buffer, 0, bytes, start));
    // The first line may be cut: from the middle of the file, it starts after the first line break.
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
}

/** Runs wrk without blocking this process, so the health sampler and RSS readings go on meanwhile. */
function wrk(url, { script, headers = {} } = {}) {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', [...WRK, ...headerArgs, ...(script ? ['-s', script] : []), url]);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => (code === 0 ? resolve(parseWrk(out)) : reject(new Error(`wrk failed: ${err}`))));
  });
}

/** Waits until `url` answers 200, for at most `ms`; a `child` that exits meanwhile is an error at once. */
async function answering(url, child, ms) {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(250)) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
  }
  throw new Error(`${url} did not answer within ${ms / 1000} s`);
}

const work = mkdtempSync(path.join(tmpdir(), 'innerwave-bench-api-'));
const children = [];
let database;
async function cleanUp() {
  // The server writes its data folder until it has stopped (PGlite closes last): wait for that before removing it.
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of running) child.kill('SIGTERM');
  await Promise.race([Promise.all(exited), sleep(15_000)]);
  if (database) await dropDatabase(process.env.DATABASE_URL, database);
  rmSync(work, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

try {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATA_DIR: path.join(work, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789',
    // Production's logging (one line per request), written to a file as a service manager would.
    LOG_LEVEL: 'info',
    AUTH_RATE_LIMIT_PER_ADDRESS: '100000000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000000',
  };
  if (process.env.DATABASE_URL) {
    database = `innerwave_bench_${process.pid}`;
    env.DATABASE_URL = await createDatabase(process.env.DATABASE_URL, database);
  }

  // The bench user is a staff user made by the CLI before the server holds the data folder.
  const created = spawnSync(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    ['src/server/admin/cli.ts', 'create-staff', '--email', EMAIL],
    { cwd: ROOT, env, input: `${PASSWORD}\n`, encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`create-staff failed: ${created.stderr}`);

  const serverLog = path.join(work, 'server.log');
  const logFile = openSync(serverLog, 'w');
  // Cluster workers inherit the primary's flags, so each writes its own profile.
  const profileFlags = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [];
  const server = spawn(process.execPath, [...profileFlags, ...startArgs()], {
    cwd: ROOT,
    env,
    stdio: ['ignore', logFile, 'inherit'],
  });
  children.push(server);
  await answering(`${origin}/api/health`, server, 120_000);
  /** A call of the set-up; a 503 (the server still busy starting) is tried again after its Retry-After. */
  const call = async (url, init = {}) => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${origin}${url}`, init);
      if (response.status !== 503 || attempt === 10) return response;
      await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
    }
  };
  const post = (url, body, headers = {}) =>
    call(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const tokens = await (await post('/api/jwt/create/', { email: EMAIL, password: PASSWORD })).json();
  const auth = { authorization: `Bearer ${tokens.access}` };

  // Exactly 10 categories of 50 messages: the seeded ones are removed first.
  const existing = await (await call('/api/admin/message-categories/', { headers: auth })).json();
  for (const category of existing)
    await call(`/api/admin/message-categories/${category.id}/`, { method: 'DELETE', headers: auth });
  const categories = Array.from({ length: 10 }, (_, c) => ({
    name: `Bench category ${c + 1}`,
    messages: Array.from(
      { length: 50 },
      (_, m) => `I take one calm, steady breath and let message ${m + 1} of category ${c + 1} settle in.`,
    ),
  }));
  const imported = await post('/api/admin/message-categories/import/', { categories }, auth);
  if (!imported.ok) throw new Error(`import failed: ${imported.status} ${await imported.text()}`);

  // nginx serves the same bytes: the categories answer, and files as large as the profile and refresh answers.
  const bodies = {
    'categories.json': Buffer.from(
      await (await call('/api/user/message-categories/', { headers: auth })).arrayBuffer(),
    ),
    'profile.json': Buffer.alloc(
      (await (await call('/api/user/profile/', { headers: auth })).arrayBuffer()).byteLength,
      0x61,
    ),
    'refresh.json': Buffer.alloc(
      (await (await post('/api/jwt/refresh/', { refresh: tokens.refresh })).arrayBuffer()).byteLength,
      0x61,
    ),
  };
  const www = path.join(work, 'www');
  spawnSync('mkdir', ['-p', www, path.join(work, 'nginx/logs')]);
  for (const [name, bytes] of Object.entries(bodies)) writeFileSync(path.join(www, name), bytes);
  const nginxPort = await freePort();
  writeFileSync(
    path.join(work, 'nginx.conf'),
    `worker_processes auto; daemon off; pid ${work}/nginx/nginx.pid; error_log ${work}/nginx/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000; default_type application/json;
  client_body_temp_path ${work}/nginx; proxy_temp_path ${work}/nginx; fastcgi_temp_path ${work}/nginx; uwsgi_temp_path ${work}/nginx; scgi_temp_path ${work}/nginx;
  server { listen 127.0.0.1:${nginxPort}; root ${www}; } }\n`,
  );
  const nginx = spawn('/usr/sbin/nginx', ['-c', path.join(work, 'nginx.conf'), '-p', path.join(work, 'nginx')], {
    stdio: 'inherit',
  });
  children.push(nginx);
  // The framework's ceiling: bare Fastify, one worker per core, answering the same bytes to the same requests.
  const barePort = await freePort();
  const bare = spawn(process.execPath, [path.join(ROOT, 'bench/bare-fastify.mjs'), String(barePort), www], {
    stdio: 'inherit',
  });
  children.push(bare);
  await answering(`http://127.0.0.1:${barePort}/profile.json`, bare, 10_000);

  const luaPost = (name, body, headers = {}) => {
    const file = path.join(work, `${name}.lua`);
    const headerLines = Object.entries({ 'Content-Type': 'application/json', ...headers })
      .map(([k, v]) => `wrk.headers["${k}"] = "${v}"`)
      .join('\n');
    writeFileSync(file, `wrk.method = "POST"\nwrk.body = '${JSON.stringify(body)}'\n${headerLines}\n`);
    return file;
  };
  const calls = [
    {
      key: 'categories',
      name: 'GET /api/user/message-categories/',
      app: () => wrk(`${origin}/api/user/message-categories/`, { headers: auth }),
      bare: () => wrk(`http://127.0.0.1:${barePort}/categories.json`, { headers: auth }),
      nginx: 'categories.json',
    },
    {
      key: 'profile',
      name: 'GET /api/user/profile/',
      app: () => wrk(`${origin}/api/user/profile/`, { headers: auth }),
      bare: () => wrk(`http://127.0.0.1:${barePort}/profile.json`, { headers: auth }),
      nginx: 'profile.json',
    },
    {
      key: 'refresh',
      name: 'POST /api/jwt/refresh/',
      app: () => wrk(`${origin}/api/jwt/refresh/`, { script: luaPost('refresh', { refresh: tokens.refresh }) }),
      bare: () =>
        wrk(`http://127.0.0.1:${barePort}/refresh.json`, { script: luaPost('refresh', { refresh: tokens.refresh }) }),
      nginx: 'refresh.json',
    },
  ].filter((call) => chosenCalls.includes(call.key));
  // The primary and its workers; resident memory of each. Read from /proc, not by spawning pgrep: a
  // spawnSync every half second blocked this process (and so the health samples of the login storm)
  // for up to 24 ms each time on a busy machine.
  const workerPids = () =>
    readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8')
      .split(/\s+/)
      .filter((p) => p && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('start.mjs'));
  const rss = (p) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const serverPids = () => [String(server.pid), ...workerPids()];
  const rssOf = () => serverPids().map(rss);
  // CPU time of the primary and its workers, every thread (user + system, in clock ticks of 10 ms). Per
  // request it is the server's own cost, which moves far less with the machine's other load than req/s.
  /** Clock ticks (10 ms) of user and system time in a /proc/<pid>/stat line, and of its reaped children's. */
  const statTicks = (stat, withReaped = false) => {
    const fields = stat.split(') ')[1].split(' ');
    return [11, 12, ...(withReaped ? [13, 14] : [])].reduce((sum, i) => sum + Number(fields[i]), 0);
  };
  const cpuMs = (p) => statTicks(readFileSync(`/proc/${p}/stat`, 'utf8')) * 10;
  const serverCpuMs = () => serverPids().reduce((sum, p) => sum + cpuMs(p), 0);
  // The same per thread, in three parts, and PostgreSQL's backends serving the app: where a login's time
  // goes besides the hash.
  const threadCpuMs = (backends = []) => {
    const parts = { workerOther: 0, workerMain: 0, primary: 0, postgres: 0 };
    for (const backend of backends) {
      try {
        parts.postgres += cpuMs(backend);
      } catch {
        // A backend that ended meanwhile.
      }
    }
    for (const p of serverPids())
      for (const thread of readdirSync(`/proc/${p}/task`)) {
        let ms = 0;
        try {
          ms = cpuMs(`${p}/task/${thread}`);
        } catch {
          // A thread that ended between the listing and the reading.
        }
        if (p === String(server.pid)) parts.primary += ms;
        else parts[thread === p ? 'workerMain' : 'workerOther'] += ms;
      }
    return parts;
  };
  // CPU the machine gave processes outside the measurement (seen here: RabbitMQ booting a second Erlang VM
  // in the middle of a round, khugepaged). A round with much of it measured the machine, not Innerwave.
  // Ours: the server, this bench with the wrk runs it reaped, nginx and PostgreSQL (with the backends its
  // postmaster reaped). Machine: user, nice and system time of every core (/proc/stat); interrupts left out.
  const cpuSnapshot = () => {
    const server = new Set(serverPids());
    let ours = 0;
    for (const p of readdirSync('/proc')) {
      if (!/^\d+$/.test(p)) continue;
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (server.has(p) || p === String(process.pid) || comm === 'nginx' || comm === 'postgres')
          ours += statTicks(stat, true);
      } catch {
        // A process that ended between the listing and the reading.
      }
    }
    const [user, nice, system] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
    return { at: performance.now(), machine: user + nice + system, ours };
  };
  /** The share of the machine's cores (%) that processes outside the measurement took since `before`. */
  const otherCpuSince = (before) => {
    const now = cpuSnapshot();
    const ticks = now.machine - before.machine - (now.ours - before.ours);
    return Math.max(0, (100 * ticks * 10) / ((now.at - before.at) * availableParallelism()));
  };
  /** Runs one round and adds the server's CPU time per request answered, in µs, and the other processes' CPU. */
  const measured = async (round) => {
    const before = serverCpuMs();
    const machineBefore = cpuSnapshot();
    const result = await round();
    return {
      ...result,
      cpuUs: ((serverCpuMs() - before) * 1000) / result.requests,
      otherCpu: otherCpuSince(machineBefore),
    };
  };
  // A first start on a machine builds the seeded audio library in the primary (half a minute of CPU and
  // hundreds of MB here): measured beside it, the first rounds and the idle memory were the build's.
  for (let waited = 0; !readFileSync(serverLog, 'utf8').includes('seed: audio library ready'); waited += 500) {
    if (waited === 0) console.log('waiting for the seeded audio library to be built…');
    if (waited > 300_000) throw new Error('the seeded audio library was not ready after 5 minutes');
    await sleep(500);
  }
  // Idle: after start-up and the set-up calls, before any load. Peak: sampled through every round.
  await sleep(2000);
  const idleRss = rssOf();
  let peakRss = idleRss;
  const rssTimer = setInterval(() => {
    const now = rssOf();
    peakRss = now.map((value, i) => Math.max(value, peakRss[i] ?? 0));
  }, 500);

  const rows = [];
  for (const call of calls) {
    const app = [];
    const base = [];
    const framework = [];
    for (let round = 0; round < rounds; round++) {
      base.push(await measured(() => wrk(`http://127.0.0.1:${nginxPort}/${call.nginx}`)));
      framework.push(await call.bare());
      app.push(await measured(call.app));
    }
    const pick = (runs, key) => median(runs.map((run) => run[key]));
    rows.push({
      call: call.name,
      rps: pick(app, 'rps'),
      p50: pick(app, 'p50'),
      p99: pick(app, 'p99'),
      errors: pick(app, 'errors'),
      nginx: pick(base, 'rps'),
      bare: pick(framework, 'rps'),
      cpuUs: pick(app, 'cpuUs'),
      otherCpu: [Math.max(...app.map((run) => run.otherCpu)), Math.max(...base.map((run) => run.otherCpu))],
    });
  }

  // The login storm, with /api/health sampled every 50 ms beside it. Each worker logs its event loop's
  // longest delay on SIGUSR2: once to start counting, once after the storm.
  const reportLoopDelay = () => workerPids().forEach((p) => process.kill(Number(p), 'SIGUSR2'));
  const backends = database ? await backendsOf(process.env.DATABASE_URL, database) : [];
  reportLoopDelay();
  const health = [];
  let storming = true;
  const sampler = (async () => {
    while (storming) {
      const started = performance.now();
      await fetch(`${origin}/api/health`).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
      health.push(performance.now() - started);
      await sleep(50);
    }
  })();
  const threadsBefore = threadCpuMs(backends);
  const login = await measured(() =>
    wrk(`${origin}/api/jwt/create/`, { script: luaPost('login', { email: EMAIL, password: PASSWORD }) }),
  );
  const threadsAfter = threadCpuMs(backends);
  const loginSplit = Object.fromEntries(
    Object.keys(threadsAfter).map((part) => [part, (threadsAfter[part] - threadsBefore[part]) / login.requests]),
  );
  storming = false;
  reportLoopDelay();
  clearInterval(rssTimer);
  await sampler;
  await sleep(1000);
  const loopDelays = logTail(serverLog)
    .split('\n')
    .filter((line) => line.includes('"eventLoopDelay"'))
    .map((line) => JSON.parse(line).eventLoopDelay.maxMs)
    .slice(-workerPids().length);
  rows.push({
    call: 'POST /api/jwt/create/ (login)',
    rps: login.rps,
    p50: login.p50,
    p99: login.p99,
    errors: login.errors,
    nginx: NaN,
    bare: NaN,
    cpuUs: login.cpuUs,
    otherCpu: [login.otherCpu, NaN],
  });

  // What the cores allow for logins: cores ÷ the time of one hash with the product's parameters.
  const hashMs = median(
    Array.from({ length: 7 }, () => {
      const started = performance.now();
      hashSync(PASSWORD, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
      return performance.now() - started;
    }),
  );
  const loginCapacity = (availableParallelism() * 1000) / hashMs;
  // What the machine really does with one hash per core at once (memory-hard hashes share caches and
  // memory bandwidth, so cores rarely add up): hashes per second with nothing else running.
  const HASHES = 60;
  let hashed = 0;
  const parallelStarted = performance.now();
  const hashingMachine = cpuSnapshot();
  await Promise.all(
    Array.from({ length: availableParallelism() }, async () => {
      while (hashed < HASHES) {
        hashed++;
        await hash(PASSWORD, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
      }
    }),
  );
  const parallelCapacity = (HASHES * 1000) / (performance.now() - parallelStarted);
  const hashingOtherCpu = otherCpuSince(hashingMachine);

  const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
  console.log(
    `\nInnerwave on ${database ? 'PostgreSQL' : 'the embedded database'}; wrk ${WRK.join(' ')}; medians of ${rounds} alternating round(s)\n`,
  );
  console.log(
    '| call | req/s | p50 ms | p99 ms | errors | nginx req/s | ratio | bare Fastify req/s | of bare Fastify | server CPU µs/req | other processes, % of the cores (worst round: app · nginx) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const share = (part, whole) => (Number.isFinite(whole) ? (part / whole).toFixed(3) : '—');
  for (const row of rows) {
    console.log(
      `| ${row.call} | ${fmt(row.rps)} | ${fmt(row.p50, 1)} | ${fmt(row.p99, 1)} | ${fmt(row.errors)} | ${fmt(row.nginx)} | ${share(row.rps, row.nginx)} | ${fmt(row.bare)} | ${share(row.rps, row.bare)} | ${fmt(row.cpuUs)} | ${row.otherCpu.map((v) => fmt(v, 1)).join(' · ')} |`,
    );
  }
  console.log(
    `\nhealth during the login storm: p50 ${fmt(quantile(health, 0.5), 1)} ms, p99 ${fmt(quantile(health, 0.99), 1)} ms, max ${fmt(Math.max(...health), 1)} ms (${health.length} samples)`,
  );
  console.log(
    `event loop during the login storm, longest delay per worker: ${loopDelays.map((v) => `${fmt(v, 1)} ms`).join(', ')}`,
  );
  console.log(
    `login: ${fmt(login.rps)} req/s of the ${fmt(loginCapacity)} the cores allow (${availableParallelism()} cores ÷ ${fmt(hashMs, 1)} ms a hash): ${fmt((100 * login.rps) / loginCapacity)} %`,
  );
  console.log(
    `       ${fmt((100 * login.rps) / parallelCapacity)} % of the ${fmt(parallelCapacity)} hashes/s the machine does with ${availableParallelism()} at once and nothing else (other processes: ${fmt(hashingOtherCpu, 1)} % of the cores)`,
  );
  console.log(
    `       CPU a login: ${fmt(loginSplit.workerOther, 2)} ms in the workers' other threads (argon2id, GC), ${fmt(loginSplit.workerMain, 2)} ms in their main threads, ${fmt(loginSplit.primary, 2)} ms in the primary${database ? `, ${fmt(loginSplit.postgres, 2)} ms in PostgreSQL's backends` : ''}`,
  );
  console.log(
    `RSS (MB), primary then workers: idle ${idleRss.map((v) => fmt(v)).join(', ')}; peak under load ${peakRss.map((v) => fmt(v)).join(', ')}`,
  );
  if (args.json)
    writeFileSync(
      args.json,
      JSON.stringify(
        { rows, health, loopDelays, hashMs, loginCapacity, parallelCapacity, loginSplit, idleRss, peakRss },
        null,
        2,
      ),
    );
} finally {
  await cleanUp();
}
