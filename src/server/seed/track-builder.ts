import { fork } from 'node:child_process';
import type { SeedTrack } from './media/catalog';

export type TrackFiles = { audio: Uint8Array; cover: Buffer };
/** Makes a track's files; an aborted `signal` may end it early with the abort. */
export type TrackBuild = (track: SeedTrack, signal?: AbortSignal) => Promise<TrackFiles>;

/**
 * Builds a catalogue track's files in a child process (the synthesis is seconds of synchronous work
 * per track). Not a worker thread: the memory a track's synthesis takes (about 60 MB) stayed with the
 * process after each thread ended, and a first start held over 1 GB for as long as it ran; a process
 * gives it all back when it exits. The child loads TypeScript through tsx where the server itself does
 * (track-worker.mjs), and runs the bundle's entry otherwise.
 */
export function buildTrackFilesInChildProcess(track: SeedTrack, signal?: AbortSignal): Promise<TrackFiles> {
  return new Promise((resolve, reject) => {
    // Aborted (the server stopping): the child is killed and the promise rejects with the abort.
    const child = fork(new URL('./track-worker.mjs', import.meta.url), [track.kind, track.name], {
      serialization: 'advanced',
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      signal,
    });
    let files: TrackFiles | undefined;
    child.once('message', (message: { audio: Uint8Array; cover: Uint8Array }) => {
      files = {
        audio: message.audio,
        cover: Buffer.from(message.cover.buffer, message.cover.byteOffset, message.cover.byteLength),
      };
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (files) resolve(files);
      else reject(new Error(`seed process for "${track.name}" ended (${signal ?? `code ${code}`}) without its files`));
    });
  });
}
