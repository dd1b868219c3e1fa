import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlanState } from '@shared/contract';
import { announcePlanChanged, planQuery } from '@web/lib/plan';

/** How often and how long the panel asks for the plan after Stripe Checkout sent the person back. */
export const PAYMENT_CONFIRMATION = { everyMs: 1500, forMs: 30_000 } as const;

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
export function usePaymentConfirmation(returnedFromCheckout: boolean, onConfirmed: (state: PlanState) => void) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<'idle' | 'waiting' | 'late'>(returnedFromCheckout ? 'waiting' : 'idle');
  const query = useQuery({
    ...planQuery(),
    refetchInterval: (current) =>
      asking === 'waiting' && !isPaidBySubscription(current.state.data) ? PAYMENT_CONFIRMATION.everyMs : false,
  });
  const confirmed = asking !== 'idle' && isPaidBySubscription(query.data);

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
