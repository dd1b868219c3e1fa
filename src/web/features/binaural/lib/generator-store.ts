import { BINAURAL } from '@shared/constants';
import { clampHz, type BinauralPresetName } from '@shared/binaural';
import { soundEngine } from '@web/lib/audio/app-engine';

// What the person chose on the generator, kept in memory for the life of the page so that coming
// back to /music (while the beats play on) shows the same choices. Not persisted: a reload is a
// fresh start, and nothing ever plays without a click.

export interface GeneratorChoices {
  preset: BinauralPresetName | null;
  /** The fields' text as typed (they may be empty or out of range while someone types). */
  leftText: string;
  rightText: string;
  volume: number;
}

/** A field's number, or null while it is empty or unreadable. */
export function parseHz(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * What the oscillators play for a field: 0 or an empty field become 0.1 Hz
 * (docs/product/content.md#frequencies-and-volume).
 */
export const playedHz = (text: string) => clampHz(parseHz(text) ?? 0);

let choices: GeneratorChoices = {
  preset: null,
  leftText: String(BINAURAL.defaults.leftHz),
  rightText: String(BINAURAL.defaults.rightHz),
  volume: BINAURAL.defaults.volume,
};
const listeners = new Set<() => void>();

export const generatorStore = {
  get: () => choices,
  set(changes: Partial<GeneratorChoices>) {
    choices = { ...choices, ...changes };
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

type Heard = { leftHz: number; rightHz: number; gain: number } | null;

function binauralHeard(): Heard {
  const layer = soundEngine.getState().layers.find((candidate) => candidate.id === 'binaural');
  return layer?.source.kind === 'binaural'
    ? { leftHz: layer.source.leftHz, rightHz: layer.source.rightHz, gain: layer.gain }
    : null;
}

/**
 * Beats started or changed elsewhere (a saved subliminal opened, a share link played, a program's day, the
 * Levels of the sound layers) put what they play in the fields and the volume, so the generator shows what
 * plays and goes on from it. Only a change of what plays is taken: a field emptied while playing keeps
 * saying what still plays (docs/product/content.md#frequencies-and-volume).
 */
let heard: Heard = null;
function takeWhatPlays() {
  const before = heard;
  heard = binauralHeard();
  if (!heard) return;
  const changes: Partial<GeneratorChoices> = {};
  if (heard.leftHz !== before?.leftHz && heard.leftHz !== playedHz(choices.leftText))
    changes.leftText = String(heard.leftHz);
  if (heard.rightHz !== before?.rightHz && heard.rightHz !== playedHz(choices.rightText))
    changes.rightText = String(heard.rightHz);
  if (heard.gain !== before?.gain && heard.gain !== choices.volume) changes.volume = heard.gain;
  if (Object.keys(changes).length > 0) generatorStore.set(changes);
}
takeWhatPlays();
soundEngine.subscribe(takeWhatPlays);
