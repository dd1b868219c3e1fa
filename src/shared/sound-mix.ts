import type { SubscriptionPlan } from './constants';
import { isolated } from './contract/plain';
import { OWN_VOICE } from './contract/portal-plain';
import type { MixLayer, SoundMix } from './contract/sound-mix';
import { PLAN_FEATURES, planIncludes, planName, type PlanFeature } from './plans';

// Which layers of a saved sound a plan plays (docs/product/plans.md, decision 021): the server refuses
// to save a layer the saver's plan lacks; a person (or a visitor, as Basic) opening a saved or shared
// subliminal hears the layers their plan allows and is told which were left out and why.

/** The feature a kind of layer needs on its own; library tracks and binaural beats play on every plan. */
export const MIX_LAYER_FEATURE: Record<MixLayer['kind'], PlanFeature | null> = {
  track: null,
  binaural: null,
  own_track: 'ownMusic',
  isochronic: 'soundLayers',
  noise: 'soundLayers',
  voice: 'spokenSubliminals',
};

const LAYER_NAMES: Record<MixLayer['kind'], string> = {
  track: 'Track',
  own_track: 'Your music',
  binaural: 'Binaural beats',
  isochronic: 'Isochronic tones',
  noise: 'Noise',
  voice: 'Spoken affirmations',
};

/** How a layer is named on the screens: a track by its name, a noise by its colour. */
export function mixLayerLabel(layer: MixLayer): string {
  if (layer.kind === 'track' || layer.kind === 'own_track') return isolated(layer.name);
  if (layer.kind === 'noise') return `${layer.colour[0]!.toUpperCase()}${layer.colour.slice(1)} noise`;
  if (layer.kind === 'voice' && layer.voice === OWN_VOICE) return 'Spoken affirmations in your own voice';
  return LAYER_NAMES[layer.kind];
}

/** The first layer the plan does not include, with the feature it needs, or null when all are. */
export function layerBeyondPlan(
  layers: readonly MixLayer[],
  plan: SubscriptionPlan,
): { layer: MixLayer; feature: PlanFeature } | null {
  for (const layer of layers) {
    const feature = MIX_LAYER_FEATURE[layer.kind];
    if (feature && !planIncludes(plan, feature)) return { layer, feature };
  }
  if (layers.length > 1 && !planIncludes(plan, 'soundLayers')) return { layer: layers[1]!, feature: 'soundLayers' };
  return null;
}

export interface LeftOutLayer {
  layer: MixLayer;
  /** Why, in a sentence for the screen. */
  reason: string;
}

/**
 * The layers `plan` plays of a saved sound (null: a visitor, who plays as Basic), in their saved
 * order, and those left out with the reason. Without sound layers only the first playable one plays.
 */
export function playableMix(
  mix: SoundMix,
  plan: SubscriptionPlan | null,
): { layers: MixLayer[]; leftOut: LeftOutLayer[] } {
  const as = plan ?? 'basic';
  const layers: MixLayer[] = [];
  const leftOut: LeftOutLayer[] = [];
  for (const layer of mix.layers) {
    const feature = MIX_LAYER_FEATURE[layer.kind];
    if (feature && !planIncludes(as, feature)) {
      leftOut.push({ layer, reason: `part of the ${planName(PLAN_FEATURES[feature])} plan` });
    } else if (layers.length > 0 && !planIncludes(as, 'soundLayers')) {
      leftOut.push({
        layer,
        reason: `more than one layer at a time is part of the ${planName(PLAN_FEATURES.soundLayers)} plan`,
      });
    } else {
      layers.push(layer);
    }
  }
  return { layers, leftOut };
}
