import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, inject, it, vi } from 'vitest';
import { queryRows } from './client';
import { openPglite } from './pglite';

describe.runIf(inject('dbKind') === 'pglite')('the embedded database', () => {
  it('runs with small shared buffers, given at each start and not written into its folder', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-pglite-'));
    const setting = async () => {
      const database = await openPglite(dataDir);
      try {
        const [row] = await queryRows<{ shared_buffers: string }>(
          database.db,
          sql`select current_setting('shared_buffers') as shared_buffers`,
        );
        return row?.shared_buffers;
      } finally {
        await database.close();
      }
    };
    try {
      expect(await setting()).toBe('16MB');
      // Opened again from its folder (no initdb this time), it has the setting again.
      expect(await setting()).toBe('16MB');
      expect(readFileSync(path.join(dataDir, 'db/postgresql.conf'), 'utf8')).not.toMatch(/^shared_buffers\s*=\s*16MB/m);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('creates a new folder in a process of its own, and opens it here', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'innerwave-pglite-'));
    // initdb run here left about 100 MB with the primary for good: the folder must exist before PGlite opens it.
    const create = vi.spyOn(PGlite, 'create');
    const foundCreated: boolean[] = [];
    create.mockImplementation(async (...args: Parameters<typeof PGlite.create>) => {
      foundCreated.push(existsSync(path.join(dataDir, 'db/PG_VERSION')));
      create.mockRestore();
      return PGlite.create(...args);
    });
    try {
      const database = await openPglite(dataDir);
      try {
        expect(foundCreated).toEqual([true]);
        const [row] = await queryRows<{ one: number }>(database.db, sql`select 1 as one`);
        expect(row?.one).toBe(1);
      } finally {
        await database.close();
      }
    } finally {
      create.mockRestore();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
