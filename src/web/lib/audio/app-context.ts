// The app's one AudioContext, apart from the sound engine's code (app-engine.ts), which plays through it: a press
// can then ready it while that code is still on its way, as on a share link's page, where the engine is imported
// after the page (docs/decisions/085-a-start-belongs-to-its-press-and-its-portal-visit.md).

let context: AudioContext | null = null;

/** The app's AudioContext, made on first use: inside a person's press, where browsers let it start. */
export function appAudioContext(): AudioContext {
  context ??= new AudioContext();
  return context;
}
