import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { multipartBody } from '../test/multipart';
import { profiles } from '../db/schema';
import { mediaDir } from '../paths';
import { sweepStaleUploads } from './store';

describe('content-addressed files under concurrent use', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const setImage = (user: SignedInUser, image: Buffer) => {
    const body = multipartBody({
      first_name: 'N',
      last_name: 'N',
      profile_image: { filename: 'p.png', contentType: 'image/png', content: image },
    });
    return t.app.inject({
      method: 'PUT',
      url: API.profileUpdate,
      payload: body.payload,
      headers: { ...user.headers, ...body.headers },
    });
  };
  const png = (shade: number) =>
    sharp({ create: { width: 40, height: 40, channels: 3, background: { r: shade, g: 90, b: 160 } } })
      .png()
      .toBuffer();

  it('never leaves a profile naming a deleted file while one user drops an image another takes up', async () => {
    for (let round = 0; round < 25; round++) {
      // Two people a round: each sends a picture or two, far from the hourly limit on pictures.
      const [a, b] = [await signedInUser(t.ctx), await signedInUser(t.ctx)];
      const [shared, other] = [await png(2 * round), await png(2 * round + 1)];
      expect((await setImage(a, shared)).statusCode).toBe(200);
      // A moves off the shared image (its file would be removed) while B takes the very same bytes.
      const [moved, taken] = await Promise.all([setImage(a, other), setImage(b, shared)]);
      expect([moved.statusCode, taken.statusCode]).toEqual([200, 200]);
      const rows = await t.database.db.select({ image: profiles.profileImage }).from(profiles);
      for (const { image } of rows) {
        if (image) expect(existsSync(path.join(mediaDir(t.dataDir), image)), `round ${round}: ${image}`).toBe(true);
      }
    }
  }, 60_000);
});

describe('stale upload parts', () => {
  it('are removed at start-up when older than the bound, and only those', async () => {
    const root = mediaDir(`/tmp/innerwave-sweep-${process.pid}-${Date.now()}`);
    const incoming = path.join(root, '.incoming');
    mkdirSync(incoming, { recursive: true });
    writeFileSync(path.join(incoming, 'crashed.part'), 'x');
    writeFileSync(path.join(incoming, 'uploading.part'), 'y');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(path.join(incoming, 'crashed.part'), twoDaysAgo, twoDaysAgo);
    expect(await sweepStaleUploads(root, 24 * 3600 * 1000)).toBe(1);
    expect(existsSync(path.join(incoming, 'crashed.part'))).toBe(false);
    expect(existsSync(path.join(incoming, 'uploading.part'))).toBe(true);
    expect(await sweepStaleUploads(path.join(root, 'nowhere'), 1)).toBe(0);
  });
});
