import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
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

/** A store, and what it holds under a folder (`own-music/7/`): its files, or its objects by that prefix. */
interface StoreUnderTest {
  store: MediaStore;
  heldUnder(prefix: string): Promise<string[]>;
}

const stores: Array<[string, () => StoreUnderTest]> = [
  [
    'the local folder',
    () => {
      const root = folder();
      return {
        store: localMediaStore(root),
        heldUnder: async (prefix) => (existsSync(path.join(root, prefix)) ? readdir(path.join(root, prefix)) : []),
      };
    },
  ],
  [
    'S3-compatible storage',
    () => {
      const { s3 } = loadConfig({ DATA_DIR: folder(), ...standIn.env });
      if (!s3) throw new Error('the stand-in did not configure S3');
      return {
        store: s3MediaStore(createS3Client(s3), s3.bucket, folder()),
        // The stand-in's listing, asked unsigned (it refuses the SDK's signature of a list).
        heldUnder: async (prefix) => {
          const listing = await fetch(`${standIn.url}/${s3.bucket}?prefix=${encodeURIComponent(prefix)}`);
          expect(listing.status).toBe(200);
          return [...(await listing.text()).matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1]!);
        },
      };
    },
  ],
];

describe.each(stores)('the media store contract: %s', (_name, makeStore) => {
  let store: MediaStore;
  let heldUnder: StoreUnderTest['heldUnder'];
  beforeAll(() => {
    ({ store, heldUnder } = makeStore());
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

  it('leaves nothing of a folder whose last file is removed (not even the folder), and stores into it again', async () => {
    await put('own-music/7/a.mp3', 'a');
    await put('own-music/7/b.mp3', 'b');
    await put('own-music/8/c.mp3', 'c');
    await store.remove('own-music/7/a.mp3');
    expect(await heldUnder('own-music/7/')).toHaveLength(1);
    await store.remove('own-music/7/b.mp3');
    expect(await heldUnder('own-music/7/')).toEqual([]);
    expect(await heldUnder('own-music/')).toHaveLength(1);
    expect(await put('own-music/7/d.mp3', 'd')).toEqual({ created: true });
    expect(await text(await store.read('own-music/7/d.mp3'))).toBe('d');
  });
});

// Folders are the local store's own: the S3 stand-in keeps objects as files too, and races the same way.
describe('the local folder', () => {
  it('places a file into a folder whose last other file is being removed at the same moment', async () => {
    const root = folder();
    const store = localMediaStore(root);
    const put = async (relative: string, content: string) =>
      store.place(await stageBuffer(Buffer.from(content), store.stagingRoot), relative);
    for (let round = 0; round < 20; round++) {
      await put(`own-voice/9/old-${round}.wav`, 'old');
      const [placed] = await Promise.all([
        put(`own-voice/9/new-${round}.wav`, 'new'),
        store.remove(`own-voice/9/old-${round}.wav`),
      ]);
      expect(placed).toEqual({ created: true });
      expect(await text(await store.read(`own-voice/9/new-${round}.wav`))).toBe('new');
      await store.remove(`own-voice/9/new-${round}.wav`);
    }
    expect(existsSync(path.join(root, 'own-voice/9'))).toBe(false);
  });
});
