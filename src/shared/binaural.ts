import { BINAURAL, BINAURAL_BANDS, type BinauralBand } from './constants';

// Pure logic of the binaural beats generator (docs/product/content.md#binaural-beats): clamping, the
// presets derived from the brainwave bands, and the stopped/playing state machine.

export type BinauralPresetName = BinauralBand['name'];

export interface BinauralPreset {
  name: BinauralPresetName;
  description: string;
  bandHz: readonly [number, number];
  beatHz: number;
  leftHz: number;
  rightHz: number;
}

export interface BinauralSettings {
  leftHz: number;
  rightHz: number;
  volume: number;
}

export const BINAURAL_MESSAGES = {
  selectPresetFirst: 'Please select a frequency preset first!',
  startFailed: 'Failed to start binaural beats. Please try again.',
} as const;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** What the oscillators get: 0.1–1000 Hz. A field left empty or unreadable counts as the minimum. */
export function clampHz(hz: number): number {
  return Number.isFinite(hz) ? clamp(hz, BINAURAL.clampHz.min, BINAURAL.clampHz.max) : BINAURAL.clampHz.min;
}

/** 0–1; anything unreadable is silence rather than a surprise. */
export function clampVolume(volume: number): number {
  return Number.isFinite(volume) ? clamp(volume, BINAURAL.volume.min, BINAURAL.volume.max) : BINAURAL.volume.min;
}

export function clampSettings(settings: BinauralSettings): BinauralSettings {
  return { leftHz: clampHz(settings.leftHz), rightHz: clampHz(settings.rightHz), volume: clampVolume(settings.volume) };
}

/** The beat a listener perceives: the difference between the two ears. */
export function beatHz(leftHz: number, rightHz: number): number {
  // Rounded to the inputs' 0.1 Hz step so 200.3 − 200.1 reads 0.2, not 0.19999999999998863.
  return Math.round(Math.abs(leftHz - rightHz) * 10) / 10;
}

/** A preset names a band: left = carrier, right = carrier + a beat inside the band. */
export function presetFromBand(band: BinauralBand, carrierHz: number = BINAURAL.carrierHz): BinauralPreset {
  return {
    name: band.name,
    description: band.description,
    bandHz: band.bandHz,
    beatHz: band.beatHz,
    leftHz: carrierHz,
    rightHz: carrierHz + band.beatHz,
  };
}

export const BINAURAL_PRESETS: readonly BinauralPreset[] = BINAURAL_BANDS.map((band) => presetFromBand(band));

export function findPreset(name: string | null): BinauralPreset | null {
  return BINAURAL_PRESETS.find((preset) => preset.name === name) ?? null;
}

// The state machine (docs/product/content.md#state-machine). The engine carries out the commands;
// the UI shows the error.

export type BinauralStatus = 'stopped' | 'playing';

export interface BinauralMachineState {
  status: BinauralStatus;
  preset: BinauralPresetName | null;
}

export type BinauralAction =
  { type: 'selectPreset'; preset: BinauralPresetName } | { type: 'start' } | { type: 'stop' };

export type BinauralCommand = 'stop' | 'start';

export interface BinauralTransition {
  state: BinauralMachineState;
  commands: BinauralCommand[];
  error: string | null;
}

export function binauralTransition(state: BinauralMachineState, action: BinauralAction): BinauralTransition {
  switch (action.type) {
    case 'selectPreset':
      // Selecting a preset while playing stops playback; the new frequencies wait for Start.
      return {
        state: { status: 'stopped', preset: action.preset },
        commands: state.status === 'playing' ? ['stop'] : [],
        error: null,
      };
    case 'start':
      if (state.preset === null) return { state, commands: [], error: BINAURAL_MESSAGES.selectPresetFirst };
      // Start first stops any previous session, so only one ever plays.
      return { state: { ...state, status: 'playing' }, commands: ['stop', 'start'], error: null };
    case 'stop':
      return {
        state: { ...state, status: 'stopped' },
        commands: state.status === 'playing' ? ['stop'] : [],
        error: null,
      };
  }
}
