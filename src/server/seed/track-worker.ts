import { parentPort, workerData } from 'node:worker_threads';
import { buildTrackFiles, SEED_TRACKS } from './media/catalog';

// Synthesises one catalogue track off the main thread, so the server keeps answering meanwhile.

const { kind, name } = workerData as { kind: string; name: string };
const track = SEED_TRACKS.find((candidate) => candidate.kind === kind && candidate.name === name);
if (!track) throw new Error(`no seed track ${kind} "${name}"`);
const files = await buildTrackFiles(track);
parentPort?.postMessage(files, [files.audio.buffer as ArrayBuffer]);
