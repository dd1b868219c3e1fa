import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '@shared/contract';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createContext } from '../context';
import type { CallHandler, PrimaryChannel } from '../cluster/ipc';
import { clusterRateLimits, rateLimitCallHandlers } from '../cluster/rate-limit-store';
import { fromPrimary, type Database } from '../db/client';
import { pgliteCallHandlers } from '../db/pglite-owner';
import { remoteJobQueue } from '../jobs/runner';
import { createTestDatabase } from '../test/database';
import { testEnv } from '../test/test-app';
import { signedInUser } from '../test/fixtures';

// A worker's login as the primary sees it: every call of one turn of the event loop crosses as one
// message (as the cluster's channel batches them), so the messages are the trips a login costs.
function recordingChannel(handlers: Record<string, CallHandler>) {
  const messages: string[][] = [];
  let turn: Array<() => void> | undefined;
  let methods: string[] = [];
  let pending = 0;
  const channel: PrimaryChannel = {
    call<T>(method: string, params: unknown) {
      pending++;
      if (!turn) {
        const calls: Array<() => void> = (turn = []);
        methods = [];
        messages.push(methods);
        setImmediate(() => {
          turn = undefined;
          for (const run of calls) run();
        });
      }
      methods.push(method);
      return new Promise<T>((resolve, reject) =>
        turn!.push(() =>
          Promise.resolve(handlers[method]!(structuredClone(params) as never, { id: 1, isDead: () => false } as never))
            .then((result) => resolve(structuredClone(result) as T), reject)
            .finally(() => pending--),
        ),
      );
    },
    onNotice: () => undefined,
    pending: () => pending,
  };
  return { channel, messages };
}

describe.runIf(inject('dbKind') === 'pglite')("a login's trips from a worker to the primary", () => {
  let owner: Database;
  let dataDir: string;
  beforeAll(async () => {
    owner = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-test-'));
  });
  afterAll(async () => {
    await owner.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("are three: the three counters, the account, then the session with the account's attempts given back", async () => {
    const handlers = { ...pgliteCallHandlers(owner.pglite!, 300).handlers, ...rateLimitCallHandlers() };
    const { channel, messages } = recordingChannel(handlers);
    // As in a worker: its counters and jobs are the primary's.
    const ctx = createContext(loadConfig(testEnv(dataDir)), fromPrimary(channel), {
      rateLimits: clusterRateLimits(channel),
      jobs: remoteJobQueue(() => undefined),
    });
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    try {
      const user = await signedInUser(ctx);
      messages.length = 0;
      const login = await app.inject({
        method: 'POST',
        url: API.tokenCreate,
        payload: { email: user.email, password: user.password },
      });
      expect(login.statusCode).toBe(200);
      expect(messages).toEqual([
        ['rateLimit.incr', 'rateLimit.incr', 'rateLimit.incr'],
        ['db.query'],
        expect.any(Array),
      ]);
      expect([...messages[2]!].sort()).toEqual(['db.query', 'rateLimit.refund', 'rateLimit.refund']);
    } finally {
      await app.close();
    }
  });
});
