import type * as ChildProcesses from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { buildTrackFiles, SEED_TRACKS, type SeedTrack } from './media/catalog';
import { buildTrackFilesInChildProcess } from './track-builder';

// Node's fork, as it is, only kept in sight: a test tells how the builder's process ended from its own exit.
const forked = vi.hoisted(() => [] as ChildProcesses.ChildProcess[]);
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcesses>();
  return {
    ...actual,
    fork: (...args: Parameters<typeof actual.fork>) => {
      const child = actual.fork(...args);
      forked.push(child);
      return child;
    },
  };
});

describe('a seed track built in a process of its own', () => {
  it('has the bytes the synthesis makes in this process', async () => {
    const track = SEED_TRACKS[0]!;
    const [built, here] = await Promise.all([buildTrackFilesInChildProcess(track), buildTrackFiles(track)]);
    expect(Buffer.from(built.audio).equals(Buffer.from(here.audio))).toBe(true);
    expect(built.cover.equals(Buffer.from(here.cover))).toBe(true);
  }, 60_000);

  it('synthesises at the lowest CPU priority, behind everything a person waits for', async () => {
    const track = SEED_TRACKS[0]!;
    const building = buildTrackFilesInChildProcess(track);
    let ended = false;
    void building.finally(() => (ended = true));
    // The builder's process among this one's children (Linux), and its synthesising thread's niceness.
    const builderNiceness = () => {
      for (const task of readdirSync(`/proc/${process.pid}/task`))
        for (const pid of readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
          try {
            if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('track-worker')) continue;
            // Field 19 of stat, counted after the command's closing parenthesis (the command may hold spaces).
            const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
            return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
          } catch {
            // It has just exited.
          }
      return undefined;
    };
    let niceness: number | undefined;
    while (!ended && niceness !== 19) {
      niceness = builderNiceness() ?? niceness;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await building;
    expect(niceness).toBe(19);
  }, 60_000);

  it('kills its process when aborted, and rejects with the abort', async () => {
    const stop = new AbortController();
    const building = buildTrackFilesInChildProcess(SEED_TRACKS[0]!, stop.signal);
    const child = forked.at(-1)!;
    // Its 'error' (the abort) is the builder's to take.
    const exited = new Promise((resolve) => child.once('exit', (...ended) => resolve(ended)));
    stop.abort();
    await expect(building).rejects.toMatchObject({ name: 'AbortError' });
    // Killed, not left to finish its synthesis and exit by itself: told by how it ended, not by a clock, which a
    // loaded machine's start of the process alone could exceed.
    expect(await exited).toEqual([null, 'SIGTERM']);
  }, 60_000);

  it('fails, naming the track, when the process ends without its files', async () => {
    const unknown = { ...SEED_TRACKS[0]!, name: 'No such track' } as SeedTrack;
    await expect(buildTrackFilesInChildProcess(unknown)).rejects.toThrow(
      'seed process for "No such track" ended (code 1)',
    );
  }, 60_000);
});
