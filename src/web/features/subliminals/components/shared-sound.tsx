import type { SharedItem } from '@shared/contract';
import type { SubscriptionPlan } from '@shared/constants';
import { mixLayerLabel, playableMix } from '@shared/sound-mix';
import { usePlan } from '@web/lib/plan';
import { describeMix, skippedNote, withheldSkipped } from '../lib/mix-text';

type SharedSubliminal = Extract<SharedItem, { kind: 'subliminal' }>;

/**
 * A shared subliminal's sound (docs/product/screens.md#shared-link): each layer at its level, and
 * which of them the viewer's plan plays (a visitor's as the free plan's), said before anything starts.
 */
export function SharedSound({ item, plan }: { item: SharedSubliminal; plan: SubscriptionPlan | null }) {
  if (!item.sound && item.private_tracks.length === 0 && item.gone_tracks.length === 0) return null;
  const { layers, leftOut } = item.sound ? playableMix(item.sound, plan) : { layers: [], leftOut: [] };
  const note = skippedNote([
    ...withheldSkipped(item),
    ...leftOut.map(({ layer, reason }) => ({ label: mixLayerLabel(layer), reason })),
  ]);
  return (
    <section aria-labelledby="shared-sound-heading" className="rounded-3xl border border-line bg-surface-raised p-5">
      <h2 id="shared-sound-heading" className="card-heading">
        Sound
      </h2>
      {item.sound ? (
        <p className="mt-1 text-sm text-fg-muted" data-testid="shared-sound">
          {describeMix(item.sound)}
        </p>
      ) : null}
      <p className="mt-2 text-sm">
        {layers.length > 0
          ? `${plan ? 'Plays with your plan' : 'Plays with a free account'}: ${layers.map(mixLayerLabel).join(', ')}.`
          : `None of its sound plays ${plan ? 'with your plan' : 'with a free account'}; the messages do.`}
      </p>
      {note ? (
        <p className="mt-1 text-sm text-fg-muted" data-testid="shared-sound-left-out">
          {note}
        </p>
      ) : null}
    </section>
  );
}

/** The sound as a signed-in person's plan plays it (until the plan is known, as the top plan would). */
export function MemberSharedSound({ item }: { item: SharedSubliminal }) {
  const plan = usePlan().plan;
  return <SharedSound item={item} plan={plan ?? 'pro'} />;
}
