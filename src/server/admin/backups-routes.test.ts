import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AdminBackupStatus } from '@shared/contract';
import { loadConfig } from '../config';
import { scheduleBackups, type BackupScheduler } from '../backup/schedule';
import { backupStatus } from '../backup/status';
import { createTestApp, testEnv, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { tempDirsOfFile } from '../test/temp-dirs';

// Staff's read-only view of the backups (docs/product/api.md#backups).

const embedded = inject('dbKind') === 'pglite';

describe('admin backups API', () => {
  const tempDir = tempDirsOfFile();
  const folder = () => tempDir('backups');
  let plain: TestApp;
  let staff: SignedInUser;
  let member: SignedInUser;
  beforeAll(async () => {
    plain = await createTestApp();
    staff = await signedInUser(plain.ctx, { isStaff: true, email: 'staff@innerwave.test' });
    member = await signedInUser(plain.ctx, { email: 'member@example.com' });
  });
  afterAll(async () => {
    await plain.close();
  });

  const get = (t: TestApp, headers?: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/admin/backups/', headers });

  it('answers 401 without a token and 403 for a normal user', async () => {
    expect((await get(plain)).statusCode).toBe(401);
    expect((await get(plain, member.headers)).statusCode).toBe(403);
  });

  it('says there is no schedule without BACKUP_DIR, and on PostgreSQL that the database is pg_dump’s', async () => {
    const res = await get(plain, staff.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      database: embedded ? 'embedded' : 'postgresql',
      scheduled: false,
      dir: null,
      at: null,
      every_seconds: null,
      keep: null,
      count: 0,
      last: null,
      last_failure: null,
      next_at: null,
      dir_error: null,
    } satisfies AdminBackupStatus);
  });

  it.runIf(!embedded)('on PostgreSQL says no schedule, whatever BACKUP_DIR says', async () => {
    const t = await createTestApp({ BACKUP_DIR: folder() });
    try {
      const user = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
      expect((await get(t, user.headers)).json()).toMatchObject({
        database: 'postgresql',
        scheduled: false,
        dir: null,
      });
    } finally {
      await t.close();
    }
  });

  it.runIf(embedded)(
    'gives the schedule, its newest backup, its last failure and why, and its next time, as the primary knows them',
    async () => {
      const dir = folder();
      writeFileSync(path.join(dir, 'innerwave-backup-2026-12-06T03-00-00Z.tar.gz'), Buffer.alloc(2048));
      writeFileSync(path.join(dir, 'innerwave-backup-2026-12-07T03-00-00Z.tar.gz'), Buffer.alloc(3000));
      writeFileSync(path.join(dir, 'notes.txt'), 'not a backup');
      const env = { BACKUP_DIR: dir, BACKUP_AT: '03:00', BACKUP_KEEP: '5' };
      const dataDir = folder();
      const config = loadConfig({ ...testEnv(dataDir), ...env });
      // The primary's schedule, on a clock at 14:00 after a night it was down, whose snapshot is refused: an
      // `npm run backup` is being taken (the snapshot taker's own words).
      const offset = Date.parse('2026-12-08T14:00:00.000Z') - Date.now();
      const scheduler: BackupScheduler = scheduleBackups({
        config,
        schedule: config.backupSchedule!,
        taker: {
          take: () => Promise.reject(new Error('A backup is being taken already: run this one once it has finished.')),
        },
        log: { info: () => undefined, error: () => undefined },
        now: () => new Date(Date.now() + offset),
        missedDelayMs: 0,
      });
      const t = await createTestApp(
        env,
        {},
        {
          backups: { status: () => backupStatus(config, 'pglite', scheduler.state()) },
        },
      );
      try {
        const user = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
        await expect.poll(async () => (await get(t, user.headers)).json().last_failure).not.toBeNull();
        const res = await get(t, user.headers);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          database: 'embedded',
          scheduled: true,
          dir,
          at: '03:00',
          every_seconds: null,
          keep: 5,
          count: 2,
          last: {
            name: 'innerwave-backup-2026-12-07T03-00-00Z.tar.gz',
            taken_at: '2026-12-07T03:00:00.000Z',
            bytes: 3000,
          },
          last_failure: {
            at: expect.stringMatching(/^2026-12-08T14:00:0\d\.000Z$/),
            reason: 'A backup is being taken already: run this one once it has finished.',
          },
          next_at: '2026-12-09T03:00:00.000Z',
          dir_error: null,
        });
      } finally {
        await scheduler.stop();
        await t.close();
      }
    },
  );

  it.runIf(embedded)('says why when the folder cannot be read, and answers all the same', async () => {
    const notAFolder = path.join(folder(), 'a-file');
    writeFileSync(notAFolder, 'a file where the folder should be');
    const t = await createTestApp({ BACKUP_DIR: notAFolder, BACKUP_EVERY_SECONDS: '3600' });
    try {
      const user = await signedInUser(t.ctx, { isStaff: true, email: 'staff@innerwave.test' });
      const res = await get(t, user.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        scheduled: true,
        dir: notAFolder,
        at: null,
        every_seconds: 3600,
        keep: 7,
        count: 0,
        last: null,
        next_at: null,
        dir_error: expect.stringContaining('ENOTDIR'),
      });
    } finally {
      await t.close();
    }
  });
});
