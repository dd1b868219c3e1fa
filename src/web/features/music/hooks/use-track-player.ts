import { soundEngine } from '@web/lib/audio/app-engine';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { usePlan } from '@web/lib/plan';
import { portalVisit } from '@web/lib/portal-presence';
import { toastProblem } from '@web/lib/toast-problem';

export const PLAY_FAILED = 'Failed to play audio';

/** A list item: not playing, loading (fetch and decode), playing, paused, or ended (its session stopped). */
export type TrackStatus = 'idle' | 'loading' | 'playing' | 'paused' | 'ended';

/**
 * The library's tracks on the one sound engine's track layer: one track at a time, looping until
 * stopped. Without sound layers in the plan a track replaces whatever else plays.
 */
export function useTrackPlayer() {
  const state = useSoundEngine();
  const layered = usePlan().includes('soundLayers');
  const layer = state.layers.find((candidate) => candidate.id === 'track');
  const currentKey = layer?.source.kind === 'track' ? layer.source.key : null;

  function statusOf(key: string): TrackStatus {
    if (key === currentKey) {
      // Fetched and decoded, or waiting for the browser to let it start (decision 075).
      if (layer?.status === 'loading' || state.starting) return 'loading';
      return state.status === 'paused' ? 'paused' : 'playing';
    }
    return state.ended?.key === key ? 'ended' : 'idle';
  }

  function toggle(key: string, title: string, url: string) {
    const status = statusOf(key);
    if (status === 'playing') return soundEngine.pause();
    if (status === 'paused') return void soundEngine.resume();
    // Pressed while it loads: the person changed their mind; it never played, so it is not "Ended".
    if (status === 'loading') return soundEngine.removeLayer('track', { neverPlayed: true });
    // A track that fails once the person has signed out (the sign-out stopped it) says nothing on the login page
    // (docs/decisions/085-a-start-belongs-to-its-press-and-its-portal-visit.md).
    const visit = portalVisit();
    soundEngine.setLayer('track', { kind: 'track', key, title, url }, 1, { exclusive: !layered }).catch(() => {
      if (!visit.left) toastProblem(PLAY_FAILED);
    });
  }

  return { statusOf, toggle, currentKey };
}
