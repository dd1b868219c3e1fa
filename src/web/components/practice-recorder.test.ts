import { describe, expect, it } from 'vitest';
import { historyEntrySchema } from '@shared/contract/guidance';
import { watchSessionEnds, type EndedSession } from '@web/lib/audio/session-ends';
import type { SoundEngineState } from '@web/lib/audio/sound-engine';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { historyEntryOf } from './practice-recorder';

const startedAt = new Date('2026-11-23T18:00:00.000Z');
const session = (over: Partial<EndedSession>): EndedSession => ({
  layers: [],
  seconds: 90,
  by: 'stop',
  startedAt,
  tag: null,
  ...over,
});
const track = {
  id: 'track',
  source: { kind: 'track', key: 'selfeggio:12', title: '528 Hz', url: '/media/x' },
  gain: 1,
  status: 'ready',
} as const;
const binaural = {
  id: 'binaural',
  source: { kind: 'binaural', leftHz: 200, rightHz: 204 },
  gain: 0.5,
  status: 'ready',
} as const;

describe('historyEntryOf', () => {
  it('records a program day by its tag, finished when the timer ended it', () => {
    const entry = historyEntryOf(
      session({
        by: 'timer',
        layers: [binaural],
        tag: { title: 'Seven Nights of Rest · Day 2', program: { slug: 'seven-nights-of-rest', day: 2 } },
      }),
    );
    expect(entry).toEqual({
      kind: 'program',
      ref: 'program:seven-nights-of-rest/2',
      title: 'Seven Nights of Rest · Day 2',
      seconds: 90,
      finished: true,
      started_at: startedAt.toISOString(),
    });
  });

  it('names an untagged session by what played, as the mini-player does', () => {
    const entry = historyEntryOf(session({ layers: [track, binaural] }));
    expect(entry).toMatchObject({
      kind: 'music',
      ref: 'track:12',
      title: '528 Hz + Binaural beats · 4 Hz',
      finished: false,
    });
    expect(historyEntryOf(session({ layers: [binaural] }))).toMatchObject({ kind: 'binaural', ref: '' });
  });

  it('leaves out sessions under a second; what it sends is what the contract reads back', () => {
    expect(historyEntryOf(session({ seconds: 0 }))).toBeNull();
    const entry = historyEntryOf(session({ layers: [track] }))!;
    expect(historyEntrySchema.omit({ id: true, recorded_at: true }).parse(entry)).toEqual(entry);
  });

  it('records a track that replaced another as its own entry: each title gets the time it played', () => {
    const set = (next: Partial<SoundEngineState>, at: number) => {
      fakeEngine.now = at;
      fakeEngine.set(next);
    };
    const entries: ReturnType<typeof historyEntryOf>[] = [];
    watchSessionEnds(fakeSoundEngine, () => startedAt.getTime()).onEnd((ended) => entries.push(historyEntryOf(ended)));
    const rain = { ...track, source: { ...track.source, key: 'bonus:3', title: 'Rain' } };

    set({ status: 'playing', layers: [track] }, 0);
    set({ layers: [rain] }, 600);
    set({ status: 'stopped', layers: [] }, 660);

    expect(entries.map((entry) => entry && [entry.title, entry.ref, entry.seconds])).toEqual([
      ['528 Hz', 'track:12', 600],
      ['Rain', 'track:3', 60],
    ]);
  });
});
