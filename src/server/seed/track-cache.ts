import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths';
import type { TrackBuild } from './track-builder';

// Synthesis is deterministic, so a fresh data folder (a new install, every e2e run) can reuse the
// files built before: they are kept per source version in node_modules/.cache, outside DATA_DIR.

const CACHE_DIR = path.join(PROJECT_ROOT, 'node_modules/.cache/innerwave-seed-media');
const SOURCES = ['catalog.ts', 'audio.ts', 'cover.ts'].map((file) =>
  path.join(PROJECT_ROOT, 'src/server/seed/media', file),
);

let sourceVersion: Promise<string> | undefined;
const version = () =>
  (sourceVersion ??= Promise.all(SOURCES.map((file) => readFile(file))).then((contents) => {
    const hash = createHash('sha256');
    for (const content of contents) hash.update(content);
    return hash.digest('hex').slice(0, 16);
  }));

async function writeAtomically(file: string, bytes: Uint8Array) {
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, bytes);
  await rename(temp, file);
}

/** Wraps a track builder with the cache; a cache that cannot be written only costs the reuse. */
export function withTrackCache(build: TrackBuild, cacheDir = CACHE_DIR): TrackBuild {
  return async (track, signal) => {
    const base = path.join(cacheDir, `${await version()}-${track.kind}-${track.slug}`);
    try {
      const [audio, cover] = await Promise.all([readFile(`${base}.mp3`), readFile(`${base}.webp`)]);
      return { audio: new Uint8Array(audio), cover };
    } catch {
      const files = await build(track, signal);
      try {
        await mkdir(cacheDir, { recursive: true });
        await writeAtomically(`${base}.mp3`, files.audio);
        await writeAtomically(`${base}.webp`, files.cover);
      } catch {
        // Read-only install: build every time.
      }
      return files;
    }
  };
}
