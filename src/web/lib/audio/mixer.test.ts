import { describe, expect, it } from 'vitest';
import {
  dbToGain,
  fadeOutGain,
  fadeOutPoints,
  formatClock,
  gainToDb,
  headroomFor,
  loopBounds,
  mixCeiling,
  planSleepTimer,
} from './mixer';
import { noiseLoop } from './noise';

describe('decibels', () => {
  it('converts both ways, with −60 dB and below as silence', () => {
    expect(dbToGain(0)).toBe(1);
    expect(dbToGain(-6)).toBeCloseTo(0.501, 3);
    expect(dbToGain(-20)).toBeCloseTo(0.1, 10);
    expect(dbToGain(-60)).toBe(0);
    expect(gainToDb(0.5)).toBeCloseTo(-6.02, 2);
    expect(gainToDb(0)).toBe(-Infinity);
    for (const db of [-3, -12, -35]) expect(gainToDb(dbToGain(db))).toBeCloseTo(db, 10);
  });
});

describe('the limiter’s gain law', () => {
  it('leaves a mix that fits alone and scales one that does not to exactly full scale', () => {
    expect(headroomFor([0.5, 0.25])).toBe(1);
    expect(headroomFor([1])).toBe(1);
    expect(headroomFor([1, 0.5])).toBeCloseTo(2 / 3, 12);
    expect(headroomFor([])).toBe(1);
    // Out-of-range gains count as their clamp: never more than full scale per layer, never negative.
    expect(headroomFor([4, -1, Number.NaN])).toBe(1);
  });

  it('never lets the mix pass the chosen volume, whatever the layers', () => {
    for (const gains of [[1, 1, 1, 1], [0.5, 0.5], [0.2], [1, 0.01], [dbToGain(-3), dbToGain(-6), dbToGain(-12)]]) {
      for (const volume of [0, 0.3, 0.8, 1]) {
        expect(mixCeiling(gains, volume)).toBeLessThanOrEqual(volume + 1e-12);
      }
    }
    expect(mixCeiling([1, 1, 1, 1], 0.8)).toBeCloseTo(0.8, 12);
    expect(mixCeiling([0.25, 0.25], 0.8)).toBeCloseTo(0.4, 12);
  });
});

describe('the sleep timer', () => {
  it('fades over the chosen time, at most 10 minutes and never longer than the timer', () => {
    expect(planSleepTimer(100, 900, 60)).toEqual({ fadeStartsAt: 940, endsAt: 1000 });
    expect(planSleepTimer(0, 8 * 3600, 3600)).toEqual({ fadeStartsAt: 8 * 3600 - 600, endsAt: 8 * 3600 });
    expect(planSleepTimer(0, 30, 60)).toEqual({ fadeStartsAt: 0, endsAt: 30 });
    expect(planSleepTimer(5, 60, Number.NaN)).toEqual({ fadeStartsAt: 65, endsAt: 65 });
  });

  it('fades from full to exactly silent, always falling, evenly in decibels', () => {
    expect(fadeOutGain(0)).toBe(1);
    expect(fadeOutGain(1)).toBe(0);
    expect(gainToDb(fadeOutGain(0.5))).toBeCloseTo(-18.06, 2);
    expect(gainToDb(fadeOutGain(0.9))).toBeCloseTo(-60, 6);
    let previous = 2;
    for (let p = 0; p <= 1; p += 0.01) {
      const gain = fadeOutGain(p);
      expect(gain).toBeLessThan(previous);
      previous = gain;
    }
    // The quarters fall by roughly the same number of decibels until the last reaches silence.
    const quarterDrops = [0.25, 0.5, 0.75].map((p) => gainToDb(fadeOutGain(p)) - gainToDb(fadeOutGain(p - 0.25)));
    expect(Math.max(...quarterDrops) / Math.min(...quarterDrops)).toBeLessThan(3);
  });

  it('draws the fade as short ramps from (start, 1) to (end, 0)', () => {
    const points = fadeOutPoints(10, 600, 64);
    expect(points).toHaveLength(65);
    expect(points[0]).toEqual([10, 1]);
    expect(points.at(-1)).toEqual([610, 0]);
    // No segment drops more than a 64th of the way in time would allow a step: the biggest fall is the first.
    const falls = points.slice(1).map(([, gain], i) => points[i]![1] - gain);
    expect(Math.max(...falls)).toBeCloseTo(1 - (63 / 64) ** 3, 12);
  });

  it('prints clocks', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(42.9)).toBe('0:42');
    expect(formatClock(723)).toBe('12:03');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });
});

describe('a track’s loop', () => {
  it('skips an encoder’s silent delay and padding', () => {
    const channel = [0, 0, 0.0005, 0.4, -0.3, 0.2, 0.0002, 0, 0];
    expect(loopBounds([channel])).toEqual({ start: 3, end: 6 });
    // Loud on either channel counts.
    expect(loopBounds([channel, [0.5, 0, 0, 0, 0, 0, 0, 0, 0.5]])).toEqual({ start: 0, end: 9 });
    expect(loopBounds([[0, 0, 0]])).toEqual({ start: 0, end: 3 });
  });
});

describe('noise colours', () => {
  it.each(['white', 'pink', 'brown'] as const)('%s noise peaks at 1 and loops with no seam', (colour) => {
    const frames = 48_000;
    const noise = noiseLoop(colour, frames);
    let peak = 0;
    let steepest = 0;
    for (let i = 0; i < frames; i++) {
      peak = Math.max(peak, Math.abs(noise[i]!));
      if (i > 0) steepest = Math.max(steepest, Math.abs(noise[i]! - noise[i - 1]!));
    }
    expect(peak).toBeCloseTo(1, 6);
    // The step from the last sample back to the first is no bigger than the steps inside the loop.
    expect(Math.abs(noise[0]! - noise[frames - 1]!)).toBeLessThanOrEqual(steepest);
  });

  it('gets darker from white to pink to brown (less energy in sample-to-sample change)', () => {
    const roughness = (colour: 'white' | 'pink' | 'brown') => {
      const noise = noiseLoop(colour, 48_000);
      let change = 0;
      let energy = 0;
      for (let i = 1; i < noise.length; i++) {
        change += (noise[i]! - noise[i - 1]!) ** 2;
        energy += noise[i]! ** 2;
      }
      return change / energy;
    };
    expect(roughness('white')).toBeGreaterThan(roughness('pink'));
    expect(roughness('pink')).toBeGreaterThan(roughness('brown'));
  });
});
