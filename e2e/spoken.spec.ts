import path from 'node:path';
import { readFileSync } from 'node:fs';
import { buildSync } from 'esbuild';
import { expect, test, type Page } from './support/test';
import type * as ExportModule from '../src/web/lib/audio/export';
import { amplitudeAt, encodeWav, maxStep, peak, sineStepBound } from './audio-analysis';
import { createActiveUser, setPlanAsStaff, signIn } from './support/accounts';
import { screenshotAtWidths } from './support/screenshots';
import { db, renderEngine, SAMPLE_RATE, saveWav, slice } from './support/sound-render';

// Spoken affirmations and audio export (docs/decisions/019-spoken-affirmations-and-audio-export.md):
// the voice layer's subliminal level measured in Chromium's Web Audio, the export's chunks joined
// without a seam, and in the app, a Pro account's playlist spoken by eSpeak NG and exported to WAV.

// Synthesising speech and rendering minutes of audio on a busy machine takes a while.
test.describe.configure({ timeout: 300_000 });

const dbToGain = (level: number) => 10 ** (level / 20);

/** A stand-in for speech: 0.5 s of 700 Hz with 10 ms raised-cosine edges, then 0.5 s of silence. */
function toneLoop(sampleRate: number): number[] {
  const edge = Math.round(0.01 * sampleRate);
  const tone = Math.round(0.5 * sampleRate);
  return Array.from({ length: sampleRate }, (_, n) => {
    if (n >= tone) return 0;
    const ramp = Math.min(1, n / edge, (tone - n) / edge);
    return (0.5 - 0.5 * Math.cos(Math.PI * ramp)) * Math.sin((2 * Math.PI * 700 * n) / sampleRate);
  });
}

test('the voice layer plays at its subliminal level under the other layers (±0.5 dB), and alone at its own gain', async ({
  page,
}) => {
  const loop = { samples: toneLoop(SAMPLE_RATE) as unknown as Float32Array<ArrayBuffer>, sampleRate: SAMPLE_RATE };
  const rendered = await renderEngine(page, 2.6, [
    { at: 0, action: 'layer', id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 200 }, gain: 0.5 },
    { at: 0, action: 'layer', id: 'voice', source: { kind: 'voice', loop, messages: 1, level: -20 }, gain: 0.5 },
    { at: 1.5, action: 'voiceLevel', level: -35 },
  ]);
  saveWav('voice-levels.wav', rendered);
  // 0.3 s inside a tone (210 whole cycles of 700 Hz): the voice's level against the 0.5 of the tones.
  const voiceAt = (from: number) => db(amplitudeAt(slice(rendered.left, from, 0.3), SAMPLE_RATE, 700) / 0.5);
  const measured = { first: voiceAt(1.1), afterChange: voiceAt(2.1) };
  console.log('voice under the other layers (dB):', JSON.stringify(measured));
  expect(Math.abs(measured.first - -20)).toBeLessThan(0.5);
  expect(Math.abs(measured.afterChange - -35)).toBeLessThan(0.5);
  // The change glides: nothing steeper than the tones themselves.
  expect(maxStep(rendered.left)).toBeLessThanOrEqual(sineStepBound(0.5, 200, SAMPLE_RATE) * 1.05 + 0.05 * 0.1);

  const alone = await renderEngine(page, 1, [
    { at: 0, action: 'layer', id: 'voice', source: { kind: 'voice', loop, messages: 1, level: -20 }, gain: 0.5 },
  ]);
  expect(Math.abs(db(amplitudeAt(slice(alone.left, 0.1, 0.3), SAMPLE_RATE, 700)) - db(0.5))).toBeLessThan(0.5);
});

const exportBundle = buildSync({
  entryPoints: [path.resolve(import.meta.dirname, '../src/web/lib/audio/export.ts')],
  bundle: true,
  format: 'iife',
  globalName: 'AudioExport',
  write: false,
  target: 'chrome120',
}).outputFiles[0]!.text;

test('the export renders 65 s as three chunks joined without a seam, into a 16-bit stereo 44.1 kHz WAV', async ({
  page,
}) => {
  await page.goto('about:blank');
  await page.addScriptTag({ content: exportBundle });
  const result = await page.evaluate(
    async ({ loopSamples }) => {
      const { exportSession, EXPORT_SAMPLE_RATE } = (window as unknown as { AudioExport: typeof ExportModule })
        .AudioExport;
      const progress: number[] = [];
      const blob = await exportSession(
        [
          { id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 210.37 }, gain: 0.5 },
          {
            id: 'voice',
            source: {
              kind: 'voice',
              loop: { samples: new Float32Array(loopSamples), sampleRate: EXPORT_SAMPLE_RATE },
              messages: 1,
              level: -10,
            },
            gain: 0.5,
          },
        ],
        65,
        { onProgress: (done) => progress.push(done) },
      );
      const bytes = await blob.arrayBuffer();
      const view = new DataView(bytes);
      const frames = (bytes.byteLength - 44) / 4;
      let step = 0;
      let top = 0;
      let previous = 0;
      for (let n = 0; n < frames; n++) {
        const right = view.getInt16(44 + n * 4 + 2, true) / 32768;
        if (n > 0) step = Math.max(step, Math.abs(right - previous));
        top = Math.max(top, Math.abs(right));
        previous = right;
      }
      return {
        size: bytes.byteLength,
        channels: view.getUint16(22, true),
        rate: view.getUint32(24, true),
        bits: view.getUint16(34, true),
        dataBytes: view.getUint32(40, true),
        step,
        top,
        progress,
      };
    },
    { loopSamples: toneLoop(44_100) },
  );
  console.log('export:', JSON.stringify(result));
  expect(result.channels).toBe(2);
  expect(result.rate).toBe(44_100);
  expect(result.bits).toBe(16);
  expect(result.dataBytes).toBe(65 * 44_100 * 4);
  expect(result.size).toBe(44 + 65 * 44_100 * 4);
  expect(result.progress).toEqual([30 / 65, 60 / 65, 1]);
  expect(result.top).toBeLessThanOrEqual(1);
  // At the seams (30 s, 60 s) the tones and the voice go on in phase: no step past their own slopes.
  const bound = sineStepBound(0.5, 210.37, 44_100) + sineStepBound(0.5 * dbToGain(-10), 700, 44_100);
  expect(result.step).toBeLessThanOrEqual(bound * 1.05 + 2 / 32768);
});

/** A library-like track: 22.05 kHz mono, 330 Hz, with silence at both ends (an MP3 encoder's delay and padding). */
function paddedTrack(): number[] {
  const rate = 22_050;
  return [
    ...encodeWav(
      [
        Array.from({ length: Math.round(1.42 * rate) }, (_, n) =>
          n < 0.05 * rate || n >= 1.35 * rate ? 0 : 0.8 * Math.sin((2 * Math.PI * 330 * n) / rate + 0.3),
        ),
      ],
      rate,
    ),
  ];
}

test('the export in chunks makes the file one render in one piece makes, for every kind of layer, fade-out included', async ({
  page,
}) => {
  await page.goto('about:blank');
  await page.addScriptTag({ content: exportBundle });
  const results = await page.evaluate(
    async ({ loopSamples, trackBytes }) => {
      const { exportSession } = (window as unknown as { AudioExport: typeof ExportModule }).AudioExport;
      const sessions: Record<string, ExportModule.ExportLayer[]> = {
        binaural: [{ id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 210.37 }, gain: 0.5 }],
        isochronic: [{ id: 'isochronic', source: { kind: 'isochronic', carrierHz: 300, pulseHz: 7.83 }, gain: 0.7 }],
        'brown noise': [{ id: 'noise', source: { kind: 'noise', colour: 'brown' }, gain: 0.5 }],
        voice: [
          {
            id: 'voice',
            source: {
              kind: 'voice',
              loop: { samples: new Float32Array(loopSamples), sampleRate: 22_050 },
              messages: 1,
              level: 0,
            },
            gain: 0.5,
          },
        ],
        track: [{ id: 'track', source: { kind: 'track', key: 't', title: 'Track', url: '/track.wav' }, gain: 0.8 }],
      };
      const load = async () => new Uint8Array(trackBytes).buffer;
      const samples = async (blob: Blob) => new Int16Array(await blob.arrayBuffer());
      // Tracks decoded and buffers made (a noise loop is one), counted over the chunked export.
      const made = { decoded: 0, buffers: 0 };
      const { decodeAudioData, createBuffer } = BaseAudioContext.prototype;
      BaseAudioContext.prototype.decodeAudioData = function (this: BaseAudioContext, ...args) {
        made.decoded++;
        return decodeAudioData.apply(this, args);
      };
      BaseAudioContext.prototype.createBuffer = function (this: BaseAudioContext, ...args) {
        made.buffers++;
        return createBuffer.apply(this, args);
      };
      const out: Record<string, { chunks: number; sameSize: boolean; worst: number; at: number } & typeof made> = {};
      for (const [name, layers] of Object.entries(sessions)) {
        const whole = await samples(await exportSession(layers, 12, { load, chunkSeconds: 60 }));
        let chunks = 0;
        Object.assign(made, { decoded: 0, buffers: 0 });
        const joined = await samples(
          await exportSession(layers, 12, { load, chunkSeconds: 0.8, onProgress: () => chunks++ }),
        );
        let worst = 0;
        let at = 0;
        for (let i = 0; i < whole.length; i++) {
          const difference = Math.abs(whole[i]! - joined[i]!);
          if (difference > worst) [worst, at] = [difference, i];
        }
        // Sample i of the file's 16-bit words: past the 22-word header, two per frame.
        out[name] = {
          chunks,
          sameSize: whole.length === joined.length,
          worst,
          at: worst ? (at - 22) / 2 / 44_100 : 0,
          ...made,
        };
      }
      return out;
    },
    { loopSamples: toneLoop(22_050), trackBytes: paddedTrack() },
  );
  console.log('chunked against one piece (16-bit steps):', JSON.stringify(results));
  for (const [name, result] of Object.entries(results)) {
    // 0.8 s chunks, the last holding the whole 5 s fade: joins at 0.8 … 6.4 s. Like the app's 30 s,
    // 0.8 s is a whole number of frames of the voice's 22.05 kHz: Chromium starts a buffer at a whole frame.
    expect(result, name).toMatchObject({ chunks: 9, sameSize: true });
    // Each chunk starts its sources at the exact phase and place; a one-piece oscillator drifts by
    // the rounding of its phase step (about 2 steps a second at 440 Hz). A source misplaced at a
    // join, or a fade cut short, differs by thousands.
    expect(result.worst, `${name}, worst at ${result.at.toFixed(4)} s`).toBeLessThanOrEqual(16);
  }
  // The chunks share what takes time to make: the track is decoded once, the noise generated once.
  expect(results.track?.decoded).toBe(1);
  expect(results['brown noise']?.buffers).toBe(1);
});

test('the export holds no more than a chunk of samples in the page, however long the file', async ({ page }) => {
  await page.goto('about:blank');
  await page.addScriptTag({ content: exportBundle });
  const cdp = await page.context().newCDPSession(page);
  // ArrayBuffers the page still holds: what a collection leaves, so garbage not yet collected does not count.
  // A collected OfflineAudioContext gives its samples back only in a task after the collection, so a
  // second one follows a task: with one, finished chunks rendered since the last look still counted
  // (four chunks' floats, 42 MB, on a quiet machine where a chunk renders in a fraction of the 200 ms).
  const held = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).backingStorageSize;
  };
  const before = await held();
  const exporting = page.evaluate(async () => {
    const { exportSession } = (window as unknown as { AudioExport: typeof ExportModule }).AudioExport;
    const blob = await exportSession(
      [{ id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 210 }, gain: 0.5 }],
      10 * 60,
    );
    return blob.size;
  });
  let done = false;
  void exporting.finally(() => (done = true));
  let most = 0;
  while (!done) {
    most = Math.max(most, (await held()) - before);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const size = await exporting;
  console.log(
    `10-minute export: a ${(size / 1e6).toFixed(0)} MB file, at most ${(most / 1e6).toFixed(1)} MB held in the page`,
  );
  expect(size).toBe(44 + 600 * 44_100 * 4);
  // A chunk is 30 s: 10.6 MB of floats and 5.3 MB of 16-bit samples, and the next chunk's context may
  // already hold its own floats. The file is 106 MB, all of which the page used to hold at the end.
  expect(most).toBeLessThan(40e6);
});

test('cancelling an export stops it at once, without waiting for the chunk being rendered', async ({ page }) => {
  await page.goto('about:blank');
  await page.addScriptTag({ content: exportBundle });
  const result = await page.evaluate(async () => {
    const { exportSession } = (window as unknown as { AudioExport: typeof ExportModule }).AudioExport;
    const times: { renderStarted?: number; rendered?: number; rejected?: number } = {};
    const startRendering = OfflineAudioContext.prototype.startRendering;
    OfflineAudioContext.prototype.startRendering = function (this: OfflineAudioContext) {
      times.renderStarted = performance.now();
      return startRendering.call(this).then((buffer) => ((times.rendered = performance.now()), buffer));
    };
    const controller = new AbortController();
    const progress: number[] = [];
    const exporting = exportSession(
      [{ id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 210 }, gain: 0.5 }],
      300,
      { chunkSeconds: 300, signal: controller.signal, onProgress: (done) => progress.push(done) },
    );
    while (times.renderStarted === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await exporting.then(
      () => null,
      (reason: unknown) => ((times.rejected = performance.now()), (reason as Error).name),
    );
    while (times.rendered === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    return { error, progress, ...times };
  });
  console.log('cancel:', JSON.stringify(result));
  expect(result.error).toBe('AbortError');
  expect(result.progress).toEqual([]);
  // Rejected while the chunk was still rendering (5 minutes of audio take seconds), not once it finished.
  expect(result.rejected!).toBeLessThan(result.rendered!);
});

const PLAYLIST = [
  { id: 1, message_text: 'I am calm.', source: 'own' },
  { id: 2, message_text: 'I breathe slowly and easily.', source: 'own' },
  { id: 3, message_text: 'I am kind to myself.', source: 'own' },
];

async function proWithPlaylist(page: Page) {
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'pro');
  await page.addInitScript((playlist) => {
    if (!localStorage.getItem('innerwave.subliminals.playlist')) {
      localStorage.setItem('innerwave.subliminals.playlist', JSON.stringify(playlist));
    }
  }, PLAYLIST);
  await signIn(page, account);
}

/** The first channel of a 16-bit stereo WAV file, with its header fields. */
function readExport(file: string) {
  const bytes = readFileSync(file);
  const frames = (bytes.length - 44) / 4;
  const left = new Float32Array(frames);
  for (let n = 0; n < frames; n++) left[n] = bytes.readInt16LE(44 + n * 4) / 32768;
  return {
    riff: bytes.toString('latin1', 0, 4),
    channels: bytes.readUInt16LE(22),
    rate: bytes.readUInt32LE(24),
    bits: bytes.readUInt16LE(34),
    dataBytes: bytes.readUInt32LE(40),
    left,
  };
}

test('as Pro, the playlist is spoken by eSpeak NG in the browser, plays as a layer, and exports to a WAV of the chosen length', async ({
  page,
}) => {
  await proWithPlaylist(page);
  await page.goto('/subliminals');
  const panel = page.getByRole('region', { name: 'Spoken affirmations' });
  await panel.getByRole('button', { name: 'Speak the playlist' }).click();
  await expect(panel.getByText('Speaking 3 messages, looping.')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('region', { name: 'Now playing' })).toContainText('Spoken affirmations · 3 messages');

  // The controls and the dialog, for a person to look at: desktop and phone, light and dark.
  await screenshotAtWidths(page, panel, 'spoken', async (width, colorScheme) => {
    await panel.getByRole('button', { name: 'Export audio' }).click();
    await page.screenshot({ path: test.info().outputPath(`export-${width}-${colorScheme}.png`) });
    await page.keyboard.press('Escape');
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });

  await panel.getByRole('button', { name: 'Export audio' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export the session as audio' });
  await expect(dialog).toContainText('Spoken affirmations · 3 messages');
  // An hour renders with its progress shown, and Cancel stops it.
  await dialog.getByRole('button', { name: '60 min' }).click();
  await dialog.getByRole('button', { name: 'Render and download' }).click();
  await expect(dialog.getByText(/^[1-9]\d*% rendered$/)).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('export-progress.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByText('Export cancelled.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Render and download' })).toBeVisible();
  await dialog.getByRole('button', { name: '1 min' }).click();
  const downloading = page.waitForEvent('download', { timeout: 90_000 });
  await dialog.getByRole('button', { name: 'Render and download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('innerwave-session-1-min.wav');
  const file = test.info().outputPath('spoken-export.wav');
  await download.saveAs(file);
  await expect(dialog.getByText(/^Done: a 1-minute WAV file/)).toBeVisible();

  const wav = readExport(file);
  expect([wav.riff, wav.channels, wav.rate, wav.bits]).toEqual(['RIFF', 2, 44_100, 16]);
  expect(wav.dataBytes).toBe(60 * 44_100 * 4);
  expect(wav.left.length).toBe(60 * 44_100);
  // The voice alone plays at its own gain, −6 dB (its loop's loudest sample at full scale).
  const top = peak(wav.left.subarray(0, 50 * 44_100));
  console.log('spoken export: peak', top.toFixed(4), `(${db(top).toFixed(2)} dBFS)`);
  expect(Math.abs(db(top) - -6)).toBeLessThan(1);
  // Speech, not silence: most 100 ms windows of the first 50 s carry sound, and some carry none (pauses).
  const windows = Array.from({ length: 500 }, (_, i) => peak(wav.left.subarray(i * 4410, (i + 1) * 4410)));
  const voiced = windows.filter((value) => value > 0.02).length;
  expect(voiced).toBeGreaterThan(150);
  expect(voiced).toBeLessThan(490);
  // The file fades out at its end.
  expect(peak(wav.left.subarray(wav.left.length - 441))).toBeLessThan(0.01);
});

test('below Pro, spoken affirmations and audio export show the plan that has them', async ({ page }) => {
  const account = await createActiveUser(page.request);
  await signIn(page, account);
  await page.goto('/subliminals');
  const panel = page.getByRole('region', { name: 'Spoken affirmations' });
  await expect(panel.getByRole('button', { name: /Spoken affirmations.*Pro/ })).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('button', { name: /Audio export.*Pro/ })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Speak the playlist' })).toHaveCount(0);
});
