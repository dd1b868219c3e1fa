import { SoundEngine, type LayerId, type LayerSource, type SoundBuffers } from './sound-engine';
import { interleavePcm16, wavHeader } from './wav';

// Audio export (Pro, docs/decisions/019-spoken-affirmations-and-audio-export.md): the session's
// layers rendered by the same engine into OfflineAudioContexts and written as a 16-bit PCM stereo
// 44.1 kHz WAV file. A long session renders as 30-second chunks, each engine continuing where the
// last one ended (SoundEngineOptions.offset), so memory holds one chunk of floats however long the
// file. Each chunk's 16-bit samples become a Blob at once, which the browser keeps outside the page
// (Chromium moves Blobs to disk past a memory limit or under memory pressure), and the file is a
// Blob of those parts: nothing the page holds grows with the length.

export const EXPORT_SAMPLE_RATE = 44_100;
export const EXPORT_CHUNK_SECONDS = 30;
export const EXPORT_MINUTES = [1, 5, 10, 20, 30, 60] as const;
export const MAX_EXPORT_SECONDS = 60 * 60;
/** The file's end fades out along the sleep timer's envelope instead of stopping mid-sound. */
export const EXPORT_FADE_SECONDS = 5;
/** 16-bit stereo at 44.1 kHz. */
export const exportBytes = (seconds: number) => 44 + Math.round(seconds * EXPORT_SAMPLE_RATE) * 4;

export interface ExportLayer {
  id: LayerId;
  source: LayerSource;
  gain: number;
}

export interface ExportOptions {
  /** 0 → 1, after each chunk. */
  onProgress?: (done: number) => void;
  /** Stops the export at once: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Fetches a track's bytes; the default is fetch(). */
  load?: (url: string) => Promise<ArrayBuffer>;
  sampleRate?: number;
  /** The chunks' length (tests make it small to put many joins in a short file). */
  chunkSeconds?: number;
}

/** Renders `seconds` (1 s … 60 min) of the layers, at full volume, to a WAV file. */
export async function exportSession(
  layers: readonly ExportLayer[],
  seconds: number,
  {
    onProgress,
    signal,
    load = fetchBytes,
    sampleRate = EXPORT_SAMPLE_RATE,
    chunkSeconds = EXPORT_CHUNK_SECONDS,
  }: ExportOptions = {},
): Promise<Blob> {
  if (layers.length === 0) throw new Error('Nothing to export: start a sound first.');
  const length = Math.min(MAX_EXPORT_SECONDS, Math.max(1, Number.isFinite(seconds) ? seconds : 1));
  const frames = Math.round(length * sampleRate);
  const chunkFrames = Math.max(1, Math.round(chunkSeconds * sampleRate));
  const fade = Math.min(EXPORT_FADE_SECONDS, length);
  const fadeFrames = Math.round(fade * sampleRate);
  // The chunks' engines share their buffers: each track is fetched and decoded once, each noise made once.
  const buffers: SoundBuffers = { tracks: new Map(), noise: new Map() };
  const parts: Blob[] = [new Blob([wavHeader(frames, sampleRate)])];
  for (let start = 0; start < frames;) {
    signal?.throwIfAborted();
    // The last chunk holds the whole fade-out, drawn by one sleep timer as in a one-piece render.
    const chunk = frames - start - chunkFrames < fadeFrames ? frames - start : chunkFrames;
    const context = new OfflineAudioContext({ numberOfChannels: 2, length: chunk, sampleRate });
    const engine = new SoundEngine(context, { volume: 1, offset: start / sampleRate, load, buffers });
    for (const layer of layers) await unlessAborted(engine.setLayer(layer.id, layer.source, layer.gain), signal);
    if (start + chunk >= frames) engine.setSleepTimer(chunk / sampleRate, fade);
    const rendered = await unlessAborted(context.startRendering(), signal);
    parts.push(new Blob([interleavePcm16([rendered.getChannelData(0), rendered.getChannelData(1)])]));
    start += chunk;
    onProgress?.(start / frames);
  }
  return new Blob(parts, { type: 'audio/wav' });
}

/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts: a chunk's rendering
 * cannot be stopped, but nothing waits for it, and no further chunk starts.
 */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.arrayBuffer();
}
