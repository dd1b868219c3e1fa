import { describe, expect, it } from 'vitest';
import { BINAURAL } from './constants';
import {
  BINAURAL_MESSAGES,
  BINAURAL_PRESETS,
  beatHz,
  binauralTransition,
  clampHz,
  clampSettings,
  clampVolume,
  findPreset,
  presetFromBand,
} from './binaural';

describe('clamping', () => {
  it('keeps frequencies within 0.1–1000 Hz', () => {
    expect(clampHz(0)).toBe(0.1);
    expect(clampHz(0.05)).toBe(0.1);
    expect(clampHz(-20)).toBe(0.1);
    expect(clampHz(0.1)).toBe(0.1);
    expect(clampHz(432.5)).toBe(432.5);
    expect(clampHz(1000)).toBe(1000);
    expect(clampHz(1000.1)).toBe(1000);
    expect(clampHz(Number.POSITIVE_INFINITY)).toBe(0.1);
    expect(clampHz(Number.NaN)).toBe(0.1);
  });

  it('keeps the volume within 0–1, unreadable meaning silence', () => {
    expect(clampVolume(-0.5)).toBe(0);
    expect(clampVolume(0.37)).toBe(0.37);
    expect(clampVolume(1.5)).toBe(1);
    expect(clampVolume(Number.NaN)).toBe(0);
  });

  it('clamps all settings at once', () => {
    expect(clampSettings({ leftHz: 0, rightHz: 5000, volume: 2 })).toEqual({ leftHz: 0.1, rightHz: 1000, volume: 1 });
  });
});

describe('presets', () => {
  it('set left to the carrier and right to the carrier plus a beat inside each band', () => {
    expect(BINAURAL_PRESETS.map((p) => [p.name, p.leftHz, p.rightHz])).toEqual([
      ['Delta', 200, 202],
      ['Theta', 200, 206],
      ['Alpha', 200, 210],
      ['Beta', 200, 220],
      ['Gamma', 200, 240],
    ]);
    for (const preset of BINAURAL_PRESETS) {
      const beat = beatHz(preset.leftHz, preset.rightHz);
      expect(beat).toBe(preset.beatHz);
      expect(beat).toBeGreaterThanOrEqual(preset.bandHz[0]);
      expect(beat).toBeLessThanOrEqual(preset.bandHz[1]);
      expect(preset.leftHz).toBe(BINAURAL.carrierHz);
    }
  });

  it('follow another carrier', () => {
    const alpha = findPreset('Alpha');
    expect(alpha).not.toBeNull();
    expect(presetFromBand({ name: 'Alpha', bandHz: [8, 13], beatHz: 10, description: '' }, 300)).toMatchObject({
      leftHz: 300,
      rightHz: 310,
    });
    expect(findPreset('Epsilon')).toBeNull();
    expect(findPreset(null)).toBeNull();
  });
});

describe('beat', () => {
  it('is the absolute difference, in 0.1 Hz steps', () => {
    expect(beatHz(200, 205)).toBe(5);
    expect(beatHz(205, 200)).toBe(5);
    expect(beatHz(200.3, 200.1)).toBe(0.2);
    expect(beatHz(440, 440)).toBe(0);
  });
});

describe('state machine', () => {
  it('refuses to start without a preset, with the spec message', () => {
    const result = binauralTransition({ status: 'stopped', preset: null }, { type: 'start' });
    expect(result).toEqual({
      state: { status: 'stopped', preset: null },
      commands: [],
      error: BINAURAL_MESSAGES.selectPresetFirst,
    });
    expect(result.error).toBe('Please select a frequency preset first!');
  });

  it('starts by first stopping any previous session', () => {
    const result = binauralTransition({ status: 'stopped', preset: 'Alpha' }, { type: 'start' });
    expect(result).toEqual({ state: { status: 'playing', preset: 'Alpha' }, commands: ['stop', 'start'], error: null });
    const again = binauralTransition(result.state, { type: 'start' });
    expect(again.commands).toEqual(['stop', 'start']);
    expect(again.state.status).toBe('playing');
  });

  it('stops playback when a preset is selected while playing', () => {
    const result = binauralTransition(
      { status: 'playing', preset: 'Alpha' },
      { type: 'selectPreset', preset: 'Theta' },
    );
    expect(result).toEqual({ state: { status: 'stopped', preset: 'Theta' }, commands: ['stop'], error: null });
  });

  it('selects a preset while stopped without touching the audio', () => {
    expect(binauralTransition({ status: 'stopped', preset: null }, { type: 'selectPreset', preset: 'Delta' })).toEqual({
      state: { status: 'stopped', preset: 'Delta' },
      commands: [],
      error: null,
    });
  });

  it('stops only what plays', () => {
    expect(binauralTransition({ status: 'playing', preset: 'Beta' }, { type: 'stop' }).commands).toEqual(['stop']);
    expect(binauralTransition({ status: 'stopped', preset: 'Beta' }, { type: 'stop' }).commands).toEqual([]);
  });
});
