import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, fillPath, VOICE_RECORDINGS } from '@shared/contract';
import { deleteUser } from '../admin/users-service';
import { fakeMp3, toneWav } from '../admin/test/fake-audio';
import { voiceRecordings } from '../db/schema';
import { waitingOnLocks } from '../test/database';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { signedMediaUrl } from '../test/media';
import { multipartBody } from '../test/multipart';
import { createTestApp, type TestApp } from '../test/test-app';
import { ownTestKit } from './test-kit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { call, setPlan } = ownTestKit(() => t);
const recordingPath = (id: number) => fillPath(API.myVoiceRecording, { id });
const stored = (relative: string) => existsSync(path.join(t.dataDir, 'media', relative));
const staged = () => {
  const dir = path.join(t.dataDir, 'media', '.incoming');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};
const fileOf = (user: SignedInUser, wav: Buffer) =>
  `own-voice/${user.id}/${createHash('sha256').update(wav).digest('hex')}.wav`;
/** A second of speech as the browser sends it: 22.05 kHz, one channel, 16 bits. */
const take = (seconds = 1, rate = 22_050) => toneWav(Math.round(seconds * rate), rate);
const FORMAT = 'Upload the recording as a WAV file: 16-bit PCM, one channel, 8 to 48 kHz.';

function record(user: SignedInUser, parts: Parameters<typeof multipartBody>[0]) {
  const body = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url: API.myVoice,
    payload: body.payload,
    headers: { ...user.headers, ...body.headers },
  });
}
const wavPart = (content: Buffer) => ({ filename: 'take.wav', content });

describe('own voice', () => {
  it('is Pro’s to record: other plans are refused before the upload is read, and see an empty list', async () => {
    const ada = await signedInUser(t.ctx);
    const refused = await record(ada, { text: 'I am calm.', audio_file: wavPart(take()) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'Recording your own voice is part of the Pro plan.',
      code: 'plan_required',
      required_plan: 'pro',
    });
    expect((await call(ada, 'GET', API.myVoice)).json()).toEqual({
      recordings: [],
      max_recordings: VOICE_RECORDINGS.maxRecordings,
      max_seconds: VOICE_RECORDINGS.maxSeconds,
    });
    expect((await call(undefined, 'GET', API.myVoice)).statusCode).toBe(401);
    expect(staged()).toBe(0);
  });

  it('keeps one take a text: a new take replaces the file, and a deleted one is gone with its file', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const first = take(1.5);
    const created = await record(ada, { text: '  I am calm.  ', audio_file: wavPart(first) });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(Number),
      text: 'I am calm.',
      url: signedMediaUrl(fileOf(ada, first)),
      duration_ms: 1500,
      bytes: first.length,
      created_at: expect.any(String),
    });
    expect(stored(fileOf(ada, first))).toBe(true);

    const second = take(2, 16_000);
    const replaced = await record(ada, { text: 'I am calm.', audio_file: wavPart(second) });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ id: created.json().id, duration_ms: 2000, bytes: second.length });
    expect(stored(fileOf(ada, first))).toBe(false);
    expect(stored(fileOf(ada, second))).toBe(true);

    // The same bytes for another text are one file, kept while either names it.
    const other = await record(ada, { text: 'I breathe slowly.', audio_file: wavPart(second) });
    expect(other.statusCode).toBe(201);
    const listed = (await call(ada, 'GET', API.myVoice)).json();
    expect(listed.recordings.map((r: { text: string }) => r.text)).toEqual(['I am calm.', 'I breathe slowly.']);

    const bob = await signedInUser(t.ctx);
    expect((await call(bob, 'GET', API.myVoice)).json().recordings).toEqual([]);
    expect((await call(bob, 'DELETE', recordingPath(created.json().id))).statusCode).toBe(404);

    expect((await call(ada, 'DELETE', recordingPath(created.json().id))).statusCode).toBe(204);
    expect(stored(fileOf(ada, second))).toBe(true);
    expect((await call(ada, 'DELETE', recordingPath(other.json().id))).statusCode).toBe(204);
    expect(stored(fileOf(ada, second))).toBe(false);
    expect((await call(ada, 'DELETE', recordingPath(other.json().id))).statusCode).toBe(404);
  });

  it('takes only a mono 16-bit PCM WAV file of 0.3 to 20 seconds, for a text a playlist can hold', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const eightBit = Buffer.from(toneWav(8000));
    eightBit.writeUInt16LE(1, 32);
    eightBit.writeUInt16LE(8, 34);
    const truncated = take(1).subarray(0, 20_000);
    // A header whose fields cannot all be true: each is refused, never kept as a take.
    const withHeader = (offset: number, write: (wav: Buffer) => void) => {
      const wav = Buffer.from(take());
      write(wav.subarray(offset));
      return wavPart(wav);
    };
    const impossible: Array<[string, ReturnType<typeof wavPart>]> = [
      ['byte rate 0', withHeader(28, (at) => at.writeUInt32LE(0, 0))],
      ['byte rate of another rate', withHeader(28, (at) => at.writeUInt32LE(44_100 * 2, 0))],
      ['0 channels', withHeader(22, (at) => at.writeUInt16LE(0, 0))],
      ['sample rate 0', withHeader(24, (at) => at.writeUInt32LE(0, 0))],
      ['block align 0', withHeader(32, (at) => at.writeUInt16LE(0, 0))],
      ['data longer than the file', withHeader(40, (at) => at.writeUInt32LE(at.readUInt32LE(0) + 2, 0))],
    ];
    const refusals: Array<[string, Parameters<typeof multipartBody>[0], object]> = [
      ['stereo', { text: 'a', audio_file: wavPart(toneWav(8000, 8000, 2)) }, { audio_file: [FORMAT] }],
      ['8-bit', { text: 'a', audio_file: wavPart(eightBit) }, { audio_file: [FORMAT] }],
      ['96 kHz', { text: 'a', audio_file: wavPart(take(1, 96_000)) }, { audio_file: [FORMAT] }],
      ['MP3', { text: 'a', audio_file: wavPart(fakeMp3()) }, { audio_file: [FORMAT] }],
      ['cut short', { text: 'a', audio_file: wavPart(truncated) }, { audio_file: [FORMAT] }],
      ...impossible.map(([what, file]): [string, Parameters<typeof multipartBody>[0], object] => [
        what,
        { text: 'a', audio_file: file },
        { audio_file: [FORMAT] },
      ]),
      [
        'too long',
        { text: 'a', audio_file: wavPart(take(20.5, 8000)) },
        { audio_file: ['Ensure this recording is no longer than 20 seconds.'] },
      ],
      [
        'a click',
        { text: 'a', audio_file: wavPart(take(0.2)) },
        { audio_file: ['This recording is too short to hear.'] },
      ],
      ['no file', { text: 'a' }, { audio_file: ['No file was submitted.'] }],
      ['no text', { audio_file: wavPart(take()) }, { text: ['This field is required.'] }],
      ['blank text', { text: '   ', audio_file: wavPart(take()) }, { text: ['This field may not be blank.'] }],
      [
        'text in Latin-1',
        { text: Buffer.from('Je suis calme, très calme.', 'latin1'), audio_file: wavPart(take()) },
        { detail: 'Multipart form parse error - the request body is not valid UTF-8.' },
      ],
      [
        'long text',
        { text: 'x'.repeat(601), audio_file: wavPart(take()) },
        { text: ['Ensure this field has no more than 600 characters.'] },
      ],
    ];
    for (const [what, parts, body] of refusals) {
      const answer = await record(ada, parts);
      expect([what, answer.statusCode, answer.json()]).toEqual([what, 400, body]);
    }
    const tooLarge = await record(ada, {
      text: 'a',
      audio_file: wavPart(toneWav(VOICE_RECORDINGS.maxFileBytes / 2, 48_000)),
    });
    expect(tooLarge.statusCode).toBe(413);
    const json = await t.app.inject({ method: 'POST', url: API.myVoice, headers: ada.headers, payload: {} });
    expect(json.statusCode).toBe(415);

    expect((await call(ada, 'GET', API.myVoice)).json().recordings).toEqual([]);
    expect(existsSync(path.join(t.dataDir, 'media', 'own-voice', String(ada.id)))).toBe(false);
    expect(staged()).toBe(0);
  });

  /** A Pro member whose voice holds its most recordings, of "Message 0" to "Message 99". */
  async function proWithAFullVoice() {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    await t.database.db.insert(voiceRecordings).values(
      Array.from({ length: VOICE_RECORDINGS.maxRecordings }, (_, i) => ({
        userId: ada.id,
        text: `Message ${i}`,
        audioFile: `own-voice/${ada.id}/p${i}.wav`,
        bytes: 1,
        durationMs: 1000,
      })),
    );
    return ada;
  }

  it(`keeps up to ${VOICE_RECORDINGS.maxRecordings} recordings; a new take of one of them still goes`, async () => {
    const ada = await proWithAFullVoice();
    const full = await record(ada, { text: 'One more', audio_file: wavPart(take()) });
    expect(full.statusCode).toBe(403);
    expect(full.json()).toEqual({ detail: 'Your voice keeps up to 100 recordings. Delete one to record another.' });
    expect(stored(fileOf(ada, take()))).toBe(false);
    expect((await record(ada, { text: 'Message 7', audio_file: wavPart(take()) })).statusCode).toBe(200);
    expect(staged()).toBe(0);
  });

  it('refuses a take of a new text to a full voice before its file is read', async () => {
    const ada = await proWithAFullVoice();
    // The text and the file's first bytes are sent, the rest never: an answer can only come before the file is read.
    const body = multipartBody({ text: 'One more', audio_file: wavPart(take()) });
    const payload = new PassThrough();
    payload.write(body.payload.subarray(0, body.payload.indexOf('RIFF') + 1024));
    const answer = t.app.inject({
      method: 'POST',
      url: API.myVoice,
      payload,
      headers: { ...ada.headers, ...body.headers, 'content-length': `${body.payload.length}` },
    });
    try {
      // Bounded well past a call's time on a busy machine (several seconds at a load of 28), within the test's.
      const full = await Promise.race([answer, sleep(20_000).then(() => undefined)]);
      expect([full?.statusCode, full?.json()]).toEqual([
        403,
        { detail: 'Your voice keeps up to 100 recordings. Delete one to record another.' },
      ]);
      expect(staged()).toBe(0);
    } finally {
      payload.end(body.payload.subarray(body.payload.indexOf('RIFF') + 1024));
      await answer;
    }
  });

  it('stores one recording when two takes of a text arrive at once', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const [one, two] = [take(1), take(2)];
    const answers = await Promise.all([
      record(ada, { text: 'Together', audio_file: wavPart(one) }),
      record(ada, { text: 'Together', audio_file: wavPart(two) }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 201]);
    const { recordings } = (await call(ada, 'GET', API.myVoice)).json();
    expect(recordings).toHaveLength(1);
    const [kept, dropped] = recordings[0].duration_ms === 1000 ? [one, two] : [two, one];
    expect(stored(fileOf(ada, kept))).toBe(true);
    expect(stored(fileOf(ada, dropped))).toBe(false);
  });

  it('stores a new take of a text whose recording is deleted in another tab at that moment as a new recording', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const [first, again] = [take(1), take(2)];
    const created = (await record(ada, { text: 'Again', audio_file: wavPart(first) })).json<{ id: number }>();
    let retaken: ReturnType<typeof record> | undefined;
    await t.database.db.transaction(async (tx) => {
      // The deletion holds the recording's row while the new take is on its way. On PostgreSQL the take has read the
      // row and waits for it; PGlite runs one transaction at a time, so there the deletion lands before the take's read.
      await tx.select().from(voiceRecordings).where(eq(voiceRecordings.id, created.id)).for('update');
      // inject() sends the request once awaited; then() sends it now.
      retaken = record(ada, { text: 'Again', audio_file: wavPart(again) }).then((response) => response);
      if (t.database.kind === 'postgres') await waitingOnLocks(t.database);
      await tx.delete(voiceRecordings).where(eq(voiceRecordings.id, created.id));
    });
    const answer = await retaken!;
    expect(answer.statusCode, answer.body).toBe(201);
    const { recordings } = (await call(ada, 'GET', API.myVoice)).json();
    expect(recordings).toMatchObject([{ id: answer.json().id, text: 'Again', duration_ms: 2000 }]);
    expect(stored(fileOf(ada, again))).toBe(true);
  });

  it('stays listed and deletable after a downgrade, and goes with the account', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const wav = take(1);
    const created = (await record(ada, { text: 'Mine', audio_file: wavPart(wav) })).json();
    await setPlan(ada, 'basic');
    expect((await call(ada, 'GET', API.myVoice)).json().recordings).toHaveLength(1);
    expect((await record(ada, { text: 'Mine', audio_file: wavPart(take(2)) })).statusCode).toBe(403);
    await setPlan(ada, 'pro');
    await record(ada, { text: 'Other', audio_file: wavPart(take(3)) });
    await setPlan(ada, 'basic');
    expect((await call(ada, 'DELETE', recordingPath(created.id))).statusCode).toBe(204);
    expect(stored(fileOf(ada, wav))).toBe(false);
    expect(stored(fileOf(ada, take(3)))).toBe(true);
    expect(await deleteUser(t.database.db, t.ctx.mediaFiles, ada.id, t.app.log)).toEqual({ stripeCustomerId: null });
    expect(stored(fileOf(ada, take(3)))).toBe(false);
    // Nor is the person's folder left behind, empty.
    expect(stored(`own-voice/${ada.id}`)).toBe(false);
  });
});
