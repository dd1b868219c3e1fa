import { expect, test } from './support/test';
import { amplitudeAt, maxStep, peak, sineStepBound } from './audio-analysis';
import { db, renderEngine, rms, SAMPLE_RATE, saveWav, slice, type EngineEvent } from './support/sound-render';

// The one sound engine's layers, limiter, loops and sleep-timer fade, rendered by Chromium's Web
// Audio into an OfflineAudioContext and measured (docs/decisions/016-one-audio-engine-of-layers.md).

// Rendering and measuring seconds of audio takes a while on a busy machine.
test.describe.configure({ timeout: 120_000 });

const FADE_SECONDS = 0.08;
const dbToGain = (level: number) => 10 ** (level / 20);

/**
 * A track as a decoder hands it over: an MP3 encoder's delay and padding as silence around a
 * whole number of cycles of a cosine (so the loop itself has no phase jump).
 */
function paddedTone(hz: number, cycles: number, amplitude = 1): number[] {
  const frames = Math.round((cycles * SAMPLE_RATE) / hz);
  const tone = Array.from({ length: frames }, (_, n) => amplitude * Math.cos((2 * Math.PI * hz * n) / SAMPLE_RATE));
  return [...Array<number>(1105).fill(0), ...tone, ...Array<number>(700).fill(0)];
}

const TRACK = { kind: 'track', key: 'test:1', title: 'Test tone', url: '/tone.wav' } as const;

test('each layer plays at its own level (±0.5 dB) when the mix fits under the volume', async ({ page }) => {
  const levels = { track: -12, binaural: -18, isochronic: -18 };
  const rendered = await renderEngine(
    page,
    2,
    [
      { at: 0, action: 'layer', id: 'track', source: TRACK, gain: dbToGain(levels.track) },
      {
        at: 0,
        action: 'layer',
        id: 'binaural',
        source: { kind: 'binaural', leftHz: 200, rightHz: 210 },
        gain: dbToGain(levels.binaural),
      },
      {
        at: 0,
        action: 'layer',
        id: 'isochronic',
        source: { kind: 'isochronic', carrierHz: 500, pulseHz: 10 },
        gain: dbToGain(levels.isochronic),
      },
    ],
    { tracks: { [TRACK.url]: paddedTone(300, 600) } },
  );
  saveWav('layers.wav', rendered);
  const left = slice(rendered.left, 0.5);
  const right = slice(rendered.right, 0.5);
  const measured = {
    trackLeft: db(amplitudeAt(left, SAMPLE_RATE, 300)),
    trackRight: db(amplitudeAt(right, SAMPLE_RATE, 300)),
    binauralLeft: db(amplitudeAt(left, SAMPLE_RATE, 200)),
    binauralRight: db(amplitudeAt(right, SAMPLE_RATE, 210)),
    // carrier × (0.5 + 0.5 sin): the carrier at half the layer's gain, two side bands at a quarter.
    isochronicCarrier: db(amplitudeAt(left, SAMPLE_RATE, 500) * 2),
    isochronicSideBand: db(amplitudeAt(left, SAMPLE_RATE, 510) * 4),
  };
  console.log('levels (dBFS):', JSON.stringify(measured));
  expect(Math.abs(measured.trackLeft - levels.track)).toBeLessThan(0.5);
  expect(Math.abs(measured.trackRight - levels.track)).toBeLessThan(0.5);
  expect(Math.abs(measured.binauralLeft - levels.binaural)).toBeLessThan(0.5);
  expect(Math.abs(measured.binauralRight - levels.binaural)).toBeLessThan(0.5);
  expect(Math.abs(measured.isochronicCarrier - levels.isochronic)).toBeLessThan(0.5);
  expect(Math.abs(measured.isochronicSideBand - levels.isochronic)).toBeLessThan(0.5);
  // The binaural tones stay in their ears.
  expect(amplitudeAt(left, SAMPLE_RATE, 210)).toBeLessThan(1e-4);
  expect(amplitudeAt(right, SAMPLE_RATE, 200)).toBeLessThan(1e-4);
});

for (const colour of ['white', 'pink', 'brown'] as const) {
  test(`${colour} noise plays at its level (±0.5 dB), on both ears, and loops with no seam`, async ({ page }) => {
    const level = -12;
    const rendered = await renderEngine(
      page,
      9.2,
      [{ at: 0, action: 'layer', id: 'noise', source: { kind: 'noise', colour }, gain: dbToGain(level) }],
      { measureNoise: true },
    );
    // The generated loop is 8 s long: over exactly one loop (crossing its seam) the level is the layer's.
    const measured = db(rms(slice(rendered.left, 1, 8)) / rendered.noiseRms[colour]!);
    console.log(`${colour} noise level: ${measured.toFixed(3)} dB (set ${level} dB)`);
    expect(Math.abs(measured - level)).toBeLessThan(0.5);
    expect(slice(rendered.left, 1, 1)).toEqual(slice(rendered.right, 1, 1));
    expect(peak(rendered.left)).toBeLessThanOrEqual(dbToGain(level) * 1.001);
    // The step at the seam is no bigger than the noise's own steps elsewhere.
    const seam = Math.round(8 * SAMPLE_RATE);
    const stepsAround = maxStep(rendered.left.slice(seam - 64, seam + 64));
    expect(stepsAround).toBeLessThanOrEqual(maxStep(slice(rendered.left, 1, 6)));
  });
}

test('the limiter: four full layers under a 0.8 volume never pass 0.8, added and removed one by one', async ({
  page,
}) => {
  const events: EngineEvent[] = [
    { at: 0, action: 'layer', id: 'track', source: TRACK, gain: 1 },
    { at: 0.3, action: 'layer', id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 210 }, gain: 1 },
    { at: 0.6, action: 'layer', id: 'isochronic', source: { kind: 'isochronic', carrierHz: 400, pulseHz: 6 }, gain: 1 },
    { at: 0.9, action: 'layer', id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 1 },
    { at: 2.2, action: 'remove', id: 'noise' },
    { at: 2.8, action: 'gain', id: 'binaural', gain: 0.1 },
    { at: 3.0, action: 'volume', volume: 0.5 },
    { at: 3.3, action: 'stop' },
  ];
  const rendered = await renderEngine(page, 3.6, events, {
    volume: 0.8,
    tracks: { [TRACK.url]: paddedTone(300, 600) },
  });
  saveWav('limiter.wav', rendered);
  const ceiling = { left: peak(rendered.left), right: peak(rendered.right) };
  console.log('limiter peaks:', JSON.stringify(ceiling));
  expect(ceiling.left).toBeLessThanOrEqual(0.8 * 1.001);
  expect(ceiling.right).toBeLessThanOrEqual(0.8 * 1.001);
  // With all four at full, the gain law shares the room: the track at 1/4 of 0.8.
  const allFour = slice(rendered.left, 1.2, 1);
  expect(Math.abs(db(amplitudeAt(allFour, SAMPLE_RATE, 300)) - db(0.8 / 4))).toBeLessThan(0.5);
  // After the noise has faded out (2.2–2.28 s) and the headroom risen (2.28–2.36 s), three share it.
  expect(Math.abs(db(amplitudeAt(slice(rendered.left, 2.4, 0.4), SAMPLE_RATE, 300)) - db(0.8 / 3))).toBeLessThan(0.5);
  // No change clicks: nothing steeper than the loudest tone can move, plus the noise's own steps.
  const toneBound = sineStepBound(0.8, 400, SAMPLE_RATE) * 1.02;
  expect(maxStep(slice(rendered.left, 0, 0.9))).toBeLessThanOrEqual(toneBound);
  expect(maxStep(slice(rendered.left, 2.3, 1.3))).toBeLessThanOrEqual(toneBound);
});

test('a looped track plays on with no gap and no click at its loop points, and starts and stops smoothly', async ({
  page,
}) => {
  // 0.512 s of 375 Hz (192 whole cycles) between silences: loops about 5 times in 3 s.
  const amplitude = 0.5;
  const rendered = await renderEngine(
    page,
    3,
    [
      { at: 0, action: 'layer', id: 'track', source: TRACK, gain: 1 },
      { at: 2.7, action: 'stop' },
    ],
    { tracks: { [TRACK.url]: paddedTone(375, 192, amplitude) } },
  );
  saveWav('loop.wav', rendered);
  // No step larger than the tone's own, from the fade-in through five loop points to the fade-out.
  expect(maxStep(rendered.left)).toBeLessThanOrEqual(sineStepBound(amplitude, 375, SAMPLE_RATE) * 1.02);
  // No gap: every 5 ms between the fades reaches the tone's peak (a 375 Hz cycle is 2.7 ms).
  const window = Math.round(0.005 * SAMPLE_RATE);
  let quietest = Infinity;
  for (let from = Math.round(0.1 * SAMPLE_RATE); from + window < 2.7 * SAMPLE_RATE; from += window) {
    quietest = Math.min(quietest, peak(rendered.left.slice(from, from + window)));
  }
  console.log('loop: quietest 5 ms peak', quietest);
  expect(quietest).toBeGreaterThan(amplitude * 0.99);
  expect(Math.abs(rendered.left[0]!)).toBeLessThan(1e-6);
  expect(peak(slice(rendered.left, 2.7 + FADE_SECONDS + 0.01, 0.2))).toBeLessThan(1e-6);
});

test('seeking crossfades without a click', async ({ page }) => {
  const amplitude = 0.5;
  const rendered = await renderEngine(
    page,
    1.5,
    [
      { at: 0, action: 'layer', id: 'track', source: TRACK, gain: 1 },
      { at: 0.5, action: 'seek', seconds: 0.2013 },
      { at: 1, action: 'seek', seconds: 0 },
    ],
    { tracks: { [TRACK.url]: paddedTone(375, 192, amplitude) } },
  );
  // Two copies crossfading may add up to twice the tone's slope at most, never a jump to full.
  expect(maxStep(rendered.left)).toBeLessThanOrEqual(sineStepBound(amplitude, 375, SAMPLE_RATE) * 2);
  expect(peak(rendered.left)).toBeLessThanOrEqual(amplitude * 1.001);
});

test('the sleep timer fades out along its envelope, then everything is silent', async ({ page }) => {
  // A 2 s timer with a 1.5 s fade: full until 0.5 s, (1 − p)³ down to silence at 2 s.
  const rendered = await renderEngine(page, 2.5, [
    { at: 0, action: 'layer', id: 'binaural', source: { kind: 'binaural', leftHz: 250, rightHz: 250 }, gain: 1 },
    { at: 0, action: 'timer', seconds: 2, fadeSeconds: 1.5 },
  ]);
  saveWav('sleep-timer-fade.wav', rendered);
  const envelopeAt = (t: number) => peak(slice(rendered.left, t - 0.004, 0.008));
  const report: Array<[number, number, number]> = [];
  for (const t of [0.3, 0.6, 0.875, 1.25, 1.625, 1.85]) {
    const expected = (1 - Math.min(1, Math.max(0, (t - 0.5) / 1.5))) ** 3;
    report.push([t, envelopeAt(t), expected]);
    // Within 0.5 dB while the fade is above −40 dB; absolutely close below that.
    if (expected > 0.01) expect(Math.abs(db(envelopeAt(t) / expected))).toBeLessThan(0.5);
    else expect(Math.abs(envelopeAt(t) - expected)).toBeLessThan(0.002);
  }
  console.log('fade envelope [t, measured, expected]:', JSON.stringify(report));
  expect(peak(slice(rendered.left, 2.0, 0.5))).toBeLessThan(1e-6);
  expect(maxStep(rendered.left)).toBeLessThanOrEqual(sineStepBound(1, 250, SAMPLE_RATE) * 1.02);
});
