import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SEED_TRACKS } from './media/catalog';
import { withTrackCache } from './track-cache';

describe('seed track cache', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'innerwave-track-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds a track once and serves the same bytes afterwards', async () => {
    const track = SEED_TRACKS[0]!;
    let builds = 0;
    const cached = withTrackCache(async () => {
      builds += 1;
      return { audio: new Uint8Array([1, 2, 3, builds]), cover: Buffer.from([9, 8, builds]) };
    }, dir);
    const first = await cached(track);
    const second = await cached(track);
    expect(builds).toBe(1);
    expect([...second.audio]).toEqual([...first.audio]);
    expect([...second.cover]).toEqual([...first.cover]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
