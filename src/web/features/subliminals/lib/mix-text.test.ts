import { describe, expect, it } from 'vitest';
import { describeMix } from './mix-text';

describe('describeMix', () => {
  it('keeps each number on one line with its unit (a no-break space), so a narrow screen never breaks "80 %"', () => {
    const text = describeMix({
      volume: 0.8,
      layers: [
        { kind: 'isochronic', carrier_hz: 200, pulse_hz: 10, gain_db: -9.4 },
        { kind: 'voice', voice: 'en-gb', rate: 145, pause_s: 2, level_db: -20, gain_db: -6 },
      ],
    });
    expect(text).toBe('Isochronic tones −9\u00a0dB · Spoken affirmations 20\u00a0dB under · volume 80\u00a0%');
  });
});
