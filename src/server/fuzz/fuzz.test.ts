import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { standInStripeEnv, startStripeStandIn, type StripeStandIn } from '../test/stripe-stand-in';
import { runFuzz } from './run';
import { fuzzTokens } from './target';

// Every route of the published contract, mutated at every layer a client controls, against a real
// listening server: no answer may be a 5xx and the server must keep answering.

const REQUESTS = 5000;

describe('fuzzing every route', () => {
  let t: TestApp;
  let baseUrl: string;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    // Billing configured (against the stand-in), so its calls are fuzzed past their 503.
    stripe = await startStripeStandIn({ webhookSecret: 'whsec_fuzz' });
    t = await createTestApp({
      ...standInStripeEnv(stripe.url, 'whsec_fuzz'),
      AUTH_RATE_LIMIT_PER_ADDRESS: '1000000',
      AUTH_RATE_LIMIT_PER_EMAIL: '1000000',
      MAX_APPLICATION_BYTES: String(64 * 1024),
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it(`answers ${REQUESTS} mutated requests without a 5xx`, { timeout: 240_000 }, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    const result = await runFuzz({ baseUrl, requests: REQUESTS, seed, tokens: await fuzzTokens(t.ctx) });
    expect(result.sent).toBeGreaterThanOrEqual(REQUESTS);
    // Authenticated routes were reached, not only refused at the door.
    expect(result.statuses[200] ?? 0).toBeGreaterThan(100);
    expect(result.failures, `seed ${seed}: ${JSON.stringify(result.failures.slice(0, 5), null, 1)}`).toEqual([]);
  });
});
