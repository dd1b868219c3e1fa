import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API, API, fillPath } from '@shared/contract';
import { ConfigError, loadConfig } from '../config';
import { audioItems, desktopApplications, ownTracks, profiles, users, voiceRecordings } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { multipartBody } from '../test/multipart';
import { unusedPort } from '../test/ports';
import { startS3StandIn, STAND_IN_BUCKET, type S3StandIn } from '../test/s3-stand-in';
import { fakeMp3, toneWav } from '../admin/test/fake-audio';
import { ownTestKit } from '../own/test-kit';
import { seedAudioItems } from '../seed/service';
import { SEED_TRACKS, type SeedTrack } from '../seed/media/catalog';
import { createS3Client, s3MediaUrls, STORAGE_UNAVAILABLE } from './s3-store';
import { createMediaStorage } from './storage';
import type { MediaStore } from './store';

// Media on S3-compatible storage, end to end: the app against a local S3 stand-in (s3rver).

let s3: S3StandIn;
let t: TestApp;
let staff: SignedInUser;
beforeAll(async () => {
  s3 = await startS3StandIn();
  t = await createTestApp(s3.env);
  staff = await signedInUser(t.ctx, { isStaff: true });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

/** A picture of its own for each call (re-encoded as a small JPEG, near shades could come out alike). */
const png = () => {
  const [r = 0, g = 0, b = 0] = randomBytes(3);
  return sharp({ create: { width: 60, height: 40, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
};
const send = (
  app: TestApp,
  method: 'POST' | 'PUT',
  url: string,
  user: SignedInUser,
  parts: Parameters<typeof multipartBody>[0],
) => {
  const body = multipartBody(parts);
  return app.app.inject({ method, url, headers: { ...user.headers, ...body.headers }, payload: body.payload });
};
const setImage = async (app: TestApp, user: SignedInUser) =>
  send(app, 'PUT', API.profileUpdate, user, {
    first_name: 'Ada',
    last_name: 'L',
    profile_image: { filename: 'p.png', contentType: 'image/png', content: await png() },
  });
/** The object key a presigned URL names (path style: /bucket/key). */
const keyOf = (url: string) => decodeURIComponent(new URL(url).pathname).replace(`/${STAND_IN_BUCKET}/`, '');

describe('media on S3-compatible storage', () => {
  it('stores a profile image in the bucket and hands out the storage’s own presigned URL', async () => {
    const user = await signedInUser(t.ctx);
    const res = await setImage(t, user);
    expect(res.statusCode).toBe(200);
    const url = res.json().profile_image as string;
    expect(url.startsWith(`${s3.url}/${STAND_IN_BUCKET}/profile-images/`)).toBe(true);
    const query = new URL(url).searchParams;
    expect(query.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    // As long as the app's own links: at least six hours, at most twelve, from now.
    const signedAt = Date.parse(
      query.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    const expires = signedAt + Number(query.get('X-Amz-Expires')) * 1000;
    expect(expires - Date.now()).toBeGreaterThanOrEqual(6 * 3600 * 1000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(12 * 3600 * 1000);
    // The same URL within the window, so browsers and list answers keep it.
    const again = await t.app.inject({ method: 'GET', url: API.profile, headers: user.headers });
    expect(again.json().profile_image).toBe(url);

    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect((await sharp(bytes).metadata()).format).toBe('jpeg');
    expect(await t.ctx.mediaFiles.size(keyOf(url))).toBe(bytes.length);
    // The pages may show images and play audio from the storage's origin, and from nowhere else new.
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain(`img-src 'self' data: blob: ${s3.url};`);
    expect(csp).toContain(`media-src 'self' blob: ${s3.url};`);
    expect(csp.split(';')).toContain(`connect-src 'self' ${s3.url}`);
    // The app's own /media/ serves nothing while the storage does.
    expect((await t.app.inject({ method: 'GET', url: `/media/${keyOf(url)}` })).statusCode).toBe(404);
  });

  it('uploads staff audio and an installer that download back through the handed-out URLs, with ranges', async () => {
    const audio = fakeMp3();
    const created = await send(t, 'POST', '/api/admin/audio/bonus/', staff, {
      name: 'Rain',
      audio_file: { filename: 'rain.mp3', content: audio },
    });
    expect(created.statusCode).toBe(201);
    const audioUrl = created.json().audio_file as string;
    expect(keyOf(audioUrl)).toBe(`audio/bonus/${createHash('sha256').update(audio).digest('hex')}.mp3`);
    const whole = await fetch(audioUrl);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    // Private: kept by the browser for the link's lifetime (6 to 12 hours), by no shared cache.
    const cache = /^private, max-age=(\d+), immutable$/.exec(String(whole.headers.get('cache-control')));
    expect(Number(cache?.[1])).toBeGreaterThanOrEqual(6 * 3600);
    expect(Number(cache?.[1])).toBeLessThanOrEqual(12 * 3600);
    expect(Buffer.from(await whole.arrayBuffer()).equals(audio)).toBe(true);
    const part = await fetch(audioUrl, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(audio.subarray(10, 20))).toBe(true);

    const installer = randomBytes(2048);
    const app = await send(t, 'POST', '/api/admin/applications/', staff, {
      application_version: '3.0.0',
      application_file: { filename: 'Setup.exe', content: installer },
    });
    expect(app.statusCode).toBe(201);
    expect(app.json().size_bytes).toBe(installer.length);
    const file = await fetch(app.json().application_file as string);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="Innerwave-3.0.0.exe"');
    expect(file.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await file.arrayBuffer()).equals(installer)).toBe(true);
  });

  it('refuses an altered or an expired presigned URL', async () => {
    const user = await signedInUser(t.ctx);
    const url = new URL((await setImage(t, user)).json().profile_image as string);
    const altered = new URL(url);
    altered.searchParams.set('X-Amz-Expires', String(Number(url.searchParams.get('X-Amz-Expires')) + 3600));
    expect((await fetch(altered)).status).toBe(403);
    const otherFile = new URL(url);
    otherFile.pathname = `/${STAND_IN_BUCKET}/covers/${'0'.repeat(64)}.webp`;
    expect((await fetch(otherFile)).status).toBe(403);

    const { s3: config } = loadConfig({ DATA_DIR: t.dataDir, ...s3.env });
    const longAgo = s3MediaUrls(createS3Client(config!), STAND_IN_BUCKET, () => new Date(Date.now() - 2 * 86_400_000));
    expect((await fetch(await longAgo.url(keyOf(url.href)))).status).toBe(403);
  });

  it('removes the objects of a deleted installer, audio item and account', async () => {
    const user = await signedInUser(t.ctx);
    const image = keyOf((await setImage(t, user)).json().profile_image as string);
    const audio = fakeMp3();
    const item = (
      await send(t, 'POST', '/api/admin/audio/custom/', staff, {
        name: 'Hum',
        audio_file: { filename: 'hum.mp3', content: audio },
        cover_image: { filename: 'c.png', contentType: 'image/png', content: await png() },
      })
    ).json() as { id: number; audio_file: string; cover_image: string };
    const installer = (
      await send(t, 'POST', '/api/admin/applications/', staff, {
        application_version: '3.1.0',
        application_file: { filename: 'Setup.dmg', content: randomBytes(512) },
      })
    ).json() as { id: number; application_file: string };
    const keys = [image, keyOf(item.audio_file), keyOf(item.cover_image), keyOf(installer.application_file)];
    for (const key of keys) expect(await t.ctx.mediaFiles.size(key), key).not.toBeNull();

    const gone = (path: string) => t.app.inject({ method: 'DELETE', url: path, headers: staff.headers });
    expect((await gone(`/api/admin/audio/custom/${item.id}/`)).statusCode).toBe(204);
    expect((await gone(`/api/admin/applications/${installer.id}/`)).statusCode).toBe(204);
    const closed = await t.app.inject({
      method: 'DELETE',
      url: API.me,
      headers: user.headers,
      payload: { current_password: user.password },
    });
    expect(closed.statusCode).toBe(204);
    for (const key of keys) expect(await t.ctx.mediaFiles.size(key), key).toBeNull();
  });

  it('seeds the library into the bucket once: a second run uploads nothing', async () => {
    const tracks = [SEED_TRACKS.find((track) => track.kind === 'selfeggio')!].map((track): SeedTrack => ({
      ...track,
      name: `${track.name} (S3)`,
      render: () => track.render().subarray(0, 22050),
    }));
    const placed: string[] = [];
    const counting: MediaStore = {
      ...t.ctx.mediaFiles,
      place: (staged, relative) => {
        placed.push(relative);
        return t.ctx.mediaFiles.place(staged, relative);
      },
    };
    const log = { info: () => undefined };
    expect(await seedAudioItems(t.database.db, counting, log, tracks)).toEqual({ added: 1, regenerated: 0 });
    expect(placed).toHaveLength(2);
    const [row] = await t.database.db.select().from(audioItems).where(eq(audioItems.name, tracks[0]!.name));
    expect(await t.ctx.mediaFiles.size(row!.audioFile)).toBeGreaterThan(1000);
    expect(await seedAudioItems(t.database.db, counting, log, tracks)).toEqual({ added: 0, regenerated: 0 });
    expect(placed).toHaveLength(2);
  });
});

describe('S3-compatible storage that cannot be reached', () => {
  let dead: TestApp;
  let user: SignedInUser;
  let deadStaff: SignedInUser;
  beforeAll(async () => {
    dead = await createTestApp({ ...s3.env, S3_URL: `http://127.0.0.1:${await unusedPort()}` });
    user = await signedInUser(dead.ctx);
    deadStaff = await signedInUser(dead.ctx, { isStaff: true });
  });
  afterAll(() => dead.close());

  it('answers an upload with a clear 503 and writes no row naming the file', async () => {
    const res = await setImage(dead, user);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: STORAGE_UNAVAILABLE });
    expect(res.headers['retry-after']).toBe('5');
    const [profile] = await dead.database.db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect(profile?.profileImage ?? null).toBeNull();

    const installer = await send(dead, 'POST', '/api/admin/applications/', deadStaff, {
      application_version: '1.0.0',
      application_file: { filename: 'Setup.exe', content: randomBytes(256) },
    });
    expect(installer.statusCode).toBe(503);
    expect(await dead.database.db.select().from(desktopApplications)).toEqual([]);
  });
});

describe('S3-compatible storage that goes away before a deletion', () => {
  let going: S3StandIn;
  let app: TestApp;
  beforeAll(async () => {
    going = await startS3StandIn();
    app = await createTestApp(going.env);
  });
  afterAll(() => app.close());
  const { setPlan } = ownTestKit(() => app);

  it('deletes a track, a recording and then the account all the same, answering 204: the files left are logged for staff', async () => {
    const user = await signedInUser(app.ctx);
    await setPlan(user, 'pro');
    expect((await setImage(app, user)).statusCode).toBe(200);
    const added = await send(app, 'POST', API.myMusic, user, {
      audio_file: { filename: 'rain.mp3', content: fakeMp3(64 * 1024) },
    });
    expect(added.statusCode, added.body).toBe(201);
    const recorded = await send(app, 'POST', API.myVoice, user, {
      text: 'I am calm.',
      audio_file: { filename: 'take.wav', content: toneWav(22_050, 22_050) },
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    await going.close();

    const track = await app.app.inject({
      method: 'DELETE',
      url: fillPath(API.myMusicTrack, { id: added.json().id as number }),
      headers: user.headers,
    });
    expect(track.statusCode, track.body).toBe(204);
    expect(await app.database.db.select().from(ownTracks).where(eq(ownTracks.userId, user.id))).toEqual([]);
    const recording = await app.app.inject({
      method: 'DELETE',
      url: fillPath(API.myVoiceRecording, { id: recorded.json().id as number }),
      headers: user.headers,
    });
    expect(recording.statusCode, recording.body).toBe(204);
    expect(await app.database.db.select().from(voiceRecordings).where(eq(voiceRecordings.userId, user.id))).toEqual([]);

    const account = await app.app.inject({
      method: 'DELETE',
      url: API.me,
      headers: user.headers,
      payload: { current_password: user.password },
    });
    expect(account.statusCode, account.body).toBe(204);
    expect(await app.database.db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect((await app.app.inject({ method: 'GET', url: API.me, headers: user.headers })).statusCode).toBe(401);
  });
});

describe('S3-compatible storage that stores but cannot remove', () => {
  let refusing: S3StandIn;
  let app: TestApp;
  let refusingStaff: SignedInUser;
  const errorLines: Array<{ msg: string; files?: string[] }> = [];
  beforeAll(async () => {
    refusing = await startS3StandIn();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        errorLines.push(JSON.parse(chunk.toString()) as { msg: string; files?: string[] });
        callback();
      },
    });
    app = await createTestApp(refusing.env, { logger: { level: 'error', stream } });
    refusingStaff = await signedInUser(app.ctx, { isStaff: true });
  });
  afterAll(async () => {
    await app.close();
    await refusing.close();
  });
  const { setPlan } = ownTestKit(() => app);
  /** The files named by the error lines logged for staff, as files left in the storage. */
  const filesLeft = () =>
    errorLines.filter((line) => line.msg.startsWith('files no row names any more')).flatMap((line) => line.files);

  it('answers each replacement and deletion as its change, saved, and logs the old files left for staff', async () => {
    const user = await signedInUser(app.ctx);
    await setPlan(user, 'pro');
    const image = keyOf((await setImage(app, user)).json().profile_image as string);
    let takes = 0;
    const take = () =>
      send(app, 'POST', API.myVoice, user, {
        text: 'I am calm.',
        audio_file: { filename: 'take.wav', content: toneWav(22_050 + ++takes, 22_050) },
      });
    const firstTake = await take();
    expect(firstTake.statusCode, firstTake.body).toBe(201);
    const item = (
      await send(app, 'POST', '/api/admin/audio/custom/', refusingStaff, {
        name: 'Hum',
        audio_file: { filename: 'hum.mp3', content: fakeMp3() },
        cover_image: { filename: 'c.png', contentType: 'image/png', content: await png() },
      })
    ).json() as { id: number; audio_file: string; cover_image: string };
    const installer = (
      await send(app, 'POST', '/api/admin/applications/', refusingStaff, {
        application_version: '4.0.0',
        application_file: { filename: 'Setup.exe', content: randomBytes(512) },
      })
    ).json() as { id: number; application_file: string };
    refusing.refuseDeletions();

    const newTake = await take();
    expect(newTake.statusCode, newTake.body).toBe(200);
    const newImage = await setImage(app, user);
    expect(newImage.statusCode, newImage.body).toBe(200);
    const replaced = await send(
      app,
      'POST',
      fillPath(ADMIN_API.audioItemFiles, { kind: 'custom', id: item.id }),
      refusingStaff,
      {
        audio_file: { filename: 'hum2.mp3', content: fakeMp3(48 * 1024) },
      },
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    const [row] = await app.database.db.select().from(audioItems).where(eq(audioItems.id, item.id));
    expect(row?.audioFile).toBe(keyOf(replaced.json().audio_file as string));
    const deleted = await app.app.inject({
      method: 'DELETE',
      url: fillPath(ADMIN_API.audioItem, { kind: 'custom', id: item.id }),
      headers: refusingStaff.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await app.database.db.select().from(audioItems).where(eq(audioItems.id, item.id))).toEqual([]);
    const removedInstaller = await app.app.inject({
      method: 'DELETE',
      url: fillPath(ADMIN_API.application, { id: installer.id }),
      headers: refusingStaff.headers,
    });
    expect(removedInstaller.statusCode, removedInstaller.body).toBe(204);
    expect(await app.database.db.select().from(desktopApplications)).toEqual([]);

    expect(filesLeft().sort()).toEqual(
      [
        keyOf(firstTake.json().url as string),
        image,
        keyOf(item.audio_file),
        keyOf(replaced.json().audio_file as string),
        keyOf(item.cover_image),
        keyOf(installer.application_file),
      ].sort(),
    );
  });
});

describe('start-up with a wrong S3 setting', () => {
  const check = (env: Record<string, string>) =>
    createMediaStorage(loadConfig({ DATA_DIR: t.dataDir, ...s3.env, ...env })).check();

  it('stops with a message naming the endpoint, the bucket and what is wrong', async () => {
    await expect(check({})).resolves.toBeUndefined();
    await expect(check({ S3_BUCKET: 'no-such-bucket' })).rejects.toThrow(
      `S3 storage at ${s3.url}, bucket "no-such-bucket": the bucket does not exist`,
    );
    await expect(check({ S3_SECRET_ACCESS_KEY: 'wrong' })).rejects.toThrow(/access denied \(check S3_ACCESS_KEY_ID/);
    // Printed alone by the start-up, like any wrong setting.
    await expect(check({ S3_SECRET_ACCESS_KEY: 'wrong' })).rejects.toBeInstanceOf(ConfigError);
    const deadUrl = `http://127.0.0.1:${await unusedPort()}`;
    await expect(check({ S3_URL: deadUrl })).rejects.toThrow(
      new RegExp(`S3 storage at ${deadUrl}, bucket "${STAND_IN_BUCKET}": cannot be reached`),
    );
  });
});
