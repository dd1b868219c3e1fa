import { buildTrackFiles, SEED_TRACKS } from './media/catalog';

// Synthesises one catalogue track in a process of its own (track-builder.ts), so the server keeps
// answering meanwhile and gets its memory back when the process ends.

const [kind, name] = process.argv.slice(2);
const track = SEED_TRACKS.find((candidate) => candidate.kind === kind && candidate.name === name);
if (!track) throw new Error(`no seed track ${kind} "${name}"`);
const files = await buildTrackFiles(track);
process.send?.(files, () => process.disconnect());
