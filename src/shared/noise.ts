/**
 * Pink noise (−3 dB/octave) from white noise by Paul Kellet's refined filter: the seeded tracks
 * (server) and the noise layer (browser) colour their noise the same way. Not normalised.
 */
export function pinkFilter(white: Float32Array): Float32Array {
  const out = new Float32Array(white.length);
  let [b0, b1, b2, b3, b4, b5, b6] = [0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < white.length; i++) {
    const w = white[i]!;
    b0 = 0.99886 * b0 + w * 0.0555179;
    b1 = 0.99332 * b1 + w * 0.0750759;
    b2 = 0.969 * b2 + w * 0.153852;
    b3 = 0.8665 * b3 + w * 0.3104856;
    b4 = 0.55 * b4 + w * 0.5329522;
    b5 = -0.7616 * b5 - w * 0.016898;
    out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
    b6 = w * 0.115926;
  }
  return out;
}
