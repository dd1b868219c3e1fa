import { setPriority } from 'node:os';
import { buildTrackFiles, SEED_TRACKS } from './media/catalog';

// Synthesises one catalogue track in a process of its own (track-builder.ts), so the server keeps
// answering meanwhile and gets its memory back when the process ends.

// Background work, at the lowest CPU priority: on a first start it runs for tens of seconds, and
// everything a person waits for goes first, the password hashing too.
// On Linux, pid 0 names the calling thread: the one that synthesises.
setPriority(0, 19);

const [kind, name] = process.argv.slice(2);
const track = SEED_TRACKS.find((candidate) => candidate.kind === kind && candidate.name === name);
if (!track) throw new Error(`no seed track ${kind} "${name}"`);
const files = await buildTrackFiles(track);
process.send?.(files, () => process.disconnect());
