import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { test, type Page } from '@playwright/test';
import type * as EngineModule from '../../src/web/lib/audio/sound-engine';
import type { LayerId, LayerSource } from '../../src/web/lib/audio/sound-engine';
import { encodeWav } from '../audio-analysis';

// The real sound engine, rendered by Chromium's Web Audio into an OfflineAudioContext, so the
// tests can measure what a listener would hear.

export const SAMPLE_RATE = 48_000;

const engineBundle = buildSync({
  entryPoints: [path.resolve(import.meta.dirname, '../../src/web/lib/audio/sound-engine.ts')],
  bundle: true,
  format: 'iife',
  globalName: 'SoundAudio',
  write: false,
  target: 'chrome120',
}).outputFiles[0]!.text;

export type EngineAction =
  | { action: 'layer'; id: LayerId; source: LayerSource; gain: number; exclusive?: boolean }
  | { action: 'remove'; id: LayerId }
  | { action: 'gain'; id: LayerId; gain: number }
  | { action: 'retune'; id: 'binaural' | 'isochronic'; changes: Record<string, number> }
  | { action: 'volume'; volume: number }
  | { action: 'timer'; seconds: number | null; fadeSeconds: number }
  | { action: 'seek'; seconds: number }
  | { action: 'voiceLevel'; level: number }
  | { action: 'stop' };
export type EngineEvent = { at: number } & EngineAction;

export interface Rendered {
  left: number[];
  right: number[];
  /** Anything the page computed for the test (e.g. a noise buffer's RMS). */
  noiseRms: Record<string, number>;
}

/**
 * Renders `seconds` of the engine (master volume `volume`) acting out `events`. Tracks named in
 * `tracks` (url → mono samples at SAMPLE_RATE) are served as 32-bit float WAV files, decoded by the
 * engine as it decodes the library's, and started before the render when at 0.
 */
export async function renderEngine(
  page: Page,
  seconds: number,
  events: EngineEvent[],
  {
    volume = 1,
    tracks = {},
    measureNoise = false,
  }: { volume?: number; tracks?: Record<string, number[]>; measureNoise?: boolean } = {},
): Promise<Rendered> {
  await page.goto('about:blank');
  await page.addScriptTag({ content: engineBundle });
  return page.evaluate(
    async ({ seconds, events, sampleRate, volume, tracks, measureNoise }) => {
      const { SoundEngine } = (window as unknown as { SoundAudio: typeof EngineModule }).SoundAudio;
      const floatWav = (samples: number[]) => {
        const bytes = new ArrayBuffer(44 + samples.length * 4);
        const view = new DataView(bytes);
        const text = (offset: number, value: string) =>
          [...value].forEach((char, i) => view.setUint8(offset + i, char.charCodeAt(0)));
        text(0, 'RIFF');
        view.setUint32(4, 36 + samples.length * 4, true);
        text(8, 'WAVE');
        text(12, 'fmt ');
        view.setUint32(16, 16, true);
        view.setUint16(20, 3, true); // IEEE float
        view.setUint16(22, 1, true);
        view.setUint32(24, sampleRate, true);
        view.setUint32(28, sampleRate * 4, true);
        view.setUint16(32, 4, true);
        view.setUint16(34, 32, true);
        text(36, 'data');
        view.setUint32(40, samples.length * 4, true);
        samples.forEach((value, i) => view.setFloat32(44 + i * 4, value, true));
        return bytes;
      };
      const context = new OfflineAudioContext({
        numberOfChannels: 2,
        length: Math.round(sampleRate * seconds),
        sampleRate,
      });
      const engine = new SoundEngine(context, {
        volume,
        load: async (url) => {
          const samples = tracks[url];
          if (!samples) throw new Error(`no track ${url}`);
          return floatWav(samples);
        },
      });
      const apply = (event: EngineAction) => {
        switch (event.action) {
          case 'layer': {
            // A voice loop crosses into the page as a plain array; the engine takes a Float32Array.
            const source =
              event.source.kind === 'voice'
                ? {
                    ...event.source,
                    loop: { ...event.source.loop, samples: new Float32Array(event.source.loop.samples) },
                  }
                : event.source;
            return engine.setLayer(event.id, source, event.gain, { exclusive: event.exclusive });
          }
          case 'voiceLevel':
            return engine.setVoiceLevel(event.level);
          case 'remove':
            return engine.removeLayer(event.id);
          case 'gain':
            return engine.setLayerGain(event.id, event.gain);
          case 'retune':
            return engine.retune(event.id, event.changes);
          case 'volume':
            return engine.setVolume(event.volume);
          case 'timer':
            return engine.setSleepTimer(event.seconds, event.fadeSeconds);
          case 'seek':
            return engine.seekTrack(event.seconds);
          case 'stop':
            return engine.stop();
        }
      };
      const times = [...new Set(events.map((event) => event.at))];
      for (const at of times) {
        const due = events.filter((event) => event.at === at);
        if (at === 0) for (const event of due) await apply(event);
        // Suspending the render at a time is how an offline context lets us act "while it plays".
        else
          void context.suspend(at).then(async () => {
            for (const event of due) await apply(event);
            return context.resume();
          });
      }
      const noiseRms: Record<string, number> = {};
      for (const colour of measureNoise ? (['white', 'pink', 'brown'] as const) : []) {
        const data = engine.noiseBuffer(context, colour).getChannelData(0);
        let sum = 0;
        for (const value of data) sum += value * value;
        noiseRms[colour] = Math.sqrt(sum / data.length);
      }
      const buffer = await context.startRendering();
      return { left: Array.from(buffer.getChannelData(0)), right: Array.from(buffer.getChannelData(1)), noiseRms };
    },
    { seconds, events, sampleRate: SAMPLE_RATE, volume, tracks, measureNoise },
  );
}

export function saveWav(name: string, rendered: Pick<Rendered, 'left' | 'right'>) {
  const file = test.info().outputPath(name);
  writeFileSync(file, encodeWav([rendered.left, rendered.right], SAMPLE_RATE));
  return file;
}

/** Samples from `fromSeconds`, `seconds` long. */
export const slice = (samples: number[], fromSeconds: number, seconds = 1) =>
  samples.slice(Math.round(fromSeconds * SAMPLE_RATE), Math.round((fromSeconds + seconds) * SAMPLE_RATE));

export const rms = (samples: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] ?? 0) ** 2;
  return Math.sqrt(sum / Math.max(1, samples.length));
};

export const db = (ratio: number) => 20 * Math.log10(ratio);
