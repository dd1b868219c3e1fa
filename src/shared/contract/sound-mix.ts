import { z } from 'zod';
import { BINAURAL } from '../constants';
import { maxElements } from './drf-messages';
import { MAX_DATABASE_ID, requiredString } from './fields';
import { maxCharacters } from './plain';
import { AUDIO_KINDS, MIX_GAIN_DB } from './portal-plain';

export { MIX_GAIN_DB } from './portal-plain';

// A saved subliminal's sound (docs/product/api.md#saved-and-shared, decision 021): the sound engine's
// layers with their levels and the master volume, as the engine held them when it was saved.

/** The voice layer's subliminal level: dB under the loudest other layer. */
export const MIX_VOICE_LEVEL_DB = { min: -35, max: 0 } as const;
/** The engine has one slot per kind of sound (the track slot holds a library or an own track). */
export const MIX_LAYERS_MAX = 5;
export const MIX_TRACK_NAME_MAX = 120;

const numberIn = (min: number, max: number) =>
  z
    .number({ error: 'A valid number is required.' })
    .min(min, { error: `Ensure this value is greater than or equal to ${min}.` })
    .max(max, { error: `Ensure this value is less than or equal to ${max}.` });
const integerIn = (min: number, max: number) => numberIn(min, max).int({ error: 'A valid integer is required.' });
const gainDb = () => numberIn(MIX_GAIN_DB.min, MIX_GAIN_DB.max);
const trackId = () => integerIn(1, MAX_DATABASE_ID);
const trackName = () => requiredString().max(MIX_TRACK_NAME_MAX, maxCharacters(MIX_TRACK_NAME_MAX));

export const MIX_LAYER_KINDS = ['track', 'own_track', 'binaural', 'isochronic', 'noise', 'voice'] as const;
export type MixLayerKind = (typeof MIX_LAYER_KINDS)[number];

export const mixLayerSchema = z.discriminatedUnion(
  'kind',
  [
    /** A library track, by its library and id; its name as it was, for a note when it is gone. */
    z.strictObject({
      kind: z.literal('track'),
      audio_kind: z.enum(AUDIO_KINDS, { error: 'Choose selfeggio, bonus or custom.' }),
      track_id: trackId(),
      name: trackName(),
      gain_db: gainDb(),
    }),
    /** One of the saver's own uploaded tracks (Pro). */
    z.strictObject({ kind: z.literal('own_track'), track_id: trackId(), name: trackName(), gain_db: gainDb() }),
    /** Each ear's tone as the generator plays it: its fields are free within what it plays (0.1–1000 Hz). */
    z.strictObject({
      kind: z.literal('binaural'),
      left_hz: numberIn(BINAURAL.clampHz.min, BINAURAL.clampHz.max),
      right_hz: numberIn(BINAURAL.clampHz.min, BINAURAL.clampHz.max),
      gain_db: gainDb(),
    }),
    z.strictObject({
      kind: z.literal('isochronic'),
      carrier_hz: numberIn(20, 1000),
      pulse_hz: numberIn(0.5, 40),
      gain_db: gainDb(),
    }),
    z.strictObject({
      kind: z.literal('noise'),
      colour: z.enum(['white', 'pink', 'brown'], { error: 'Choose white, pink or brown.' }),
      gain_db: gainDb(),
    }),
    /**
     * The messages spoken in the browser (Pro): the voice, words per minute and the pause between
     * messages, at `level_db` under the loudest other layer; `gain_db` is its level when alone.
     */
    z.strictObject({
      kind: z.literal('voice'),
      voice: z.string().regex(/^[a-z]{2,3}(-[a-z]{2})?(\+[a-z0-9]{1,4})?$/, { error: 'Choose a listed voice.' }),
      rate: integerIn(80, 260),
      pause_s: numberIn(0.5, 10),
      level_db: numberIn(MIX_VOICE_LEVEL_DB.min, MIX_VOICE_LEVEL_DB.max),
      gain_db: gainDb(),
    }),
  ],
  { error: `A layer is one of: ${MIX_LAYER_KINDS.join(', ')}.` },
);
export type MixLayer = z.infer<typeof mixLayerSchema>;

/** The engine slot a layer plays in: a library and an own track share the track slot. */
export const mixSlot = (layer: MixLayer) => (layer.kind === 'own_track' ? 'track' : layer.kind);

export const soundMixSchema = z.strictObject({
  /** The master volume, 0–1: nothing in the session is louder. */
  volume: numberIn(0, 1),
  layers: z
    .array(mixLayerSchema)
    .min(1, { error: 'A sound needs at least one layer.' })
    .max(MIX_LAYERS_MAX, maxElements(MIX_LAYERS_MAX))
    .superRefine((layers, ctx) => {
      const seen = new Set<string>();
      layers.forEach((layer, index) => {
        const slot = mixSlot(layer);
        if (seen.has(slot))
          ctx.addIssue({
            code: 'custom',
            path: [index, 'kind'],
            message: slot === 'track' ? 'A sound has one track (library or own).' : `A sound has one ${slot} layer.`,
          });
        seen.add(slot);
      });
    }),
});
export type SoundMix = z.infer<typeof soundMixSchema>;
