import { BINAURAL } from '@shared/constants';
import type { BinauralPresetName } from '@shared/binaural';

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
