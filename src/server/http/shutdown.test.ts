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
    const slow: FastifyPluginAsync = async (app) => {
      app.get('/api/probe/slow/', async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
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
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();

    const { forced } = await closeWithDeadline(t.app, 5000);
    expect(forced).toBe(false);
    // Only now may the database go away: the handler has done its work.
    expect(finished).toEqual(['query done']);
    await t.close();
  });
});
