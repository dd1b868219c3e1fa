import { BinauralEngine } from './binaural-engine';

/**
 * The one engine of the app. A module singleton on purpose: the sound keeps playing while the
 * person moves between portal pages, and one engine means one session at a time.
 */
export const binauralEngine = new BinauralEngine(() => new AudioContext());
