import { appAudioContext } from './app-context';
import { SoundEngine } from './sound-engine';

/**
 * An e2e hook to shorten time: a page whose init script sets `window.__innerwaveTimeScale` to a
 * number in (0, 1) gets sleep timers that many times as long (1/600: a 15-minute timer ends in 1.5 s).
 * Never set by the app itself.
 */
function testTimeScale(): number {
  const scale = (globalThis as { __innerwaveTimeScale?: unknown }).__innerwaveTimeScale;
  return typeof scale === 'number' && scale > 0 && scale < 1 ? scale : 1;
}

/**
 * The one engine of the app. A module singleton on purpose: the sound keeps playing while the
 * person moves between portal pages, and one engine means one session at a time.
 */
export const soundEngine = new SoundEngine(appAudioContext, { timeScale: testTimeScale() });
