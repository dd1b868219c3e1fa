import { describe, expect, it } from 'vitest';
import type { ProgramLayer } from '@shared/contract';
import { daySound } from './day-session';

const noise: ProgramLayer = { kind: 'noise', colour: 'pink', gain: -12 };
const beats: ProgramLayer = { kind: 'binaural', left_hz: 200, right_hz: 204, gain: -18 };
const tones: ProgramLayer = { kind: 'isochronic', carrier_hz: 180, pulse_hz: 6, gain: -20 };
const track: ProgramLayer = { kind: 'track', audio_kind: 'selfeggio', name: '432 Hz', track_id: 3, gain: -6 };
const gone: ProgramLayer = { ...track, name: 'Removed', track_id: null };

describe("which of a program day's layers play", () => {
  it('plays every layer for a plan with sound layers, and binaural beats only with headphones', () => {
    expect(daySound([noise, beats, tones], { headphones: true, layered: true })).toEqual({
      playing: [noise, beats, tones],
      leftOut: [],
    });
    expect(daySound([noise, beats, tones], { headphones: false, layered: true })).toEqual({
      playing: [noise, tones],
      leftOut: [{ layer: beats, why: 'headphones' }],
    });
  });

  it('plays one sound without sound layers, the first that can play here, and names what is left out', () => {
    expect(daySound([noise, beats, track, tones], { headphones: null, layered: false })).toEqual({
      playing: [noise],
      leftOut: [
        { layer: beats, why: 'plan' },
        { layer: track, why: 'plan' },
        { layer: tones, why: 'plan' },
      ],
    });
    // A track gone from the library and beats without headphones do not play: the next sound does.
    expect(daySound([gone, beats, track, noise], { headphones: false, layered: false })).toEqual({
      playing: [track],
      leftOut: [
        { layer: beats, why: 'headphones' },
        { layer: noise, why: 'plan' },
      ],
    });
  });
});
