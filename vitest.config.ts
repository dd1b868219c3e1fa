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
  },
});

export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  test: {
    projects: [
      { extends: true, test: { name: 'shared', include: ['src/shared/**/*.test.ts'], environment: 'node' } },
      // The repository's own rules (lint boundaries).
      {
        extends: true,
        test: { name: 'tooling', include: ['eslint/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Interaction tests type and click step by step; on two busy cores that takes seconds.
          testTimeout: 15_000,
          setupFiles: [path.resolve(import.meta.dirname, 'src/web/test/setup.ts')],
        },
      },
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
