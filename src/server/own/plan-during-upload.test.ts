import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract';
import type { SubscriptionPlan } from '@shared/constants';
import { fakeMp3, toneWav } from '../admin/test/fake-audio';
import type { Db } from '../db/client';
import { ownTracks, voiceRecordings } from '../db/schema';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { multipartBody, uploadWhile } from '../test/multipart';
import { createTestApp, type TestApp } from '../test/test-app';
import { ownTestKit } from './test-kit';

// A plan that ends (or goes down) while an upload of own music or own voice streams in: the plan is
// checked before the body and again before the file and its row are kept (docs/product/plans.md).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { setPlan } = ownTestKit(() => t);
const media = (...parts: string[]) => path.join(t.dataDir, 'media', ...parts);
const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const planBecomes = (user: SignedInUser, plan: SubscriptionPlan) => () => setPlan(user, plan);

describe('a plan that ends while an upload streams in', () => {
  it('keeps no track of own music: the plan’s usual refusal, no file, no row', async () => {
    const ada = await signedInUser(t.ctx);
    await setPlan(ada, 'pro');
    const audio = fakeMp3(256 * 1024);
    const kept = await uploadWhile(
      t,
      ada.headers,
      API.myMusic,
      { audio_file: { filename: 'rain.mp3', content: audio } },
      () => Promise.resolve(),
    );
    expect(kept.statusCode, kept.body).toBe(201);

    const other = fakeMp3(300 * 1024);
    const refused = await uploadWhile(
      t,
      ada.headers,
      API.myMusic,
      { audio_file: { filename: 'forest.mp3', content: other } },
      planBecomes(ada, 'basic'),
    );
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { detail: 'Adding your own music is part of the Pro plan.', code: 'plan_required', required_plan: 'pro' },
    ]);
    const rows = await t.database.db.select().from(ownTracks).where(eq(ownTracks.userId, ada.id));
    expect(rows.map((row) => row.name)).toEqual(['rain']);
    expect(filesIn(media('own-music', String(ada.id)))).toEqual([`${sha256(audio)}.mp3`]);
    expect(filesIn(media('.incoming'))).toEqual([]);
  });

  it('keeps no recording of own voice, nor a new take of one: the plan’s usual refusal, the old take kept', async () => {
    const bo = await signedInUser(t.ctx);
    await setPlan(bo, 'pro');
    const first = toneWav(22_050, 22_050);
    const wav = (content: Buffer) => ({ filename: 'take.wav', content });
    const recorded = await uploadWhile(t, bo.headers, API.myVoice, { text: 'I am calm.', audio_file: wav(first) }, () =>
      Promise.resolve(),
    );
    expect(recorded.statusCode, recorded.body).toBe(201);

    const refusal = {
      detail: 'Recording your own voice is part of the Pro plan.',
      code: 'plan_required',
      required_plan: 'pro',
    };
    // Down to Intermediate during a new take of the same text, then during a take of another text.
    const retake = await uploadWhile(
      t,
      bo.headers,
      API.myVoice,
      { text: 'I am calm.', audio_file: wav(toneWav(33_075, 22_050)) },
      planBecomes(bo, 'intermediate'),
    );
    expect([retake.statusCode, retake.json()]).toEqual([403, refusal]);
    await setPlan(bo, 'pro');
    const another = await uploadWhile(
      t,
      bo.headers,
      API.myVoice,
      { text: 'I breathe slowly.', audio_file: wav(toneWav(44_100, 22_050)) },
      planBecomes(bo, 'intermediate'),
    );
    expect([another.statusCode, another.json()]).toEqual([403, refusal]);

    const rows = await t.database.db.select().from(voiceRecordings).where(eq(voiceRecordings.userId, bo.id));
    expect(rows.map((row) => [row.text, row.audioFile])).toEqual([
      ['I am calm.', `own-voice/${bo.id}/${sha256(first)}.wav`],
    ]);
    expect(filesIn(media('own-voice', String(bo.id)))).toEqual([`${sha256(first)}.wav`]);
    expect(filesIn(media('.incoming'))).toEqual([]);
  });

  it('keeps nothing when the plan ends after the body, as the file is being kept (its transfer to the storage)', async () => {
    const cy = await signedInUser(t.ctx);
    await setPlan(cy, 'pro');
    const { db } = t.database;
    const transaction = db.transaction.bind(db);
    // The plan ends just as the transaction that places the file and writes its row opens.
    const held = vi.spyOn(db, 'transaction').mockImplementation(async (...args: Parameters<Db['transaction']>) => {
      await setPlan(cy, 'basic');
      return transaction(...args);
    });
    try {
      const music = multipartBody({ audio_file: { filename: 'rain.mp3', content: fakeMp3(4096) } });
      const voice = multipartBody({ text: 'I am calm.', audio_file: { filename: 'take.wav', content: toneWav(8000) } });
      for (const [url, body] of [
        [API.myMusic, music],
        [API.myVoice, voice],
      ] as const) {
        await setPlan(cy, 'pro');
        const answer = await t.app.inject({
          method: 'POST',
          url,
          payload: body.payload,
          headers: { ...cy.headers, ...body.headers },
        });
        expect([url, answer.statusCode, answer.json().code]).toEqual([url, 403, 'plan_required']);
      }
    } finally {
      held.mockRestore();
    }
    expect(await t.database.db.select().from(ownTracks).where(eq(ownTracks.userId, cy.id))).toEqual([]);
    expect(await t.database.db.select().from(voiceRecordings).where(eq(voiceRecordings.userId, cy.id))).toEqual([]);
    expect(filesIn(media('own-music', String(cy.id)))).toEqual([]);
    expect(filesIn(media('own-voice', String(cy.id)))).toEqual([]);
    expect(filesIn(media('.incoming'))).toEqual([]);
  });
});
