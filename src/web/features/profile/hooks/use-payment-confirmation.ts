import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlanState } from '@shared/contract';
import { planQuery } from '@web/lib/plan';
import { announcePlanChanged } from '@web/lib/plan-changes';

/** How often and how long the panel asks for the plan after Stripe Checkout sent the person back. */
export const PAYMENT_CONFIRMATION = { everyMs: 1500, forMs: 30_000 } as const;

/** How often and how long the panel asks for the plan, quietly, after the person came back from Stripe's Customer Portal. */
export const PORTAL_RETURN = { everyMs: 1500, forMs: 20_000 } as const;

/** What the panel shows of a plan state: a change of it is a change made in the portal. */
const shownOf = (state: PlanState) => JSON.stringify([state.plan, state.billing]);

/** A paid plan that a Stripe subscription pays for: what a completed checkout ends in. */
export const isPaidBySubscription = (state: PlanState | undefined) =>
  state !== undefined &&
  state.plan !== 'basic' &&
  (state.billing.status === 'active' || state.billing.status === 'trialing');

export type ConfirmationPhase = 'idle' | 'waiting' | 'late' | 'confirmed';

/**
 * After Checkout (`?billing=success`) the plan changes only when Stripe's webhook reaches the server,
 * a moment later: the plan is asked for every 1.5 s for up to 30 s ('waiting'), then left to the
 * person ('late', with a way to ask again). Once confirmed, every query is reloaded, here and in the
 * person's other tabs, so what the plan unlocks opens everywhere.
 */
export function usePaymentConfirmation(
  returnedFrom: 'checkout' | 'portal' | null,
  onConfirmed: (state: PlanState) => void,
  onPortalSettled: () => void,
) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<'idle' | 'waiting' | 'late'>(returnedFrom === 'checkout' ? 'waiting' : 'idle');
  // Back from the portal: what it changed reaches the server by Stripe's webhook, often a moment after the
  // person came back. The plan is asked again until it differs from the first answer, or for PORTAL_RETURN.forMs.
  const [watchingPortal, setWatchingPortal] = useState(returnedFrom === 'portal');
  const query = useQuery({
    ...planQuery(),
    refetchInterval: (current) =>
      asking === 'waiting' && !isPaidBySubscription(current.state.data)
        ? PAYMENT_CONFIRMATION.everyMs
        : watchingPortal
          ? PORTAL_RETURN.everyMs
          : false,
  });
  const confirmed = asking !== 'idle' && isPaidBySubscription(query.data);

  const firstShown = useRef<string | null>(null);
  const { data: current } = query;
  useEffect(() => {
    if (!watchingPortal || !current) return;
    firstShown.current ??= shownOf(current);
    if (shownOf(current) === firstShown.current) return;
    // Changed in the portal: every screen's data is read again, here and in the person's other tabs.
    setWatchingPortal(false);
    void queryClient.invalidateQueries();
    announcePlanChanged();
    onPortalSettled();
  }, [watchingPortal, current, queryClient, onPortalSettled]);
  useEffect(() => {
    if (!watchingPortal) return;
    const timer = setTimeout(() => {
      setWatchingPortal(false);
      onPortalSettled();
    }, PORTAL_RETURN.forMs);
    return () => clearTimeout(timer);
  }, [watchingPortal, onPortalSettled]);

  useEffect(() => {
    if (asking !== 'waiting' || confirmed) return;
    const timer = setTimeout(() => setAsking('late'), PAYMENT_CONFIRMATION.forMs);
    return () => clearTimeout(timer);
  }, [asking, confirmed]);

  const announced = useRef(false);
  const { data } = query;
  useEffect(() => {
    if (!confirmed || announced.current) return;
    announced.current = true;
    void queryClient.invalidateQueries();
    announcePlanChanged();
    onConfirmed(data!);
  }, [confirmed, data, queryClient, onConfirmed]);

  const phase: ConfirmationPhase = confirmed ? 'confirmed' : asking;
  return { query, phase, checkAgain: () => void query.refetch() };
}
