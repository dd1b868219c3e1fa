import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@shared/contract';
import { fakeMp3, toneWav } from '../admin/test/fake-audio';
import { ownTracks, profiles, users, voiceRecordings } from '../db/schema';
import { ownTestKit } from '../own/test-kit';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { mediaFilesIn } from '../test/media';
import { uploadWhile } from '../test/multipart';
import { normaliseProfileImage } from '../profile/image';
import { startS3StandIn, type S3StandIn } from '../test/s3-stand-in';
import { createTestApp, type TestApp } from '../test/test-app';
import { revokeAllSessions, revokeSession } from './sessions';

// A person signed out (in another tab, everywhere: a password reset ends every session too) or deactivated while
// an upload of theirs streams in (own music, own voice, a profile picture): the session is asked again in the
// transaction that keeps the file, and nothing is kept (docs/product/api.md). The changes are made in the
// database, past this worker's cache of sessions, as another server's would be.

const ENDED = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { setPlan } = ownTestKit(() => t);

const signedOut = (app: TestApp, user: SignedInUser) => () => revokeSession(app.database.db, user.sessionId);
const signedOutEverywhere = (app: TestApp, user: SignedInUser) => () => revokeAllSessions(app.database.db, user.id);
const deactivated = (app: TestApp, user: SignedInUser) => () =>
  app.database.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
const CHANGES = [signedOut, signedOutEverywhere, deactivated];

const picture = (color: string) =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
    .png()
    .toBuffer();

describe('a person whose session ends while an upload streams in', () => {
  it('keeps no track of own music: 401 token_not_valid, no row, no file', async () => {
    for (const change of CHANGES) {
      const ada = await signedInUser(t.ctx);
      await setPlan(ada, 'pro');
      const answer = await uploadWhile(
        t,
        ada.headers,
        API.myMusic,
        { audio_file: { filename: 'rain.mp3', content: fakeMp3(256 * 1024) } },
        change(t, ada),
      );
      expect([change.name, answer.statusCode, answer.json()]).toEqual([change.name, 401, ENDED]);
      expect(await t.database.db.select().from(ownTracks).where(eq(ownTracks.userId, ada.id))).toEqual([]);
    }
    expect(mediaFilesIn(t.dataDir)).toEqual([]);
  });

  it('keeps no recording of own voice, nor a new take of one: 401, the old take kept', async () => {
    const bo = await signedInUser(t.ctx);
    await setPlan(bo, 'pro');
    const first = toneWav(22_050, 22_050);
    const wav = (content: Buffer) => ({ filename: 'take.wav', content });
    const recorded = await uploadWhile(t, bo.headers, API.myVoice, { text: 'I am calm.', audio_file: wav(first) }, () =>
      Promise.resolve(),
    );
    expect(recorded.statusCode, recorded.body).toBe(201);
    const retake = await uploadWhile(
      t,
      bo.headers,
      API.myVoice,
      { text: 'I am calm.', audio_file: wav(toneWav(33_075, 22_050)) },
      signedOut(t, bo),
    );
    expect([retake.statusCode, retake.json()]).toEqual([401, ENDED]);

    for (const change of [signedOutEverywhere, deactivated]) {
      const cy = await signedInUser(t.ctx);
      await setPlan(cy, 'pro');
      const another = await uploadWhile(
        t,
        cy.headers,
        API.myVoice,
        { text: 'I breathe slowly.', audio_file: wav(toneWav(44_100, 22_050)) },
        change(t, cy),
      );
      expect([change.name, another.statusCode, another.json()]).toEqual([change.name, 401, ENDED]);
      expect(await t.database.db.select().from(voiceRecordings).where(eq(voiceRecordings.userId, cy.id))).toEqual([]);
    }
    const rows = await t.database.db.select().from(voiceRecordings).where(eq(voiceRecordings.userId, bo.id));
    expect(rows.map((row) => [row.text, row.audioFile])).toEqual([
      ['I am calm.', `own-voice/${bo.id}/${sha256(first)}.wav`],
    ]);
    expect(mediaFilesIn(t.dataDir)).toEqual([`own-voice/${bo.id}/${sha256(first)}.wav`]);
  });

  it('keeps neither the names nor the picture of a profile: 401, the profile as it was', async () => {
    for (const change of CHANGES) {
      const di = await signedInUser(t.ctx);
      const before = await t.database.db.select().from(users).where(eq(users.id, di.id));
      const answer = await uploadWhile(
        t,
        di.headers,
        API.profileUpdate,
        {
          first_name: 'Dinah',
          last_name: 'Renamed',
          profile_image: { filename: 'me.png', contentType: 'image/png', content: await picture('#118833') },
        },
        change(t, di),
        { method: 'PUT', readWhole: true },
      );
      expect([change.name, answer.statusCode, answer.json()]).toEqual([change.name, 401, ENDED]);
      const [after] = await t.database.db.select().from(users).where(eq(users.id, di.id));
      expect([after?.firstName, after?.lastName]).toEqual([before[0]?.firstName, before[0]?.lastName]);
      const [profile] = await t.database.db.select().from(profiles).where(eq(profiles.userId, di.id));
      expect(profile?.profileImage ?? null).toBeNull();
    }
    expect(mediaFilesIn(t.dataDir).filter((file) => file.startsWith('profile-images'))).toEqual([]);
  });
});

describe('on S3-compatible storage', () => {
  let s3: S3StandIn;
  let app: TestApp;
  beforeAll(async () => {
    s3 = await startS3StandIn();
    app = await createTestApp(s3.env);
  });
  afterAll(async () => {
    await app.close();
    await s3.close();
  });
  const kit = ownTestKit(() => app);

  it('leaves no object in the bucket for an upload whose session ended: a track, a picture', async () => {
    const ed = await signedInUser(app.ctx);
    await kit.setPlan(ed, 'pro');
    const audio = fakeMp3(256 * 1024);
    const track = await uploadWhile(
      app,
      ed.headers,
      API.myMusic,
      { audio_file: { filename: 'rain.mp3', content: audio } },
      signedOut(app, ed),
    );
    expect([track.statusCode, track.json()]).toEqual([401, ENDED]);
    expect(await app.ctx.mediaFiles.size(`own-music/${ed.id}/${sha256(audio)}.mp3`)).toBeNull();

    const fay = await signedInUser(app.ctx);
    const image = await picture('#663399');
    const profile = await uploadWhile(
      app,
      fay.headers,
      API.profileUpdate,
      {
        first_name: 'Fay',
        last_name: 'L',
        profile_image: { filename: 'me.png', contentType: 'image/png', content: image },
      },
      signedOutEverywhere(app, fay),
      { method: 'PUT', readWhole: true },
    );
    expect([profile.statusCode, profile.json()]).toEqual([401, ENDED]);
    const key = `profile-images/${sha256(await normaliseProfileImage(image))}.jpg`;
    expect(await app.ctx.mediaFiles.size(key)).toBeNull();
    expect(mediaFilesIn(app.dataDir)).toEqual([]);
    // The key is the one the picture is kept under, once a session that stays live sends it.
    const kept = await uploadWhile(
      app,
      (await signedInUser(app.ctx)).headers,
      API.profileUpdate,
      {
        first_name: 'Gil',
        last_name: 'L',
        profile_image: { filename: 'me.png', contentType: 'image/png', content: image },
      },
      () => Promise.resolve(),
      { method: 'PUT', readWhole: true },
    );
    expect(kept.statusCode, kept.body).toBe(200);
    expect(await app.ctx.mediaFiles.size(key)).toBeGreaterThan(0);
  });
});
