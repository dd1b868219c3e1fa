import { describe, expect, it } from 'vitest';
import { buildVoiceLoop, voiceSchedule } from './voice-loop';
import { dbToGain, voiceGain } from './mixer';

const clip = (values: number[], sampleRate = 10) => ({ samples: new Float32Array(values), sampleRate });

describe('the spoken affirmations loop', () => {
  it('schedules each message after the last one and its pause, and loops after the last pause', () => {
    expect(voiceSchedule([30, 10, 20], 10, 2)).toEqual({ starts: [0, 50, 80], frames: 120, pauseFrames: 20 });
    expect(voiceSchedule([], 10, 2)).toEqual({ starts: [], frames: 0, pauseFrames: 20 });
    expect(voiceSchedule([5], 10, Number.NaN).frames).toBe(5);
  });

  it('builds one buffer of clips and pauses, its loudest sample at full scale', () => {
    const loop = buildVoiceLoop([clip([0.1, -0.2]), clip([0.4])], 0.2)!;
    expect(loop.sampleRate).toBe(10);
    expect([...loop.samples]).toEqual([0.25, -0.5, 0, 0, 1, 0, 0]);
    expect(buildVoiceLoop([], 1)).toBeNull();
  });

  it('plays the voice its level under the loudest other layer, or at its own gain alone', () => {
    expect(voiceGain(0.5, [], -20)).toBe(0.5);
    expect(voiceGain(0.5, [0.25, 0.5], 0)).toBe(0.5);
    expect(voiceGain(0.5, [0.25, 0.5], -20)).toBeCloseTo(0.05, 10);
    expect(voiceGain(0.5, [1], -35)).toBeCloseTo(dbToGain(-35), 10);
    // Louder than the others is not a subliminal level: 0 dB is the ceiling.
    expect(voiceGain(0.5, [0.5], 6)).toBe(0.5);
  });
});
