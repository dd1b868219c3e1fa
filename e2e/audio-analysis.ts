// Measuring rendered audio in the e2e tests: DFT bins, peaks, steps, and a WAV writer so a person
// (or sox) can listen to what the test heard.

/** Amplitude of the sine at `hz` in `samples` (a whole number of seconds gives exact 1 Hz bins). */
export function amplitudeAt(samples: ArrayLike<number>, sampleRate: number, hz: number): number {
  let re = 0;
  let im = 0;
  const step = (2 * Math.PI * hz) / sampleRate;
  for (let n = 0; n < samples.length; n++) {
    const x = samples[n] ?? 0;
    re += x * Math.cos(step * n);
    im -= x * Math.sin(step * n);
  }
  return (2 * Math.hypot(re, im)) / samples.length;
}

/** The strongest 1 Hz bin between 1 and maxHz. */
export function dominantHz(samples: ArrayLike<number>, sampleRate: number, maxHz = 1000): number {
  let best = 0;
  let bestAmplitude = -1;
  for (let hz = 1; hz <= maxHz; hz++) {
    const amplitude = amplitudeAt(samples, sampleRate, hz);
    if (amplitude > bestAmplitude) {
      bestAmplitude = amplitude;
      best = hz;
    }
  }
  return best;
}

export function peak(samples: ArrayLike<number>): number {
  let max = 0;
  for (let n = 0; n < samples.length; n++) max = Math.max(max, Math.abs(samples[n] ?? 0));
  return max;
}

/** The largest jump between neighbouring samples: a click shows up as a jump near the amplitude. */
export function maxStep(samples: ArrayLike<number>): number {
  let max = 0;
  for (let n = 1; n < samples.length; n++) max = Math.max(max, Math.abs((samples[n] ?? 0) - (samples[n - 1] ?? 0)));
  return max;
}

/** The steepest a sine of this amplitude and frequency can move from one sample to the next. */
export const sineStepBound = (amplitude: number, hz: number, sampleRate: number) =>
  (amplitude * 2 * Math.PI * hz) / sampleRate;

/** A tone (a second of 440 Hz unless told) as a 16-bit mono WAV file, as a person or staff would upload one. */
export const toneWav = (seconds = 1, rate = 8000, hz = 440): Buffer =>
  encodeWav([Array.from({ length: seconds * rate }, (_, n) => 0.25 * Math.sin((2 * Math.PI * hz * n) / rate))], rate);

/** 16-bit PCM WAV of one or more channels of samples in −1…1 (clipped). */
export function encodeWav(channels: ReadonlyArray<ArrayLike<number>>, sampleRate: number): Buffer {
  const frames = channels[0]?.length ?? 0;
  const block = channels.length * 2;
  const data = Buffer.alloc(frames * block);
  for (let n = 0; n < frames; n++)
    channels.forEach((channel, c) =>
      data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, channel[n] ?? 0)) * 32767), n * block + c * 2),
    );
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels.length, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * block, 28);
  header.writeUInt16LE(block, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
