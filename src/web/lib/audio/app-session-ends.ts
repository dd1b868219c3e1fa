import { soundEngine } from './app-engine';
import { watchSessionEnds } from './session-ends';

/** The ends of the app engine's sessions (session-ends.ts): tag a session before starting it, hear it end. */
export const sessionEnds = watchSessionEnds(soundEngine);
