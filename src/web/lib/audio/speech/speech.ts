import type { SpokenClip } from '../voice-loop';

// Speech synthesised in the browser by eSpeak NG (docs/decisions/019-spoken-affirmations-and-audio-export.md):
// the worker and its WebAssembly load on the first request only, and each message is synthesised
// once per voice and rate (kept for the page's life, the last few hundred).

export const SPOKEN_VOICES = [
  { id: 'en-us', label: 'English (US)' },
  { id: 'en-us+f3', label: 'English (US), higher' },
  { id: 'en-gb', label: 'English (UK)' },
  { id: 'en-gb+m3', label: 'English (UK), deeper' },
  { id: 'de', label: 'Deutsch' },
  { id: 'es', label: 'Español' },
  { id: 'fr-fr', label: 'Français' },
  { id: 'it', label: 'Italiano' },
  { id: 'nl', label: 'Nederlands' },
  { id: 'pt-br', label: 'Português (Brasil)' },
] as const;
export type SpokenVoice = (typeof SPOKEN_VOICES)[number]['id'];

/** Words per minute. */
export const SPOKEN_RATES = [
  { wpm: 120, label: 'Slow' },
  { wpm: 145, label: 'Relaxed' },
  { wpm: 170, label: 'Usual' },
] as const;

export interface SpeechRequest {
  id: number;
  text: string;
  voice: string;
  rate: number;
}
export type SpeechResponse = { id: number } & (
  { samples: Float32Array<ArrayBuffer>; sampleRate: number } | { error: string }
);

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve(clip: SpokenClip): void; reject(error: Error): void }>();
const clips = new Map<string, Promise<SpokenClip>>();
const MAX_CLIPS = 300;

function speechWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./espeak.worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<SpeechResponse>) => {
    const response = event.data;
    const waiting = pending.get(response.id);
    pending.delete(response.id);
    if (!waiting) return;
    if ('error' in response) waiting.reject(new Error(response.error));
    else waiting.resolve({ samples: response.samples, sampleRate: response.sampleRate });
  };
  worker.onerror = () => {
    for (const waiting of pending.values()) waiting.reject(new Error('The speech engine failed to load.'));
    pending.clear();
    worker?.terminate();
    worker = null;
  };
  return worker;
}

/** One message spoken by eSpeak NG, as mono samples (synthesised once per text, voice and rate). */
export function speak(text: string, voice: string, rate: number): Promise<SpokenClip> {
  const key = `${voice}|${rate}|${text}`;
  let clip = clips.get(key);
  if (!clip) {
    const id = ++nextId;
    clip = new Promise<SpokenClip>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      const request: SpeechRequest = { id, text, voice, rate };
      speechWorker().postMessage(request);
    });
    clip.catch(() => clips.delete(key));
    clips.set(key, clip);
    if (clips.size > MAX_CLIPS) clips.delete(clips.keys().next().value!);
  }
  return clip;
}
