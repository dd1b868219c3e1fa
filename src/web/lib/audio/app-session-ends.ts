import { soundEngine } from './app-engine';
import { watchFlashSessions } from './flash-sessions';
import { watchSessionEnds } from './session-ends';

/** The ends of the app engine's sessions (session-ends.ts): tag a session before starting it, hear it end. */
export const sessionEnds = watchSessionEnds(soundEngine);

/** The ends of messages flashed with no sound (flash-sessions.ts): the session screen says when they flash. */
export const flashSessions = watchFlashSessions(soundEngine);
