import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR;
if (!dataDir) throw new Error('Run the e2e tests with `npm run test:e2e` (it prepares a temporary data folder).');

export const E2E = { baseURL: `http://127.0.0.1:${port}`, dataDir };

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['./e2e/support/failure-context-reporter.ts']],
  // A journey signs up, activates and logs in (argon2 hashes) before it starts: on a CI machine busy with two
  // browsers that alone took over 30 s (admin.spec). Waits inside a test keep their own, shorter limits.
  timeout: 90_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: E2E.baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // The admin spec publishes an installer; it runs after the rest so the portal spec still sees
  // /applications empty first.
  projects: [
    { name: 'chromium', testIgnore: /admin\.spec\.ts/ },
    { name: 'admin', testMatch: /admin\.spec\.ts/, dependencies: ['chromium'] },
  ],
  webServer: {
    // The server's log goes to a file the failure reporter reads (e2e/support/failure-context-reporter.ts).
    command: `npm start >> "${path.join(dataDir, 'server.log')}"`,
    url: `${E2E.baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // Every test signs up from 127.0.0.1, and many log in as the one staff account (the admin screens,
    // setting a plan): both limits are raised here. They are tested in src/server/auth/rate-limits.test.ts
    // and, across servers, by `npm run test:cluster`.
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    },
  },
});
