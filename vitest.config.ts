import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { aliases } from './vite.config.ts';

// Unit tests: shared (node), web (jsdom), and the server through app.inject against a real
// database: PGlite always, PostgreSQL too when DATABASE_URL is set.

const serverProject = (name: string, dbKind: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    include: ['src/server/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['src/server/test/global-setup.ts'],
    provide: { dbKind, databaseUrl: process.env.DATABASE_URL ?? '' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file runs in a process of its own, where Node 24 would parse drizzle-orm's 179 KB
    // package.json again for every one of its modules (1.1 s of CPU a file); through Vite, it is read once
    // for the whole run. (The server build bundles it for the same reason: scripts/build-state.mjs.)
    server: { deps: { inline: ['drizzle-orm'] } },
  },
});

// The web tests (jsdom). In race mode a found element is handed over before React runs the effects of the render
// that showed it (src/web/test/without-settle.ts), as a loaded machine does at times.
const webProject = (name: string, include: string[], { raceMode = false } = {}) => ({
  extends: true as const,
  test: {
    name,
    include,
    environment: 'jsdom',
    // Every wait of a test is bounded (10 s, src/web/test/setup.ts), so what never shows fails there, by
    // name; the whole test's bound only stops what no wait bounds. A test's total measures the machine:
    // the interaction tests (a dozen typed and clicked steps) take 1–2 s in a loaded full run, but 15–18 s
    // each when two cores ran at a load of 15–27, a thousand playlist rows 24 s.
    testTimeout: 60_000,
    // As every other wait of a web test (src/web/test/setup.ts).
    expect: { poll: { timeout: 10_000 } },
    setupFiles: [
      path.resolve(import.meta.dirname, 'src/web/test/setup.ts'),
      ...(raceMode ? [path.resolve(import.meta.dirname, 'src/web/test/without-settle.ts')] : []),
    ],
    env: raceMode ? { WEB_TESTS_WITHOUT_SETTLE: '1' } : {},
  },
});

/** The web tests race mode found to read a state on its way (each fixed at its cause since), and its own check. */
const WEB_RACE_AT_RISK = [
  'src/web/test/waits.test.tsx',
  'src/web/features/subliminals/components/subliminals-player.test.tsx',
  'src/web/components/ui/inline-edit.test.tsx',
  'src/web/app/page-data.test.tsx',
  'src/web/components/lazy-mount.test.tsx',
  'src/web/features/marketing/components/home-modals.test.tsx',
];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  test: {
    // One worker per core, not Vitest's default of one fewer: the server tests wait on their
    // databases much of the time, so on CI's two cores one worker left a core idle. The whole unit run
    // with PostgreSQL on two cores: 8 min 12 s and 8 min 41 s with one worker, 4 min 52 s and 6 min 0 s
    // with two (two machines), 5 min 24 s with three, 5 min 56 s with four.
    maxWorkers: '100%',
    projects: [
      { extends: true, test: { name: 'shared', include: ['src/shared/**/*.test.ts'], environment: 'node' } },
      // The build's own lists (build/pages.ts) against the app's pages.
      { extends: true, test: { name: 'build', include: ['build/**/*.test.ts'], environment: 'node' } },
      // The repository's own rules (lint boundaries, references to the docs, what the build stamp watches).
      {
        extends: true,
        test: {
          name: 'tooling',
          include: ['eslint/**/*.test.ts', 'docs/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      webProject('web', ['src/web/**/*.test.{ts,tsx}']),
      // The web tests that waited on React's effects without saying so, in race mode (decision 078): every run
      // checks them as a loaded machine would. `npm run test:race` runs all of them so.
      webProject('web-race', process.env.WEB_RACE_ALL ? ['src/web/**/*.test.{ts,tsx}'] : WEB_RACE_AT_RISK, {
        raceMode: true,
      }),
      serverProject('server-pglite', 'pglite'),
      ...(process.env.DATABASE_URL ? [serverProject('server-postgres', 'postgres')] : []),
    ],
  },
});

declare module 'vitest' {
  export interface ProvidedContext {
    dbKind: 'pglite' | 'postgres';
    databaseUrl: string;
    /** PGlite: a migrated data directory dump; PostgreSQL: the name of a migrated template database. */
    dbTemplate: string;
  }
}
