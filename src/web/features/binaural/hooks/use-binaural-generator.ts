import { useSyncExternalStore } from 'react';
import {
  BINAURAL_MESSAGES,
  binauralTransition,
  clampHz,
  findPreset,
  type BinauralAction,
  type BinauralPresetName,
  type BinauralSettings,
} from '@shared/binaural';
import { soundEngine } from '@web/lib/audio/app-engine';
import { useLayer } from '@web/lib/audio/use-sound-engine';
import { usePlan } from '@web/lib/plan';
import { generatorStore, parseHz, playedHz } from '../lib/generator-store';
import { toastProblem } from '@web/lib/toast-problem';

export type BinauralEngineState = { status: 'stopped' } | { status: 'playing'; settings: BinauralSettings };

/** The binaural layer of the one sound engine, as the generator sees it. */
export function useBinauralEngineState(): BinauralEngineState {
  const layer = useLayer('binaural');
  if (layer?.source.kind !== 'binaural') return { status: 'stopped' };
  return {
    status: 'playing',
    settings: { leftHz: layer.source.leftHz, rightHz: layer.source.rightHz, volume: layer.gain },
  };
}

/** The generator's choices and actions, following the state machine of docs/product/content.md#state-machine. */
export function useBinauralGenerator() {
  const engineState = useBinauralEngineState();
  // One sound at a time unless the plan includes sound layers (docs/product/plans.md).
  const layered = usePlan().includes('soundLayers');
  const choices = useSyncExternalStore(generatorStore.subscribe, generatorStore.get);
  const status = engineState.status;

  const settings = (): BinauralSettings => ({
    leftHz: playedHz(choices.leftText),
    rightHz: playedHz(choices.rightText),
    volume: choices.volume,
  });

  async function dispatch(action: BinauralAction) {
    const transition = binauralTransition({ status, preset: choices.preset }, action);
    if (transition.error) {
      toastProblem(transition.error);
      return;
    }
    for (const command of transition.commands) {
      if (command === 'stop') soundEngine.removeLayer('binaural');
      else {
        const { leftHz, rightHz, volume } = settings();
        try {
          await soundEngine.setLayer('binaural', { kind: 'binaural', leftHz, rightHz }, volume, {
            exclusive: !layered,
          });
        } catch {
          toastProblem(BINAURAL_MESSAGES.startFailed);
        }
      }
    }
  }

  /**
   * A field left with a number outside the range takes the clamped one; an empty field, what plays.
   * Like the player's number fields, a field left then shows the number as it plays ("1e3" or "0100"
   * typed reads 1000 or 100 once left, docs/product/content.md#frequencies-and-volume).
   */
  function commit(side: 'left' | 'right'): number | null {
    const key = side === 'left' ? 'leftText' : 'rightText';
    const typed = parseHz(choices[key]);
    if (typed === null) {
      if (engineState.status === 'playing') {
        generatorStore.set({ [key]: String(engineState.settings[side === 'left' ? 'leftHz' : 'rightHz']) });
      }
      return null;
    }
    const played = clampHz(typed);
    if (choices[key] !== String(played)) generatorStore.set({ [key]: String(played) });
    return played === typed ? null : played;
  }

  const playing = engineState.status === 'playing' ? engineState.settings : null;
  const preset = choices.preset ? findPreset(choices.preset) : null;

  return {
    status,
    choices,
    /** What the oscillators play right now, or null when stopped. */
    playing,
    /**
     * The preset whose frequencies the fields hold; once someone types their own, none is shown
     * selected (the one chosen last still lets Start begin, docs/product/content.md#state-machine).
     */
    shownPreset:
      preset && playedHz(choices.leftText) === preset.leftHz && playedHz(choices.rightText) === preset.rightHz
        ? preset.name
        : null,
    commitLeft: () => commit('left'),
    commitRight: () => commit('right'),
    start: () => dispatch({ type: 'start' }),
    stop: () => dispatch({ type: 'stop' }),
    selectPreset(name: BinauralPresetName) {
      const preset = findPreset(name);
      if (!preset) return;
      generatorStore.set({ preset: name, leftText: String(preset.leftHz), rightText: String(preset.rightHz) });
      void dispatch({ type: 'selectPreset', preset: name });
    },
    setLeftText(leftText: string) {
      generatorStore.set({ leftText });
      // Glide only to a readable number, so clearing the field to retype does not swoop to 0.1 Hz.
      const hz = parseHz(leftText);
      if (hz !== null) soundEngine.retune('binaural', { leftHz: clampHz(hz) });
    },
    setRightText(rightText: string) {
      generatorStore.set({ rightText });
      const hz = parseHz(rightText);
      if (hz !== null) soundEngine.retune('binaural', { rightHz: clampHz(hz) });
    },
    setVolume(volume: number) {
      generatorStore.set({ volume });
      soundEngine.setLayerGain('binaural', volume);
    },
  };
}
