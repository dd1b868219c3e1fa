import { useEffect } from 'react';
import { CreditCard } from 'lucide-react';
import type { PaidPlan } from '@shared/contract/plain';
import { useSearchParams } from '@web/lib/link';
import { chosenPlan, paidPlanOf } from '@web/lib/chosen-plan';
import { PRICING_PLANS } from '@web/lib/constants';

/**
 * The paid plan picked on the pricing table: from the URL (`?plan=pro`), else the one waiting on the
 * device since sign-up (the activation link opens in a tab of its own). A plan in the URL is kept
 * on the device for the rest of the way.
 */
export function useChosenPlan(): PaidPlan | null {
  const fromUrl = paidPlanOf(useSearchParams().get('plan'));
  useEffect(() => {
    if (fromUrl) chosenPlan.remember(fromUrl);
  }, [fromUrl]);
  return fromUrl ?? chosenPlan.read();
}

/** Tells the person which plan they picked and what comes next on the way to paying for it. */
export function ChosenPlanNote({ plan, next }: { plan: PaidPlan; next: string }) {
  const { name, pricePerMonth } = PRICING_PLANS.find((p) => p.plan === plan)!;
  return (
    <p className="mb-5 flex items-start gap-3 rounded-2xl border border-accent/40 bg-accent/10 p-4 text-sm">
      <CreditCard aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-link" />
      <span>
        You chose <strong>{name}</strong> (${pricePerMonth} a month). {next}
      </span>
    </p>
  );
}
