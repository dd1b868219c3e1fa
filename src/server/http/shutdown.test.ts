import { connect, type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { FastifyPluginAsync } from 'fastify';
import { createTestApp, type TestApp } from '../test/test-app';
import { closeWithDeadline } from './shutdown';

describe('shutdown', () => {
  it('lets a handler whose client hung up finish its database work before it returns', async () => {
    const finished: string[] = [];
    const running: { app?: TestApp } = {};
    // The handler has the call, and does its database work once its client is gone and the server closing: each
    // waited for as it happens, where fixed waits (100 ms, 400 ms) can pass each other on a busy machine (decision 098).
    let entered = () => undefined as void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    let closeBegins = () => undefined as void;
    const closeBegun = new Promise<void>((resolve) => (closeBegins = resolve));
    const slow: FastifyPluginAsync = async (app) => {
      app.get('/api/probe/slow/', async () => {
        entered();
        await closeBegun;
        await running.app?.database.db.execute(sql`select 1`);
        finished.push('query done');
        return { ok: true };
      });
    };
    const t = await createTestApp({}, { plugins: [slow] });
    running.app = t;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write('GET /api/probe/slow/ HTTP/1.1\r\nHost: x\r\n\r\n');
    await inHandler;
    socket.destroy();

    const shutdown = closeWithDeadline(t.app, 5000);
    closeBegins();
    const { forced } = await shutdown;
    expect(forced).toBe(false);
    // Only now may the database go away: the handler has done its work.
    expect(finished).toEqual(['query done']);
    await t.close();
    // It makes and closes its own app: a hook's time (52 s at a load of 28 beside six other test files).
  }, 60_000);
});
