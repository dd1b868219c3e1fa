import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createContext } from '../context';
import { createTestPostgresDatabase } from '../test/database';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { openPostgres, type Database } from './client';

/** A TCP proxy in front of PostgreSQL that the test can cut (every connection dropped, new ones refused) and restore. */
function startProxy(target: URL): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        cut() {
          open = false;
          for (const socket of sockets) socket.destroy();
        },
        restore() {
          open = true;
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

// While PostgreSQL cannot be reached, every call that needs it answers 503 with Retry-After, fast; once
// it is back, the same process serves again without a restart.
describe.runIf(inject('dbKind') === 'postgres')('database outage', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let database: Database;
  let drop: () => Promise<void>;
  let app: FastifyInstance;
  let user: SignedInUser;
  const logged: string[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-outage-'));

  beforeAll(async () => {
    const created = await createTestPostgresDatabase();
    drop = created.drop;
    const target = new URL(created.url);
    proxy = await startProxy(target);
    const viaProxy = new URL(created.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    // As a server worker opens it: connections kept open, all cut by the outage.
    database = await openPostgres(viaProxy.toString(), { keepOpen: 2 });
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      RETRY_AFTER_SECONDS: '7',
    });
    const ctx = createContext(config, database);
    // What the server says of each 503 (at warn): the failure it answered.
    app = await buildApp(ctx, { logger: { level: 'warn', stream: { write: (line: string) => logged.push(line) } } });
    await app.ready();
    user = await signedInUser(ctx);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await proxy.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const me = () => app.inject({ method: 'GET', url: '/api/users/me/', headers: user.headers });
  const profile = () => app.inject({ method: 'GET', url: '/api/user/profile/', headers: user.headers });

  it('answers 503 with Retry-After during the outage and recovers by itself', async () => {
    expect((await me()).statusCode).toBe(200);
    expect((await profile()).statusCode).toBe(200);
    proxy.cut();
    // What a worker keeps in memory (the session, the profile just read) still answers.
    expect((await profile()).statusCode).toBe(200);
    for (const call of [
      me,
      () =>
        app.inject({
          method: 'POST',
          url: '/api/jwt/create/',
          payload: { email: user.email, password: user.password },
        }),
    ]) {
      logged.length = 0;
      const down = await call();
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBe('7');
      expect(down.json()).toEqual({ detail: 'Service temporarily unavailable, try again later.' });
      // Fast: answered from the connection refused, not after the pool's wait for one (5 s, db/client.ts), which is
      // told by what failed rather than by a clock a loaded machine can exceed either way.
      const answered = logged.map((line) => JSON.parse(line) as { msg: string; err?: { message: string } });
      const failures = answered.filter((entry) => entry.msg === 'database unavailable');
      expect(failures).toHaveLength(1);
      expect(failures[0]!.err?.message).not.toMatch(/timeout/i);
    }
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);

    proxy.restore();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = (await me()).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 60_000);
});
