// WAV files, with no Web Audio inside so they can be unit-tested: the 16-bit PCM files the export
// writes (docs/decisions/019-spoken-affirmations-and-audio-export.md) and the ones eSpeak NG hands back.

const BYTES_PER_SAMPLE = 2;

/** The 44-byte header of a 16-bit PCM WAV file holding `frames` frames of `channels` channels. */
export function wavHeader(frames: number, sampleRate: number, channels = 2): ArrayBuffer {
  const dataBytes = frames * channels * BYTES_PER_SAMPLE;
  const header = new ArrayBuffer(44);
  const view = new DataView(header);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) view.setUint8(offset + i, value.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * BYTES_PER_SAMPLE, true);
  view.setUint16(32, channels * BYTES_PER_SAMPLE, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  return header;
}

/** A sample of −1…1 as a 16-bit integer: clipped, scaled by 32767 and rounded (silence stays 0). */
export const toInt16 = (sample: number): number =>
  Math.round(Math.max(-1, Math.min(1, Number.isFinite(sample) ? sample : 0)) * 32767);

/** Channels of float samples as interleaved 16-bit PCM (one chunk of a WAV file's data). */
export function interleavePcm16(channels: readonly ArrayLike<number>[]): Int16Array<ArrayBuffer> {
  const frames = Math.min(...channels.map((channel) => channel.length));
  const out = new Int16Array(frames * channels.length);
  for (let n = 0; n < frames; n++) {
    for (let c = 0; c < channels.length; c++) out[n * channels.length + c] = toInt16(channels[c]![n]!);
  }
  return out;
}

/**
 * The first channel of a 16-bit PCM WAV file as floats, and its rate. Walks the chunks rather than
 * trusting a 44-byte header; a data size past the end of the file (a streamed write) is cut to it.
 */
export function readWav(bytes: ArrayBuffer): { samples: Float32Array<ArrayBuffer>; sampleRate: number } {
  const view = new DataView(bytes);
  const tag = (offset: number) => String.fromCharCode(...new Uint8Array(bytes, offset, 4));
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('Not a WAV file');
  let channels = 0;
  let sampleRate = 0;
  let offset = 12;
  while (offset + 8 <= bytes.byteLength) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (view.getUint16(body, true) !== 1 || view.getUint16(body + 14, true) !== 16) {
        throw new Error('Not 16-bit PCM');
      }
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
    } else if (id === 'data') {
      if (!channels) throw new Error('WAV data before its format');
      const frames = Math.floor(Math.min(size, bytes.byteLength - body) / (channels * BYTES_PER_SAMPLE));
      const samples = new Float32Array(frames);
      for (let n = 0; n < frames; n++) samples[n] = view.getInt16(body + n * channels * BYTES_PER_SAMPLE, true) / 32768;
      return { samples, sampleRate };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file without data');
}
