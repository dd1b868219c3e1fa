import { describe, expect, it } from 'vitest';
import { buildTrackFiles, SEED_TRACKS, type SeedTrack } from './media/catalog';
import { buildTrackFilesInChildProcess } from './track-builder';

describe('a seed track built in a process of its own', () => {
  it('has the bytes the synthesis makes in this process', async () => {
    const track = SEED_TRACKS[0]!;
    const [built, here] = await Promise.all([buildTrackFilesInChildProcess(track), buildTrackFiles(track)]);
    expect(Buffer.from(built.audio).equals(Buffer.from(here.audio))).toBe(true);
    expect(built.cover.equals(Buffer.from(here.cover))).toBe(true);
  }, 60_000);

  it('kills its process when aborted, and rejects with the abort', async () => {
    const stop = new AbortController();
    const building = buildTrackFilesInChildProcess(SEED_TRACKS[0]!, stop.signal);
    setTimeout(() => stop.abort(), 50);
    const started = performance.now();
    await expect(building).rejects.toMatchObject({ name: 'AbortError' });
    // Well before a track's synthesis (seconds) would have ended.
    expect(performance.now() - started).toBeLessThan(1000);
  }, 60_000);

  it('fails, naming the track, when the process ends without its files', async () => {
    const unknown = { ...SEED_TRACKS[0]!, name: 'No such track' } as SeedTrack;
    await expect(buildTrackFilesInChildProcess(unknown)).rejects.toThrow(
      'seed process for "No such track" ended (code 1)',
    );
  }, 60_000);
});
