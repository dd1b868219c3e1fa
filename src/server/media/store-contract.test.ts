import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startS3StandIn, type S3StandIn } from '../test/s3-stand-in';
import { createS3Client, s3MediaStore } from './s3-store';
import { localMediaStore, MediaFileMissingError, stageBuffer, type MediaStore } from './store';

// One contract, both implementations: what the app relies on from wherever media live.

let standIn: S3StandIn;
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-contract-'));
  folders.push(dir);
  return dir;
};
beforeAll(async () => {
  standIn = await startS3StandIn();
});
afterAll(async () => {
  await standIn.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const stores: Array<[string, () => MediaStore]> = [
  ['the local folder', () => localMediaStore(folder())],
  [
    'S3-compatible storage',
    () => {
      const { s3 } = loadConfig({ DATA_DIR: folder(), ...standIn.env });
      if (!s3) throw new Error('the stand-in did not configure S3');
      return s3MediaStore(createS3Client(s3), s3.bucket, folder());
    },
  ],
];

describe.each(stores)('the media store contract: %s', (_name, makeStore) => {
  let store: MediaStore;
  beforeAll(() => {
    store = makeStore();
  });
  const put = async (relative: string, content: string) =>
    store.place(await stageBuffer(Buffer.from(content), store.stagingRoot), relative);

  it('places a file whole, reads it back, and reports its size', async () => {
    expect(await put('covers/a.webp', 'the bytes of a')).toEqual({ created: true });
    expect(await text(await store.read('covers/a.webp'))).toBe('the bytes of a');
    expect(await store.size('covers/a.webp')).toBe(14);
  });

  it('leaves a name that already holds the file as it is, and the staged copy goes', async () => {
    const staged = await stageBuffer(Buffer.from('the bytes of a'), store.stagingRoot);
    expect(await store.place(staged, 'covers/a.webp')).toEqual({ created: false });
    expect(await text(await store.read('covers/a.webp'))).toBe('the bytes of a');
  });

  it('reads a byte range, both ends included, and an open-ended one', async () => {
    await put('audio/bonus/r.mp3', '0123456789abcdef');
    expect(await text(await store.read('audio/bonus/r.mp3', { start: 3, end: 6 }))).toBe('3456');
    expect(await text(await store.read('audio/bonus/r.mp3', { start: 12 }))).toBe('cdef');
  });

  it('removes a file; removing one already gone is fine; a missing file is a clear 404', async () => {
    await put('covers/b.webp', 'b');
    expect(await store.size('covers/b.webp')).toBe(1);
    await store.remove('covers/b.webp');
    await store.remove('covers/b.webp');
    expect(await store.size('covers/b.webp')).toBeNull();
    const missing = await store.read('covers/b.webp').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(MediaFileMissingError);
    expect(missing).toMatchObject({ statusCode: 404, message: 'No stored media file covers/b.webp.' });
  });
});
