import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { createTestApp } from '../test/test-app';
import { loggerOptions } from './logger';

// TRUST_PROXY: behind the load balancer it names, rate limits and logs see the client's address from
// X-Forwarded-For; without it (or from an address it does not name) they see the socket's, whatever the
// header claims.

const PROXY = '10.0.0.5';

async function appWith(env: Record<string, string>) {
  const lines: Array<{ msg: string; req?: { ip?: string } }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as never);
      done();
    },
  });
  const t = await createTestApp(
    { AUTH_RATE_LIMIT_PER_ADDRESS: '2', AUTH_RATE_LIMIT_PER_EMAIL: '100', ...env },
    { logger: { ...(loggerOptions('info') as object), stream } },
  );
  let n = 0;
  const login = async (from: string, forwardedFor?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: API.tokenCreate,
      remoteAddress: from,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      payload: { email: `p${n++}@example.com`, password: 'Wrong-Password-1' },
    });
    return res.statusCode;
  };
  /** The address the last request's log line names. */
  const loggedIp = () => lines.filter((line) => line.msg === 'request').at(-1)?.req?.ip;
  return { t, login, loggedIp };
}

// Each wrong password is hashed at the lowest CPU priority: on a busy machine, slow.
describe('TRUST_PROXY', { timeout: 120_000 }, () => {
  it('as a hop count: the address the nearest proxy saw, in the log and the limits', async () => {
    const { t, login, loggedIp } = await appWith({ TRUST_PROXY: '1' });
    try {
      // The leftmost entry is whatever the client claimed; the proxy appended the address it saw.
      expect(await login(PROXY, '198.51.100.9, 203.0.113.7')).toBe(401);
      expect(loggedIp()).toBe('203.0.113.7');
      expect(await login(PROXY, '192.0.2.44, 203.0.113.7')).toBe(401);
      expect(await login(PROXY, '203.0.113.7')).toBe(429);
      // Another client behind the same proxy has attempts of its own.
      expect(await login(PROXY, '203.0.113.8')).toBe(401);
      expect(loggedIp()).toBe('203.0.113.8');
    } finally {
      await t.close();
    }
  });

  it("as the proxies' addresses: honoured only from them", async () => {
    const { t, login, loggedIp } = await appWith({ TRUST_PROXY: '10.0.0.0/8' });
    try {
      expect(await login(PROXY, '203.0.113.7')).toBe(401);
      expect(loggedIp()).toBe('203.0.113.7');
      // Straight from a client: its header is not believed.
      expect(await login('192.0.2.1', '203.0.113.7')).toBe(401);
      expect(loggedIp()).toBe('192.0.2.1');
    } finally {
      await t.close();
    }
  });

  it('unset: the socket address, whatever X-Forwarded-For claims', async () => {
    const { t, login, loggedIp } = await appWith({});
    try {
      expect(await login(PROXY, '203.0.113.7')).toBe(401);
      expect(loggedIp()).toBe(PROXY);
      expect(await login(PROXY, '203.0.113.8')).toBe(401);
      // Every client behind an untrusted proxy shares its address (so TRUST_PROXY must name it).
      expect(await login(PROXY, '203.0.113.9')).toBe(429);
    } finally {
      await t.close();
    }
  });
});
