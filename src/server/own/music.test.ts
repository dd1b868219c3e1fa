import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, fillPath, OWN_MUSIC } from '@shared/contract';
import { deleteUser } from '../admin/users-service';
import { fakeMp3, headersOnly, toneWav } from '../admin/test/fake-audio';
import type { Db } from '../db/client';
import { ownTracks } from '../db/schema';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { signedMediaUrl } from '../test/media';
import { multipartBody } from '../test/multipart';
import { createTestApp, type TestApp } from '../test/test-app';
import { TRACK_NAME_NEEDED } from './music';
import { ownTestKit } from './test-kit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { call, setPlan } = ownTestKit(() => t);
const trackPath = (id: number) => fillPath(API.myMusicTrack, { id });
const stored = (relative: string) => existsSync(path.join(t.dataDir, 'media', relative));
/** Files left staged in the media folder's incoming folder (none may stay after any answer). */
const staged = () => {
  const dir = path.join(t.dataDir, 'media', '.incoming');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

function upload(user: SignedInUser, parts: Parameters<typeof multipartBody>[0]) {
  const body = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url: API.myMusic,
    payload: body.payload,
    headers: { ...user.headers, ...body.headers },
  });
}

/**
 * Sends uploads as at the same moment: each checks the person's music before the transaction that adds
 * its file, and opens that transaction only once every one of them has come to it.
 */
async function atTheSameMoment<T>(send: () => Promise<T>[], count: number): Promise<T[]> {
  const { db } = t.database;
  const transaction = db.transaction.bind(db);
  let arrived = 0;
  let allThere = () => {};
  const together = new Promise<void>((resolve) => (allThere = resolve));
  const held = vi.spyOn(db, 'transaction').mockImplementation(async (...args: Parameters<Db['transaction']>) => {
    if (++arrived === count) allThere();
    await together;
    return transaction(...args);
  });
  try {
    return await Promise.all(send());
  } finally {
    held.mockRestore();
  }
}

describe('own music', () => {
  it('is Pro’s to add: other plans are refused before the upload is read, and see an empty list', async () => {
    const ada = await signedInUser(t.ctx);
    const refused = await upload(ada, { audio_file: { filename: 'rain.mp3', content: fakeMp3() } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'plan_required', required_plan: 'pro' });
    expect((await call(ada, 'GET', API.myMusic)).json()).toEqual({
      tracks: [],
      used_bytes: 0,
      max_bytes: OWN_MUSIC.maxBytes,
      max_tracks: OWN_MUSIC.maxTracks,
    });
    expect((await call(undefined, 'GET', API.myMusic)).statusCode).toBe(401);
  });

  it('stores an audio file under the person’s folder, plays it by a signed URL, and deletes it', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const audio = fakeMp3(4096);
    const created = await upload(ada, { audio_file: { filename: 'Forest walk.mp3', content: audio } });
    expect(created.statusCode).toBe(201);
    const sha = createHash('sha256').update(audio).digest('hex');
    const relative = `own-music/${ada.id}/${sha}.mp3`;
    expect(created.json()).toEqual({
      id: expect.any(Number),
      name: 'Forest walk',
      url: signedMediaUrl(relative),
      bytes: audio.length,
      created_at: expect.any(String),
    });
    expect(stored(relative)).toBe(true);
    const named = await upload(ada, {
      name: '  Evening rain  ',
      audio_file: { filename: 'x.wav', content: fakeMp3() },
    });
    expect(named.json().name).toBe('Evening rain');

    const listed = (await call(ada, 'GET', API.myMusic)).json();
    expect(listed.tracks.map((track: { name: string }) => track.name)).toEqual(['Forest walk', 'Evening rain']);
    expect(listed.used_bytes).toBe(audio.length + named.json().bytes);

    // Nobody else sees or deletes it.
    const bob = await signedInUser(t.ctx);
    expect((await call(bob, 'GET', API.myMusic)).json().tracks).toEqual([]);
    expect((await call(bob, 'DELETE', trackPath(created.json().id))).statusCode).toBe(404);

    expect((await call(ada, 'DELETE', trackPath(created.json().id))).statusCode).toBe(204);
    expect(stored(relative)).toBe(false);
    expect((await call(ada, 'DELETE', trackPath(created.json().id))).statusCode).toBe(404);
  });

  it('refuses a file already in the person’s music, under any name, saying which track it is', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const audio = fakeMp3(4096);
    const relative = `own-music/${ada.id}/${createHash('sha256').update(audio).digest('hex')}.mp3`;
    const first = await upload(ada, { audio_file: { filename: 'Forest walk.mp3', content: audio } });
    expect(first.statusCode).toBe(201);
    const again = await upload(ada, { name: 'Woods', audio_file: { filename: 'copy of forest.ogg', content: audio } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ audio_file: ['This file is already in your music as “\u2068Forest walk\u2069”.'] });
    // Counted and shown once, its file still there, nothing left staged.
    const listed = (await call(ada, 'GET', API.myMusic)).json();
    expect(listed.tracks.map((track: { name: string }) => track.name)).toEqual(['Forest walk']);
    expect(listed.used_bytes).toBe(audio.length);
    expect(stored(relative)).toBe(true);
    expect(staged()).toBe(0);

    // Another person's music is their own; once deleted, the file may come again.
    const bob = await signedInUser(t.ctx);
    await setPlan(bob, 'pro');
    expect((await upload(bob, { audio_file: { filename: 'a.mp3', content: audio } })).statusCode).toBe(201);
    expect((await call(ada, 'DELETE', trackPath(first.json().id))).statusCode).toBe(204);
    const back = await upload(ada, { audio_file: { filename: 'Forest walk.mp3', content: audio } });
    expect(back.statusCode).toBe(201);
    expect(stored(relative)).toBe(true);
  });

  it('keeps one track of the same file uploaded twice at the same moment, and refuses the other', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const audio = fakeMp3(64 * 1024);
    const relative = `own-music/${ada.id}/${createHash('sha256').update(audio).digest('hex')}.mp3`;
    // Two: as many uploads as a person may have under way at once (docs/decisions/074-a-persons-uploads-at-once-are-few.md).
    const names = ['One.mp3', 'Two.mp3'];
    const answers = await atTheSameMoment(
      () => names.map((filename) => upload(ada, { audio_file: { filename, content: audio } })),
      names.length,
    );
    const created = answers.filter((answer) => answer.statusCode === 201);
    expect(created).toHaveLength(1);
    const name = created[0]!.json().name;
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      expect([refused.statusCode, refused.json()]).toEqual([
        400,
        { audio_file: [`This file is already in your music as “\u2068${name}\u2069”.`] },
      ]);
    }
    const listed = (await call(ada, 'GET', API.myMusic)).json();
    expect(listed.tracks.map((track: { name: string }) => track.name)).toEqual([name]);
    expect(listed.used_bytes).toBe(audio.length);
    expect(stored(relative)).toBe(true);
    expect(staged()).toBe(0);
  });

  it('refuses what is not audio, no file, a blank name and a file too large, keeping nothing', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const notAudio = await upload(ada, { audio_file: { filename: 'song.mp3', content: Buffer.from('<html>') } });
    expect(notAudio.statusCode).toBe(400);
    expect(notAudio.json()).toEqual({ audio_file: ['Upload an audio file: MP3, OGG, WAV, M4A/AAC or FLAC.'] });
    // Magic bytes alone, or a header with nothing after it, were kept and served back as audio.
    for (const [filename, content] of headersOnly) {
      const answer = await upload(ada, { audio_file: { filename, content } });
      expect([filename, answer.statusCode, answer.json()]).toEqual([
        filename,
        400,
        { audio_file: ['Upload an audio file: MP3, OGG, WAV, M4A/AAC or FLAC.'] },
      ]);
    }
    expect((await call(ada, 'GET', API.myMusic)).json().tracks).toEqual([]);
    expect((await upload(ada, { name: 'Nothing' })).json()).toEqual({ audio_file: ['No file was submitted.'] });
    const blank = await upload(ada, { name: ' ', audio_file: { filename: '.mp3', content: fakeMp3() } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toHaveProperty('name');
    const long = await upload(ada, { name: 'n'.repeat(81), audio_file: { filename: 'a.mp3', content: fakeMp3() } });
    expect(long.statusCode).toBe(400);
    const tooLarge = await upload(ada, {
      audio_file: { filename: 'big.mp3', content: fakeMp3(OWN_MUSIC.maxFileBytes + 10) },
    });
    expect(tooLarge.statusCode).toBe(413);
    const json = await t.app.inject({ method: 'POST', url: API.myMusic, headers: ada.headers, payload: {} });
    expect(json.statusCode).toBe(415);

    expect((await call(ada, 'GET', API.myMusic)).json().tracks).toEqual([]);
    expect(staged()).toBe(0);
  });

  it('names a track from its file name without the direction controls it holds, which nobody typed (decision 063 is for typed text)', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const created = await upload(ada, {
      audio_file: { filename: 'Rain\u202e3pm.\u2066calm\u2069.wav', content: toneWav() },
    });
    expect([created.statusCode, created.json().name]).toEqual([201, 'Rain3pm.calm']);
    const nameless = await upload(ada, { audio_file: { filename: '\u202a\u202e.wav', content: toneWav(801) } });
    expect([nameless.statusCode, nameless.json()]).toEqual([400, { name: [TRACK_NAME_NEEDED] }]);
  });

  it('names a track from its file name without the control characters a file name cannot hold, and asks for a name when that leaves none', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const wav = toneWav();
    const created = await upload(ada, { audio_file: { filename: 'evil\u0000na\u0007me.wav', content: wav } });
    expect(created.statusCode).toBe(201);
    expect(created.json().name).toBe('evilname');
    // A file name with nothing that shows before its extension names no track: the person is asked for a name.
    for (const filename of ['\u0000\u0000.wav', '.wav', ' .wav', '\u0301\u0301.wav', '\u200b\ufeff.wav']) {
      const nameless = await upload(ada, { audio_file: { filename, content: toneWav(801) } });
      expect([filename, nameless.statusCode, nameless.json()]).toEqual([filename, 400, { name: [TRACK_NAME_NEEDED] }]);
    }
    const named = await upload(ada, { name: 'Rain', audio_file: { filename: '.wav', content: toneWav(801) } });
    expect(named.statusCode).toBe(201);
    const blank = await upload(ada, { name: '\u200b', audio_file: { filename: 'song.wav', content: toneWav(802) } });
    expect(blank.json()).toEqual({ name: ['This field may not be blank.'] });
    expect((await call(ada, 'GET', API.myMusic)).json().tracks.map((track: { name: string }) => track.name)).toEqual([
      'evilname',
      'Rain',
    ]);
    expect(staged()).toBe(0);
  });

  it('names a track from a long file name cut at its 80 characters, emoji counted as one and never cut in two', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    // Two UTF-16 units each, after one: cut at 80 units, the name kept 40 of them and half of the 41st.
    const created = await upload(ada, { audio_file: { filename: `a${'🎵'.repeat(100)}.wav`, content: toneWav() } });
    expect([created.statusCode, created.json().name]).toEqual([201, `a${'🎵'.repeat(OWN_MUSIC.nameMax - 1)}`]);
  });

  it('names a track from a file name in UTF-8, in RFC 5987’s filename*, or in Latin-1/windows-1252 as old clients send it', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const sent = [
      { filename: Buffer.from('Caf\xe9 \x80 \x93Noir\x94.mp3', 'latin1') },
      { filename: Buffer.from('Café crème.mp3', 'utf8') },
      { extendedFilename: "UTF-8''Caf%C3%A9%20%E2%98%95.mp3" },
      {
        filename: Buffer.from('Caf\xe9 au lait.mp3', 'latin1'),
        extendedFilename: "UTF-8''Caf%C3%A9%20%C3%A0%20emporter.mp3",
      },
      { filename: 'old.mp3', extendedFilename: "ISO-8859-1''Cr%E8me.mp3" },
      { filename: Buffer.from('Song.mp3') },
    ];
    for (const [i, file] of sent.entries()) {
      const created = await upload(ada, { audio_file: { ...file, content: fakeMp3(1100 + i) } });
      expect(created.statusCode).toBe(201);
    }
    expect((await call(ada, 'GET', API.myMusic)).json().tracks.map((track: { name: string }) => track.name)).toEqual([
      'Café € “Noir”',
      'Café crème',
      'Café ☕',
      'Café à emporter',
      'Crème',
      'Song',
    ]);
  });

  it('keeps to the quota of tracks and bytes, and says how much room is left', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const { db } = t.database;
    // Rows alone stand for a full library (the upload itself has its own test above).
    await db.insert(ownTracks).values({
      userId: ada.id,
      name: 'Long set',
      audioFile: `own-music/${ada.id}/placeholder.mp3`,
      bytes: OWN_MUSIC.maxBytes - 1000,
    });
    const over = await upload(ada, { audio_file: { filename: 'a.mp3', content: fakeMp3(2048) } });
    expect(over.statusCode).toBe(403);
    expect(over.json().detail).toMatch(
      /^This file needs 2\u00a0KB, and your music has 1000\u00a0bytes of 500\u00a0MB left\./,
    );
    expect(staged()).toBe(0);

    await db.insert(ownTracks).values(
      Array.from({ length: OWN_MUSIC.maxTracks - 1 }, (_, i) => ({
        userId: ada.id,
        name: `Track ${i}`,
        audioFile: `own-music/${ada.id}/p${i}.mp3`,
        bytes: 0,
      })),
    );
    const full = await upload(ada, { audio_file: { filename: 'a.mp3', content: fakeMp3(10) } });
    expect(full.json().detail).toBe(`Your music keeps up to ${OWN_MUSIC.maxTracks} tracks. Delete one to add another.`);
  });

  it('refuses an upload to a full music before reading its body, and still takes one once a track is deleted', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const { db } = t.database;
    const rows = await db
      .insert(ownTracks)
      .values(
        Array.from({ length: OWN_MUSIC.maxTracks }, (_, i) => ({
          userId: ada.id,
          name: `Track ${i}`,
          audioFile: `own-music/${ada.id}/p${i}.mp3`,
          bytes: 0,
        })),
      )
      .returning({ id: ownTracks.id });
    const body = multipartBody({ audio_file: { filename: 'a.mp3', content: fakeMp3(64 * 1024) } });
    // The body is there to be read, and says so when it is.
    let read = false;
    const payload = new Readable({
      read() {
        read = true;
        this.push(body.payload);
        this.push(null);
      },
    });
    const full = await t.app.inject({
      method: 'POST',
      url: API.myMusic,
      payload,
      headers: { ...ada.headers, ...body.headers, 'content-length': `${body.payload.length}` },
    });
    expect([full.statusCode, full.json()]).toEqual([
      403,
      { detail: `Your music keeps up to ${OWN_MUSIC.maxTracks} tracks. Delete one to add another.` },
    ]);
    expect(read).toBe(false);
    expect(staged()).toBe(0);

    await db.delete(ownTracks).where(eq(ownTracks.id, rows[0]!.id));
    const room = await upload(ada, { audio_file: { filename: 'a.mp3', content: fakeMp3(64 * 1024) } });
    expect(room.statusCode, room.body).toBe(201);
  });

  it('goes with the account: its files are removed when the account is deleted', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const audio = fakeMp3(1024);
    await upload(ada, { audio_file: { filename: 'mine.mp3', content: audio } });
    const relative = `own-music/${ada.id}/${createHash('sha256').update(audio).digest('hex')}.mp3`;
    expect(stored(relative)).toBe(true);
    expect(await deleteUser(t.database.db, t.ctx.mediaFiles, ada.id, t.app.log)).toEqual({ stripeCustomerId: null });
    expect(stored(relative)).toBe(false);
    // Nor is the person's folder left behind, empty.
    expect(stored(`own-music/${ada.id}`)).toBe(false);
  });

  it('adds nothing for an account deleted while its upload was under way, and leaves no folder of it', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    await upload(ada, { audio_file: { filename: 'first.mp3', content: fakeMp3(1300) } });
    // The upload is held at its transaction (the file placed and the row written in it) until the account is gone.
    const { db } = t.database;
    const transaction = db.transaction.bind(db);
    let reached = () => {};
    const atTransaction = new Promise<void>((resolve) => (reached = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = vi.spyOn(db, 'transaction').mockImplementationOnce(async (...args: Parameters<Db['transaction']>) => {
      reached();
      await released;
      return transaction(...args);
    });
    try {
      const late = upload(ada, { audio_file: { filename: 'late.mp3', content: fakeMp3(1301) } });
      await atTransaction;
      expect(await deleteUser(db, t.ctx.mediaFiles, ada.id, t.app.log)).toEqual({ stripeCustomerId: null });
      expect(stored(`own-music/${ada.id}`)).toBe(false);
      release();
      const answer = await late;
      expect([answer.statusCode, answer.json().code]).toEqual([401, 'token_not_valid']);
    } finally {
      held.mockRestore();
    }
    expect(await db.select().from(ownTracks).where(eq(ownTracks.userId, ada.id))).toEqual([]);
    expect(stored(`own-music/${ada.id}`)).toBe(false);
    expect(staged()).toBe(0);
  });
});
