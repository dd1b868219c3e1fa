import type { SoundMix } from '@shared/contract/sound-mix';
import { withUnit } from '@shared/numbers';
import { mixLayerLabel } from '@shared/sound-mix';
import { isolated } from '@shared/contract/plain';
import { NOT_IN_LIBRARY } from '@web/lib/audio/gone-track-text';

// A saved sound in words, for the saved list and the shared page (light: no engine, no zod).

/**
 * "432 Hz calm −6 dB · Pink noise −18 dB · Spoken affirmations 20 dB under · volume 70 %", each number
 * kept on one line with its unit.
 */
export function describeMix(mix: SoundMix): string {
  const layers = mix.layers.map((layer) =>
    layer.kind === 'voice'
      ? `${mixLayerLabel(layer)} ${withUnit(Math.abs(layer.level_db), 'dB')} under`
      : `${mixLayerLabel(layer)} ${withUnit(String(Math.round(layer.gain_db)).replace('-', '−'), 'dB')}`,
  );
  return [...layers, `volume ${withUnit(Math.round(mix.volume * 100), '%')}`].join(' · ');
}

/** A layer that does not play, and why. */
export interface SkippedLayer {
  label: string;
  reason: string;
}

/** The note for what did not start: "Left out: Sea (no longer in your music); Noise (part of the Intermediate plan)." */
export function skippedNote(skipped: readonly SkippedLayer[]): string | null {
  if (skipped.length === 0) return null;
  return `Left out: ${skipped.map((layer) => `${layer.label} (${layer.reason})`).join('; ')}.`;
}

/**
 * What a share leaves out of its sound before any plan is asked: the sharer's own music, which it never
 * carries, and library tracks removed since it was saved.
 */
export const withheldSkipped = (item: {
  private_tracks: readonly string[];
  gone_tracks: readonly string[];
}): SkippedLayer[] => [
  ...item.private_tracks.map((name) => ({ label: isolated(name), reason: "the sharer's own music stays private" })),
  ...item.gone_tracks.map((name) => ({ label: isolated(name), reason: NOT_IN_LIBRARY })),
];
