import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { mediaFilesIn } from '../test/media';
import { stageBuffer } from '../media/store';
import type { LeftFilesLog } from '../media/store';
import { fakeMp3 } from './test/fake-audio';
import * as audio from './audio-service';
import type { ContentStore } from './media-context';

// Two changes of one item's files at once (two staff tabs, two staff members): whatever order they land in, the
// media folder keeps only the files a row names (docs/product/content.md#media-files).
describe('audio items changed at once', () => {
  let t: TestApp;
  let store: ContentStore;
  const left: string[][] = [];
  const log: LeftFilesLog = { error: ({ files }) => left.push(files) };
  beforeAll(async () => {
    t = await createTestApp();
    store = { db: t.ctx.database.db, files: t.ctx.mediaFiles, mediaUrl: t.ctx.media.url };
  });
  afterAll(() => t.close());

  const staged = () => stageBuffer(fakeMp3(), store.files.stagingRoot);
  const filesOf = async (kind: 'custom', id?: number) =>
    (await audio.listAudioItems(store, kind))
      .filter((item) => id === undefined || item.id === id)
      .map((item) => new URL(item.audio_file).pathname.replace(/^\/media\//, ''));

  it('keeps only the file the item names after two replacements at once', async () => {
    const item = await audio.createAudioItem(store, {
      kind: 'custom',
      fields: { name: 'Drift' },
      audio: await staged(),
    });
    const [a, b] = [await staged(), await staged()];
    await Promise.all([
      audio.replaceAudioFiles(store, 'custom', item.id, { audio: a }, log),
      audio.replaceAudioFiles(store, 'custom', item.id, { audio: b }, log),
    ]);
    expect(mediaFilesIn(t.dataDir)).toEqual(await filesOf('custom', item.id));
    await audio.deleteAudioItem(store, 'custom', item.id, log);
  });

  it('removes the file a replacement put in while the item was deleted', async () => {
    const item = await audio.createAudioItem(store, {
      kind: 'custom',
      fields: { name: 'Tide' },
      audio: await staged(),
    });
    const replacement = await staged();
    const answers = await Promise.allSettled([
      audio.replaceAudioFiles(store, 'custom', item.id, { audio: replacement }, log),
      audio.deleteAudioItem(store, 'custom', item.id, log),
    ]);
    expect(answers[1].status).toBe('fulfilled');
    expect(await filesOf('custom')).toEqual([]);
    expect(mediaFilesIn(t.dataDir)).toEqual([]);
    expect(left).toEqual([]);
  });
});
