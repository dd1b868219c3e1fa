import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_API } from '@shared/contract';
import { revokeAllSessions } from '../auth/sessions';
import type { Db } from '../db/client';
import { audioItems, desktopApplications, users } from '../db/schema';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { multipartBody, uploadWhile } from '../test/multipart';
import { mediaFilesIn } from '../test/media';
import { createTestApp, type TestApp } from '../test/test-app';
import { fakeMp3 } from './test/fake-audio';

// A staff member deactivated, no longer staff or signed out everywhere while an upload streams in: the
// caller is checked before the body and again before the file and its row are kept (docs/product/api.md#admin).

let t: TestApp;
let png: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
});
afterAll(() => t.close());

const mediaFiles = () => mediaFilesIn(t.dataDir);

const deactivated = (staff: SignedInUser) => () =>
  t.database.db.update(users).set({ isActive: false }).where(eq(users.id, staff.id));
const demoted = (staff: SignedInUser) => () =>
  t.database.db.update(users).set({ isStaff: false }).where(eq(users.id, staff.id));
const signedOutEverywhere = (staff: SignedInUser) => () => revokeAllSessions(t.database.db, staff.id);

const installer = (version: string) => ({
  application_version: version,
  description: 'For Windows.',
  application_file: { filename: 'Innerwave.exe', content: Buffer.alloc(200 * 1024, 7) },
});
const audioItem = (name: string) => ({
  name,
  description: 'A calm tone.',
  audio_file: { filename: 'tone.mp3', content: fakeMp3(200 * 1024) },
  cover_image: { filename: 'cover.png', content: png, contentType: 'image/png' },
});
const ENDED = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };
const NOT_STAFF = { detail: 'You do not have permission to perform this action.' };

describe('a staff member who may no longer upload while the file streams in', () => {
  it('keeps no installer when deactivated or signed out everywhere: 401, no file, no row', async () => {
    for (const change of [deactivated, signedOutEverywhere]) {
      const staff = await signedInUser(t.ctx, { isStaff: true });
      const answer = await uploadWhile(t, staff.headers, ADMIN_API.applications, installer('9.0.0'), change(staff));
      expect([answer.statusCode, answer.json()]).toEqual([401, ENDED]);
    }
    expect(await t.database.db.select().from(desktopApplications)).toEqual([]);
    expect(mediaFiles()).toEqual([]);
  });

  it('keeps no audio item nor cover when no longer staff: 403, no file, no row', async () => {
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const answer = await uploadWhile(t, staff.headers, '/api/admin/audio/bonus/', audioItem('Rain'), demoted(staff));
    expect([answer.statusCode, answer.json()]).toEqual([403, NOT_STAFF]);
    expect(await t.database.db.select().from(audioItems)).toEqual([]);
    expect(mediaFiles()).toEqual([]);
  });

  it('replaces no file of an audio item when signed out everywhere: 401, the old files kept', async () => {
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const added = await uploadWhile(t, staff.headers, '/api/admin/audio/bonus/', audioItem('Sea'), () =>
      Promise.resolve(),
    );
    expect(added.statusCode, added.body).toBe(201);
    const before = mediaFiles();
    const { name: _name, description: _description, ...files } = audioItem('Sea');
    const replaced = await uploadWhile(
      t,
      staff.headers,
      `/api/admin/audio/bonus/${added.json().id}/files/`,
      { ...files, audio_file: { filename: 'other.mp3', content: fakeMp3(300 * 1024) } },
      signedOutEverywhere(staff),
    );
    expect([replaced.statusCode, replaced.json()]).toEqual([401, ENDED]);
    expect(mediaFiles()).toEqual(before);
    const [row] = await t.database.db.select().from(audioItems).where(eq(audioItems.id, added.json().id));
    expect(row?.audioFile).toBe(added.json().audio_file.match(/audio\/bonus\/[^?]+/)?.[0]);
    const other = await signedInUser(t.ctx, { isStaff: true });
    const url = `/api/admin/audio/bonus/${added.json().id}/`;
    expect((await t.app.inject({ method: 'DELETE', url, headers: other.headers })).statusCode).toBe(204);
  });

  it('keeps nothing when the change comes after the body, as the file is being kept', async () => {
    const { db } = t.database;
    const transaction = db.transaction.bind(db);
    let change: () => Promise<unknown> = () => Promise.resolve();
    // The change lands just as the transaction that places the file and writes its row opens.
    const held = vi.spyOn(db, 'transaction').mockImplementation(async (...args: Parameters<Db['transaction']>) => {
      await change();
      return transaction(...args);
    });
    try {
      const cases = [
        [ADMIN_API.applications, installer('9.1.0'), demoted, 403],
        ['/api/admin/audio/selfeggio/', audioItem('Tide'), deactivated, 401],
      ] as const;
      for (const [url, parts, what, status] of cases) {
        const staff = await signedInUser(t.ctx, { isStaff: true });
        change = what(staff);
        const body = multipartBody(parts);
        const answer = await t.app.inject({
          method: 'POST',
          url,
          payload: body.payload,
          headers: { ...staff.headers, ...body.headers },
        });
        expect([url, answer.statusCode]).toEqual([url, status]);
      }
    } finally {
      held.mockRestore();
    }
    expect(await t.database.db.select().from(desktopApplications)).toEqual([]);
    expect(await t.database.db.select().from(audioItems)).toEqual([]);
    expect(mediaFiles()).toEqual([]);
  });
});
