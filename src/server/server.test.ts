import { spawn, spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import {
  ADMIN_API,
  adminBackupStatusSchema,
  API,
  currentUserSchema,
  messageCategoryListSchema,
  profileSchema,
  tokenPairSchema,
} from '@shared/contract';
import { unusedPort } from './test/ports';
import { nextTimeOfDay, scheduledBackupName } from './backup/schedule';
import { FILE_POOL_THREADS, passwordHashingShare } from './auth/password-hashing-share';

// The process as `npm start` runs it; once is enough, so only in the PGlite project.
describe.skipIf(inject('dbKind') !== 'pglite')('server process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-server-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves, then on SIGTERM finishes within its grace period, releases the data folder and exits 0', async () => {
    const port = await unusedPort();
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'server.ts')], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        SHUTDOWN_GRACE_SECONDS: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Also when the test times out: its body then never reaches its own clean-up, and the server
    // with its workers would outlive the test run.
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    try {
      let healthy = false;
      // Until it answers or ends, within the test's time: the first open of a PGlite folder is slow on a loaded
      // machine, and 300 looks (60 s and their calls) ran out at a load of 20 before the server was up.
      while (!healthy && child.exitCode === null) {
        healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (res) => res.ok,
          () => false,
        );
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(healthy, output).toBe(true);
      expect(existsSync(path.join(dataDir, 'innerwave.lock'))).toBe(true);

      // A request whose body stalls half-way must not hold the shutdown past its grace period.
      const stalled = connect(port, '127.0.0.1');
      stalled.on('error', () => undefined);
      await new Promise((resolve) => stalled.on('connect', resolve));
      stalled.write(
        'POST /api/users/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email": "sl',
      );
      await new Promise((resolve) => setTimeout(resolve, 200));

      const signalled = Date.now();
      child.kill('SIGTERM');
      // Its end is the event: a shutdown the stalled body held would never come, and the test would run out of its
      // time. The clock tells only that it waited for its grace, which a loaded machine cannot shorten; a bound above
      // (6 s) was a loaded machine's to exceed with the workers' own exits.
      expect(await exited, output).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1800);
      expect(stalled.destroyed || stalled.readableEnded).toBe(true);
      expect(existsSync(path.join(dataDir, 'innerwave.lock'))).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);

  it('shares one state across its workers (limits count once; a logout, signing out everywhere else, a plan or a new category reach every worker before the answer) and replaces a worker that dies', async () => {
    const clusterDir = mkdtempSync(path.join(tmpdir(), 'innerwave-cluster-'));
    const port = await unusedPort();
    const env = {
      PATH: process.env.PATH,
      DATA_DIR: clusterDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      WEB_CONCURRENCY: '2',
      AUTH_RATE_LIMIT_PER_EMAIL: '3',
      BACKUP_DIR: path.join(clusterDir, 'backups'),
      BACKUP_AT: '03:00',
    };
    const recentBackup = path.join(env.BACKUP_DIR, scheduledBackupName(new Date()));
    mkdirSync(env.BACKUP_DIR);
    writeFileSync(recentBackup, 'taken just now');
    const email = 'staff@cluster.example';
    const password = 'Granite-Willow-Compass-71';
    const created = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.resolve(import.meta.dirname, 'admin/cli.ts'), 'create-staff', '--email', email],
      { env, input: `${password}\n`, encoding: 'utf8' },
    );
    expect(created.status, created.stderr).toBe(0);
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'server.ts')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Also when the test times out: its body then never reaches its own clean-up, and the server
    // with its workers would outlive the test run.
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));

    // Every call on a new connection: the primary hands connections to the workers in turn, so a run
    // of calls reaches each worker.
    const call = (method: string, url: string, options: { token?: string; body?: unknown } = {}) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method,
            path: url,
            agent: false,
            headers: {
              ...(payload && { 'content-type': 'application/json' }),
              ...(options.token && { authorization: `Bearer ${options.token}` }),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    const everywhere = async (method: string, url: string, token: string) =>
      Promise.all(Array.from({ length: 6 }, () => call(method, url, { token })));

    try {
      let healthy = false;
      for (let attempt = 0; attempt < 300 && !healthy && child.exitCode === null; attempt++) {
        healthy = await call('GET', API.health).then(
          (res) => res.status === 200,
          () => false,
        );
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(healthy, output).toBe(true);

      // Four wrong passwords for one account, over connections that land on both workers: the fourth is refused.
      const attempts = [];
      for (let i = 0; i < 4; i++)
        attempts.push(
          (
            await call('POST', API.tokenCreate, {
              body: { email: 'someone@cluster.example', password: 'Wrong-Password-1' },
            })
          ).status,
        );
      expect(attempts).toEqual([401, 401, 401, 429]);

      const first = tokenPairSchema.parse((await call('POST', API.tokenCreate, { body: { email, password } })).body);
      const second = tokenPairSchema.parse((await call('POST', API.tokenCreate, { body: { email, password } })).body);
      // A login that succeeds gives its attempt back, in the primary's counters: more logins than the limit.
      for (let i = 0; i < 2; i++)
        expect((await call('POST', API.tokenCreate, { body: { email, password } })).status).toBe(200);
      for (const res of await everywhere('GET', API.profile, first.access))
        expect(profileSchema.parse(res.body).subscription_plan).toBe('basic');
      await everywhere('GET', API.messageCategories, first.access);

      // Written through a transaction the primary holds for one worker.
      const me = currentUserSchema.parse((await call('GET', API.me, { token: first.access })).body);
      expect(
        (
          await call('PATCH', ADMIN_API.user.replace(':id', String(me.id)), {
            token: first.access,
            body: { subscription_plan: 'pro' },
          })
        ).status,
      ).toBe(200);
      for (const res of await everywhere('GET', API.profile, second.access))
        expect(profileSchema.parse(res.body).subscription_plan).toBe('pro');

      expect(
        (await call('POST', ADMIN_API.categories, { token: first.access, body: { name: 'Cluster calm' } })).status,
      ).toBe(201);
      for (const res of await everywhere('GET', API.messageCategories, second.access))
        expect(messageCategoryListSchema.parse(res.body).map((c) => c.name)).toContain('Cluster calm');

      // The backups' state, from the primary that runs their schedule, whichever worker answers (decision 154): the
      // folder's backup taken at the start, so none is due before the next 03:00 UTC.
      for (const res of await everywhere('GET', ADMIN_API.backups, first.access))
        expect(adminBackupStatusSchema.parse(res.body)).toMatchObject({
          database: 'embedded',
          scheduled: true,
          at: '03:00',
          last: { name: path.basename(recentBackup) },
          last_failure: null,
          next_at: nextTimeOfDay('03:00', new Date()).toISOString(),
        });

      expect((await call('POST', API.logout, { token: first.access })).status).toBe(204);
      for (const res of await everywhere('GET', API.profile, first.access)) expect(res.status).toBe(401);
      for (const res of await everywhere('GET', API.profile, second.access)) expect(res.status).toBe(200);
      // Signing out everywhere else: the other session is refused by every worker from the answer on.
      const third = tokenPairSchema.parse((await call('POST', API.tokenCreate, { body: { email, password } })).body);
      for (const res of await everywhere('GET', API.profile, third.access)) expect(res.status).toBe(200);
      const signedOut = await call('POST', API.logoutOthers, {
        token: second.access,
        body: { current_password: password },
      });
      expect(signedOut.status).toBe(200);
      for (const res of await everywhere('GET', API.profile, third.access)) expect(res.status).toBe(401);
      for (const res of await everywhere('GET', API.profile, second.access)) expect(res.status).toBe(200);

      // A worker killed outright is replaced, and the server keeps answering meanwhile. Workers only:
      // tsx's esbuild service can be a child of the primary too.
      const workers = () =>
        spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
          .stdout.split(/\s+/)
          .filter((pid) => {
            try {
              return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server.ts');
            } catch {
              return false; // gone meanwhile
            }
          });
      const [victim] = workers();
      expect(workers()).toHaveLength(2);
      process.kill(Number(victim), 'SIGKILL');
      for (let attempt = 0; attempt < 100 && (workers().includes(victim!) || workers().length < 2); attempt++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(workers()).toHaveLength(2);
      expect(workers()).not.toContain(victim);
      // A worker's thread pool holds its share of password hashes beside libuv's four threads for files.
      const poolSize = `UV_THREADPOOL_SIZE=${FILE_POOL_THREADS + passwordHashingShare(2)}`;
      for (const pid of workers()) expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain(poolSize);
      for (const res of await everywhere('GET', API.profile, second.access)) expect(res.status).toBe(200);

      child.kill('SIGTERM');
      expect(await new Promise((resolve) => child.on('exit', resolve)), output).toBe(0);
      expect(existsSync(path.join(clusterDir, 'innerwave.lock'))).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(clusterDir, { recursive: true, force: true });
    }
  }, 120_000);
});
