import type { SpokenClip } from './voice-loop';
import { mixToMono, TAKE_SAMPLE_RATE } from './voice-take';

// Recording one's own voice for the spoken affirmations (docs/product/screens.md#spoken-affirmations):
// the browser's MediaRecorder, in whatever compressed format it makes, decoded afterwards to samples
// at the rate takes are kept at.

export const MICROPHONE_BLOCKED =
  'Innerwave may not use your microphone. Allow it for this site in your browser’s settings, then try again.';
export const NO_MICROPHONE = 'No microphone was found. Connect one, then try again.';
export const CANNOT_RECORD = 'This browser cannot record audio.';
export const MICROPHONE_FAILED = 'The microphone could not be started. Please try again.';

export interface MicrophoneTake {
  /** Ends the take; `recorded` then settles. */
  stop(): void;
  /** What was recorded, once the take ends (by `stop`, or at its longest). */
  recorded: Promise<Blob>;
  /** When it started (ms since the epoch), for its clock. */
  startedAt: number;
}

/** Why the microphone could not start, in words for the person. */
function microphoneError(error: unknown): Error {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return new Error(MICROPHONE_BLOCKED);
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return new Error(NO_MICROPHONE);
  return new Error(MICROPHONE_FAILED);
}

/** Starts a take (asking for the microphone the first time); it ends by itself after `maxMs`. */
export async function startMicrophoneTake(maxMs: number): Promise<MicrophoneTake> {
  if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') throw new Error(CANNOT_RECORD);
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
  } catch (error) {
    throw microphoneError(error);
  }
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  const release = () => stream.getTracks().forEach((track) => track.stop());
  const recorded = new Promise<Blob>((resolve, reject) => {
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      release();
      resolve(new Blob(chunks, { type: recorder.mimeType }));
    };
    recorder.onerror = () => {
      release();
      reject(new Error(MICROPHONE_FAILED));
    };
  });
  const stop = () => {
    clearTimeout(longest);
    if (recorder.state !== 'inactive') recorder.stop();
  };
  const longest = setTimeout(stop, maxMs);
  recorder.start();
  return { stop, recorded, startedAt: Date.now() };
}

/** Any audio the browser can decode, as one channel at the rate takes are kept at. */
export async function decodeToTake(audio: Blob | ArrayBuffer): Promise<SpokenClip> {
  const bytes = audio instanceof Blob ? await audio.arrayBuffer() : audio;
  // An offline context decodes without starting any sound, and resamples to its own rate.
  const context = new OfflineAudioContext(1, 1, TAKE_SAMPLE_RATE);
  const buffer = await context.decodeAudioData(bytes);
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
  return { samples: mixToMono(channels), sampleRate: buffer.sampleRate };
}
