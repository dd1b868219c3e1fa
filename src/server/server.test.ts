import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

// The process as `npm start` runs it; once is enough, so only in the PGlite project.
describe.skipIf(inject('dbKind') !== 'pglite')('server process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-server-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves, then on SIGTERM finishes within its grace period, releases the data folder and exits 0', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'server.ts')], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', NODE_ENV: 'test', SHUTDOWN_GRACE_SECONDS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    try {
      let healthy = false;
      // Generous: the first open of a PGlite folder is slow on a loaded machine.
      for (let attempt = 0; attempt < 300 && !healthy && child.exitCode === null; attempt++) {
        healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then((res) => res.ok, () => false);
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(healthy, output).toBe(true);
      expect(existsSync(path.join(dataDir, 'innerwave.lock'))).toBe(true);

      // A request whose body stalls half-way must not hold the shutdown past its grace period.
      const stalled = connect(port, '127.0.0.1');
      stalled.on('error', () => undefined);
      await new Promise((resolve) => stalled.on('connect', resolve));
      stalled.write('POST /api/users/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email": "sl');
      await new Promise((resolve) => setTimeout(resolve, 200));

      const signalled = Date.now();
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
      const shutdownMs = Date.now() - signalled;
      expect(shutdownMs).toBeGreaterThanOrEqual(1800);
      expect(shutdownMs).toBeLessThan(6000);
      expect(stalled.destroyed || stalled.readableEnded).toBe(true);
      expect(existsSync(path.join(dataDir, 'innerwave.lock'))).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
