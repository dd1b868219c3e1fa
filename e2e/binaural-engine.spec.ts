import { expect, test, type Page } from './support/test';
import { amplitudeAt, dominantHz, maxStep, peak, sineStepBound } from './audio-analysis';
import { renderEngine, saveWav, SAMPLE_RATE, type EngineEvent, type Rendered } from './support/sound-render';

// The binaural layer of the one sound engine, rendered by Chromium's Web Audio into an
// OfflineAudioContext, and measured. The master volume is 1, so each ear's level is the layer's.

// Rendering and measuring seconds of audio takes a while on a busy machine.
test.describe.configure({ timeout: 120_000 });

const FADE_SECONDS = 0.08;

interface Settings {
  leftHz: number;
  rightHz: number;
  volume: number;
}
type BinauralEvent = { at: number } & (
  { action: 'start'; settings: Settings } | { action: 'update'; changes: Partial<Settings> } | { action: 'stop' }
);

function render(page: Page, seconds: number, events: BinauralEvent[]): Promise<Rendered> {
  const engineEvents = events.flatMap((event): EngineEvent[] => {
    const { at } = event;
    if (event.action === 'start') {
      const { leftHz, rightHz, volume } = event.settings;
      return [{ at, action: 'layer', id: 'binaural', source: { kind: 'binaural', leftHz, rightHz }, gain: volume }];
    }
    if (event.action === 'stop') return [{ at, action: 'stop' }];
    const { volume, ...hz } = event.changes;
    return [
      { at, action: 'retune', id: 'binaural', changes: hz },
      ...(volume === undefined ? [] : [{ at, action: 'gain', id: 'binaural', gain: volume } as EngineEvent]),
    ];
  });
  return renderEngine(page, seconds, engineEvents);
}

const window1s = (samples: number[], fromSeconds: number) =>
  samples.slice(Math.round(fromSeconds * SAMPLE_RATE), Math.round((fromSeconds + 1) * SAMPLE_RATE));

for (const settings of [
  { leftHz: 200, rightHz: 210, volume: 0.5 }, // the Alpha preset
  { leftHz: 250, rightHz: 243, volume: 0.8 }, // right below left, louder
]) {
  test(`left ${settings.leftHz} Hz / right ${settings.rightHz} Hz at volume ${settings.volume}: exact, separated, click-free`, async ({
    page,
  }) => {
    const rendered = await render(page, 2, [
      { at: 0, action: 'start', settings },
      { at: 1.6, action: 'stop' },
    ]);
    saveWav(`binaural-${settings.leftHz}-${settings.rightHz}.wav`, rendered);
    const left = window1s(rendered.left, 0.5);
    const right = window1s(rendered.right, 0.5);

    // Each ear hears its own frequency (1 Hz bins over exactly 1 s)...
    expect(dominantHz(left, SAMPLE_RATE)).toBe(settings.leftHz);
    expect(dominantHz(right, SAMPLE_RATE)).toBe(settings.rightHz);
    // ...at exactly the chosen volume...
    expect(amplitudeAt(left, SAMPLE_RATE, settings.leftHz)).toBeCloseTo(settings.volume, 2);
    expect(amplitudeAt(right, SAMPLE_RATE, settings.rightHz)).toBeCloseTo(settings.volume, 2);
    expect(Math.abs(peak(left) / settings.volume - 1)).toBeLessThan(0.01);
    expect(Math.abs(peak(right) / settings.volume - 1)).toBeLessThan(0.01);
    // ...and nothing of the other ear's tone (no cross-talk).
    expect(amplitudeAt(left, SAMPLE_RATE, settings.rightHz)).toBeLessThan(1e-4);
    expect(amplitudeAt(right, SAMPLE_RATE, settings.leftHz)).toBeLessThan(1e-4);

    // Never louder than the volume, anywhere.
    expect(peak(rendered.left)).toBeLessThanOrEqual(settings.volume * 1.001);
    expect(peak(rendered.right)).toBeLessThanOrEqual(settings.volume * 1.001);

    // No click: no jump between samples steeper than the sine itself, from the first to the last.
    const highest = Math.max(settings.leftHz, settings.rightHz);
    const bound = sineStepBound(settings.volume, highest, SAMPLE_RATE) * 1.02;
    expect(maxStep(rendered.left)).toBeLessThanOrEqual(bound);
    expect(maxStep(rendered.right)).toBeLessThanOrEqual(bound);

    // The start fades in from silence: the first sample is 0 and the first millisecond stays
    // under the linear ramp's envelope.
    const oneMs = SAMPLE_RATE / 1000;
    const rampEnvelope = (settings.volume * 0.001) / FADE_SECONDS;
    for (const channel of [rendered.left, rendered.right]) {
      expect(Math.abs(channel[0]!)).toBeLessThan(1e-6);
      expect(peak(channel.slice(0, oneMs))).toBeLessThanOrEqual(rampEnvelope * 1.05);
    }

    // The stop fades out: the last millisecond of sound is under the envelope, then silence.
    const stopAt = Math.round(1.6 * SAMPLE_RATE);
    const fadeEnd = stopAt + Math.round(FADE_SECONDS * SAMPLE_RATE);
    for (const channel of [rendered.left, rendered.right]) {
      // The render suspends on a 128-frame boundary, so allow one quantum of slack around the end.
      expect(peak(channel.slice(fadeEnd - oneMs + 128, fadeEnd + 128))).toBeLessThanOrEqual(
        rampEnvelope * 1.05 + (settings.volume * 128) / (FADE_SECONDS * SAMPLE_RATE),
      );
      expect(peak(channel.slice(fadeEnd + 256))).toBeLessThan(1e-6);
    }
  });
}

test('changes while playing glide, and a new start replaces the session', async ({ page }) => {
  const rendered = await render(page, 3.2, [
    { at: 0, action: 'start', settings: { leftHz: 200, rightHz: 205, volume: 0.5 } },
    { at: 0.8, action: 'update', changes: { leftHz: 300, volume: 0.25 } },
    { at: 1.2, action: 'update', changes: { rightHz: 320, volume: 0.5 } },
    { at: 1.5, action: 'start', settings: { leftHz: 220, rightHz: 230, volume: 0.4 } },
    { at: 2.8, action: 'stop' },
  ]);
  saveWav('binaural-glides.wav', rendered);

  // A glide never jumps: every step stays within what the highest, loudest sine can do.
  const bound = sineStepBound(0.5, 320, SAMPLE_RATE) * 1.02;
  expect(maxStep(rendered.left)).toBeLessThanOrEqual(bound);
  expect(maxStep(rendered.right)).toBeLessThanOrEqual(bound);
  expect(peak(rendered.left)).toBeLessThanOrEqual(0.5 * 1.001);
  expect(peak(rendered.right)).toBeLessThanOrEqual(0.5 * 1.001);

  // The glides arrive: left 300 Hz at 0.25 before the second update.
  const beforeRestart = rendered.left.slice(Math.round(1.0 * SAMPLE_RATE), Math.round(1.2 * SAMPLE_RATE));
  expect(Math.abs(peak(beforeRestart) / 0.25 - 1)).toBeLessThan(0.02);

  // After the restart only the new session sounds: nothing left of the old 300 / 320 Hz tones.
  const left = window1s(rendered.left, 1.7);
  const right = window1s(rendered.right, 1.7);
  expect(dominantHz(left, SAMPLE_RATE)).toBe(220);
  expect(dominantHz(right, SAMPLE_RATE)).toBe(230);
  expect(amplitudeAt(left, SAMPLE_RATE, 300)).toBeLessThan(1e-4);
  expect(amplitudeAt(right, SAMPLE_RATE, 320)).toBeLessThan(1e-4);
  expect(Math.abs(peak(left) / 0.4 - 1)).toBeLessThan(0.01);
});

test('a few seconds of the Alpha preset, saved for listening', async ({ page }) => {
  const rendered = await render(page, 5, [
    { at: 0, action: 'start', settings: { leftHz: 200, rightHz: 210, volume: 0.5 } },
    { at: 4.8, action: 'stop' },
  ]);
  const file = saveWav('binaural-alpha-5s.wav', rendered);
  await test.info().attach('binaural-alpha-5s.wav', { path: file, contentType: 'audio/wav' });
  // The beat a listener hears is the sum's envelope: |L + R| / 2 swells and fades 10 times a second.
  const mono = window1s(rendered.left, 2).map((x, n) => Math.abs(x + (rendered.right[2 * SAMPLE_RATE + n] ?? 0)) / 2);
  expect(dominantHz(mono, SAMPLE_RATE, 50)).toBe(10);
});
