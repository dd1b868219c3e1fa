import { Worker } from 'node:worker_threads';
import type { SeedTrack } from './media/catalog';

export type TrackFiles = { audio: Uint8Array; cover: Buffer };

/**
 * Builds a catalogue track's files in a worker thread (the synthesis is seconds of synchronous
 * work per track). The worker loads TypeScript through tsx, as the server itself does.
 */
export function buildTrackFilesInWorker(track: SeedTrack): Promise<TrackFiles> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./track-worker.mjs', import.meta.url), {
      workerData: { kind: track.kind, name: track.name },
    });
    worker.once('message', (files: { audio: Uint8Array; cover: Uint8Array }) =>
      resolve({
        audio: files.audio,
        cover: Buffer.from(files.cover.buffer, files.cover.byteOffset, files.cover.byteLength),
      }),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`seed worker for "${track.name}" exited with code ${code}`));
    });
  });
}
