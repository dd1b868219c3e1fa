import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { chromium } from 'playwright-core';
import { ROOT } from '../scripts/build-state.mjs';
import { CHROMIUM_PATH, ensureChromium } from '../scripts/debian-packages.mjs';

// `npm run bench:export [-- --minutes=10,60] [--chunk=30] [--json=out.json]`: the audio export
// (docs/decisions/019-spoken-affirmations-and-audio-export.md) of a four-layer session (a looping 60 s track,
// binaural beats, brown noise, spoken affirmations) rendered in headless Chromium to a WAV Blob of each length,
// as the export dialog does. Prints, per length: the time to the finished Blob; the peaks of the page's
// JavaScript heap and of its ArrayBuffers (CDP Runtime.getHeapUsage, garbage not yet collected included); and the
// peak memory (proportional set size, /proc) of the renderer and of the whole browser, sampled every 100 ms. The
// browser has a profile on disk, as a person's does, so Chromium may move large Blobs to disk. `--chunk` sets the
// chunk length in seconds: one as long as the export renders it in one piece, for comparison.

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const minutesList = (args.minutes ?? '10,60').split(',').filter(Boolean).map(Number);
const chunkSeconds = args.chunk === undefined ? undefined : Number(args.chunk);
const SAMPLE_MS = 100;

const bundle = buildSync({
  entryPoints: [path.join(ROOT, 'src/web/lib/audio/export.ts')],
  bundle: true,
  format: 'iife',
  globalName: 'AudioExport',
  write: false,
  target: 'chrome120',
}).outputFiles[0].text;

/** Memory (bytes, PSS) of the renderers and of all the processes descending from this one (the browser's). */
function chromiumMemory() {
  const parents = new Map();
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    try {
      // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const descends = (pid) => {
    for (let at = parents.get(pid); at; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  let renderer = 0;
  let total = 0;
  for (const pid of parents.keys()) {
    if (!descends(pid)) continue;
    try {
      // Proportional set size: shared pages (libraries, shared memory) split among the processes sharing them.
      const pss = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024;
      total += pss;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) renderer += pss;
    } catch {
      // the process ended meanwhile
    }
  }
  return { renderer, total };
}

/** What a page does in the export dialog, with a four-layer session, timed to the finished Blob. */
async function exportInPage(page, minutes) {
  return page.evaluate(
    async ({ minutes, chunkSeconds }) => {
      const { exportSession, exportBytes } = globalThis.AudioExport;
      const rate = 44_100;
      // A 60 s stereo track with 50 ms of silence at each end (as an MP3's encoder leaves), as a WAV file.
      const trackFrames = 60 * rate + 2 * 2205;
      const track = new ArrayBuffer(44 + trackFrames * 4);
      const view = new DataView(track);
      const text = (offset, value) => [...value].forEach((char, i) => view.setUint8(offset + i, char.charCodeAt(0)));
      text(0, 'RIFF');
      view.setUint32(4, 36 + trackFrames * 4, true);
      text(8, 'WAVE');
      text(12, 'fmt ');
      view.setUint32(16, 16, true);
      view.setUint16(20, 1, true);
      view.setUint16(22, 2, true);
      view.setUint32(24, rate, true);
      view.setUint32(28, rate * 4, true);
      view.setUint16(32, 4, true);
      view.setUint16(34, 16, true);
      text(36, 'data');
      view.setUint32(40, trackFrames * 4, true);
      for (let n = 2205; n < trackFrames - 2205; n++) {
        const sample = Math.round(20_000 * Math.sin((2 * Math.PI * 432 * n) / rate));
        view.setInt16(44 + n * 4, sample, true);
        view.setInt16(46 + n * 4, sample, true);
      }
      // Spoken affirmations: 2 s of 700 Hz then 1.5 s of pause, at eSpeak NG's 22.05 kHz.
      const voice = new Float32Array(22_050 * 3.5);
      for (let n = 0; n < 44_100; n++)
        voice[n] = Math.sin((2 * Math.PI * 700 * n) / 22_050) * Math.min(1, n / 220, (44_100 - n) / 220);
      const layers = [
        { id: 'track', source: { kind: 'track', key: 'bench', title: 'Bench', url: 'bench.wav' }, gain: 0.8 },
        { id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 210 }, gain: 0.4 },
        { id: 'noise', source: { kind: 'noise', colour: 'brown' }, gain: 0.3 },
        {
          id: 'voice',
          source: { kind: 'voice', loop: { samples: voice, sampleRate: 22_050 }, messages: 3, level: -15 },
          gain: 0.5,
        },
      ];
      const started = performance.now();
      let chunks = 0;
      const blob = await exportSession(layers, minutes * 60, {
        load: async () => track.slice(0),
        onProgress: () => chunks++,
        ...(chunkSeconds ? { chunkSeconds } : {}),
      });
      const ms = performance.now() - started;
      return { ms, size: blob.size, expected: exportBytes(minutes * 60), chunks };
    },
    { minutes, chunkSeconds },
  );
}

ensureChromium();
const profile = mkdtempSync(path.join(tmpdir(), 'innerwave-bench-export-'));
const results = [];
try {
  for (const minutes of minutesList) {
    // A fresh browser for each length, so one export's leftovers do not count in the next.
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('about:blank');
      await page.addScriptTag({ content: bundle });
      const cdp = await context.newCDPSession(page);
      const idle = chromiumMemory();
      const peak = { heap: 0, arrayBuffers: 0, renderer: 0, total: 0 };
      const sample = async () => {
        const memory = chromiumMemory();
        peak.renderer = Math.max(peak.renderer, memory.renderer);
        peak.total = Math.max(peak.total, memory.total);
        const heap = await cdp.send('Runtime.getHeapUsage').catch(() => null);
        if (heap) {
          peak.heap = Math.max(peak.heap, heap.usedSize);
          peak.arrayBuffers = Math.max(peak.arrayBuffers, heap.backingStorageSize ?? 0);
        }
      };
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          await sample();
          await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
        }
      })();
      const run = await exportInPage(page, minutes).finally(() => (sampling = false));
      await sampler;
      await sample();
      if (run.size !== run.expected) throw new Error(`${minutes} min: a ${run.size}-byte file, not ${run.expected}`);
      results.push({ minutes, ...run, idle, peak });
    } finally {
      await context.close();
    }
  }
} finally {
  rmSync(profile, { recursive: true, force: true });
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
console.log(`Audio export in ${chunkSeconds ? `chunks of ${chunkSeconds} s` : "the app's chunks"}:`);
console.table(
  results.map((result) => ({
    minutes: result.minutes,
    'time (s)': (result.ms / 1000).toFixed(1),
    chunks: result.chunks,
    file: mb(result.size),
    'JS heap peak': mb(result.peak.heap),
    'ArrayBuffers peak': mb(result.peak.arrayBuffers),
    'renderer peak': mb(result.peak.renderer),
    'browser peak': mb(result.peak.total),
    'browser idle': mb(result.idle.total),
  })),
);
if (args.json) writeFileSync(args.json, `${JSON.stringify(results, null, 2)}\n`);
