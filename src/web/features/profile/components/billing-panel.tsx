import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { AlertTriangle, Check, CreditCard, Info, LoaderCircle } from 'lucide-react';
import { toast } from 'sonner';
import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from '@shared/constants';
import type { PaidPlan, PlanState } from '@shared/contract';
import { PAID_PLANS, subscriptionEnded } from '@shared/contract/plain';
import { BILLING_MESSAGES } from '@shared/contract/portal-plain';
import { Button } from '@web/components/ui/button';
import { QueryState } from '@web/components/ui/query-state';
import { ApiError } from '@web/lib/api-client';
import { describeError, failureOver, toastFailure } from '@web/lib/change';
import { paidPlanOf } from '@web/lib/chosen-plan';
import { askForPlanPath } from '@web/lib/paths';
import { CONTACT, PRICING_PLANS } from '@web/lib/constants';
import { clsx } from 'clsx';
import { openBillingPortal, startCheckout } from '../api/billing';
import { usePaymentConfirmation } from '../hooks/use-payment-confirmation';
import { leaveFor } from '../lib/leave-for';
import { BILLING_TEXTS } from '../messages';

const planOf = (plan: SubscriptionPlan) => PRICING_PLANS.find((p) => p.plan === plan) ?? PRICING_PLANS[0]!;
const rank = (plan: SubscriptionPlan) => SUBSCRIPTION_PLANS.indexOf(plan);
const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });
/** A button's way to Stripe (a plan's checkout, or the portal), naming its failure toast (decision 150). */
const leavingFor = (target: PaidPlan | 'portal') => `billing ${target}`;

/** A subscription Stripe still bills (or retries): changed in the Customer Portal, never bought twice. */
const hasLiveSubscription = (state: PlanState) =>
  state.billing.status !== null && !subscriptionEnded(state.billing.status);

/**
 * The profile's Plan & billing panel (docs/product/screens.md#plan--billing): the plan and how it is
 * paid, Upgrade through Stripe Checkout, Change / Cancel / card through the Customer Portal, and the
 * waiting for Stripe's confirmation after Checkout. Its URL parameters: `?billing=success|cancelled`
 * (back from Checkout), `?billing=portal` (back from the Customer Portal), `?checkout=<plan>` (go straight to Checkout, after the pricing table's sign-up),
 * `?upgrade=<plan>` (that plan picked, from a lock).
 */
export function BillingPanel() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { hash } = useLocation();
  const returned = searchParams.get('billing');
  const checkoutPlan = paidPlanOf(searchParams.get('checkout'));
  const [picked, setPicked] = useState<PaidPlan | null>(checkoutPlan ?? paidPlanOf(searchParams.get('upgrade')));
  const [leaving, setLeaving] = useState<PaidPlan | 'portal' | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const section = useRef<HTMLElement>(null);

  const dropParams = useCallback(
    (...names: string[]) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const name of names) next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  const onConfirmed = useCallback(
    (state: PlanState) => {
      toast.success(BILLING_TEXTS.confirmed(planOf(state.plan).name));
      dropParams('billing');
    },
    [dropParams],
  );
  const onPortalSettled = useCallback(() => dropParams('billing'), [dropParams]);
  const { query, phase, checkAgain } = usePaymentConfirmation(
    returned === 'success' ? 'checkout' : returned === 'portal' ? 'portal' : null,
    onConfirmed,
    onPortalSettled,
  );
  const state = query.data;
  const configured = state?.billing.configured === true && !unavailable;

  const { refetch } = query;
  const failed = useCallback(
    (error: unknown, target: PaidPlan | 'portal') => {
      setLeaving(null);
      if (error instanceof ApiError && error.status === 503) setUnavailable(true);
      // Refused for a plan held already (staff granted one meanwhile) or a subscription begun in another
      // tab: the panel shows the plan as it is now, with the choices it leaves. The button pressed may go with
      // its card: the keyboard then goes to what the panel offers now, the portal's button or an Upgrade, rather
      // than to the page's top (decision 112).
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
        const pressed = document.activeElement;
        const hadKeyboard = pressed instanceof HTMLElement && section.current?.contains(pressed) === true;
        void refetch().then(() =>
          requestAnimationFrame(() => {
            if (!hadKeyboard || pressed.isConnected) return;
            if (document.activeElement && document.activeElement !== document.body) return;
            section.current?.querySelector<HTMLElement>('button')?.focus();
          }),
        );
      }
      // Each button's failure is its own, taken away once that button works (decision 150).
      toastFailure(error, describeError(error), leavingFor(target));
    },
    [refetch],
  );
  // One press leaves; while its call runs the buttons keep the keyboard (aria-disabled) and a press does nothing
  // (decision 112).
  const leave = (target: PaidPlan | 'portal') => {
    if (leaving !== null) return;
    setLeaving(target);
    (target === 'portal' ? openBillingPortal() : startCheckout(target)).then(
      ({ url }) => {
        failureOver(leavingFor(target));
        leaveFor(url);
      },
      (error: unknown) => failed(error, target),
    );
  };

  // Back from Stripe's page, the browser may show this page as it was left (its back-forward cache), still
  // "Taking you to…" with every button waiting: nothing is being left for any more (docs/product/screens.md#plan--billing).
  useEffect(() => {
    const shownAgain = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(null);
    };
    window.addEventListener('pageshow', shownAgain);
    return () => window.removeEventListener('pageshow', shownAgain);
  }, []);

  // Arrived to be scrolled to: from a lock (#billing), back from Stripe, or on the way to Checkout.
  useEffect(() => {
    if (hash === '#billing' || returned || checkoutPlan) section.current?.scrollIntoView({ block: 'start' });
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // From a lock, the plan picked there is brought whole into view once its card shows, above the mini-player: on a
  // phone it is the second card, under the first and cut by the screen's end or the player. A frame later, after
  // the router's own scroll to #billing for a page still loading (router-navigation.tsx).
  const pickedCard = useRef<HTMLLIElement>(null);
  const toPickedCard = useRef(hash === '#billing' && picked !== null);
  const cardShown = state !== undefined;
  useEffect(() => {
    if (!cardShown || !toPickedCard.current) return;
    toPickedCard.current = false;
    const frame = requestAnimationFrame(() => pickedCard.current?.scrollIntoView({ block: 'nearest' }));
    return () => cancelAnimationFrame(frame);
  }, [cardShown]);

  useEffect(() => {
    if (returned !== 'cancelled') return;
    toast.info(BILLING_TEXTS.checkoutLeft);
    dropParams('billing');
  }, [returned, dropParams]);

  // After sign-up with a plan picked on the pricing table: on to Checkout, when it can be paid there.
  // The parameter goes before the page is left, so coming Back from Stripe does not start it again.
  const autoCheckout =
    checkoutPlan !== null &&
    state !== undefined &&
    state.billing.configured &&
    !hasLiveSubscription(state) &&
    rank(state.plan) < rank(checkoutPlan);
  const started = useRef(false);
  useEffect(() => {
    if (!checkoutPlan || !state || started.current) return;
    started.current = true;
    if (autoCheckout) {
      startCheckout(checkoutPlan).then(
        ({ url }) => {
          setLeaving(checkoutPlan);
          dropParams('checkout');
          failureOver(leavingFor(checkoutPlan));
          leaveFor(url);
        },
        (error: unknown) => {
          dropParams('checkout');
          failed(error, checkoutPlan);
        },
      );
      return;
    }
    dropParams('checkout');
    if (rank(state.plan) >= rank(checkoutPlan)) toast.info(BILLING_TEXTS.alreadyOn(planOf(state.plan).name));
    else if (state.billing.configured && hasLiveSubscription(state)) toast.info(BILLING_MESSAGES.alreadySubscribed);
  }, [autoCheckout, checkoutPlan, state, dropParams, failed]);
  const goingTo = leaving === 'portal' ? null : (leaving ?? (autoCheckout ? checkoutPlan : null));

  return (
    <section
      id="billing"
      ref={section}
      aria-labelledby="billing-heading"
      className="scroll-mt-24 rounded-3xl border border-line bg-surface-raised p-6"
    >
      <h2 id="billing-heading" className="card-heading">
        Plan &amp; billing
      </h2>
      <div className="mt-4">
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={false}
          emptyText=""
          onRetry={() => void query.refetch()}
          what="your plan"
        >
          {state ? (
            <div className="flex flex-col gap-5">
              <CurrentPlan state={state} />
              {phase === 'waiting' ? (
                <Notice tone="progress" role="status">
                  {BILLING_TEXTS.confirming}
                </Notice>
              ) : null}
              {phase === 'late' ? (
                <Notice tone="info" role="status">
                  <span>{BILLING_TEXTS.late(CONTACT.supportEmail)}</span>
                  <Button variant="secondary" size="sm" className="mt-3" onClick={checkAgain}>
                    Check again
                  </Button>
                </Notice>
              ) : null}
              {goingTo ? (
                <Notice tone="progress" role="status">
                  {BILLING_TEXTS.toCheckout(planOf(goingTo).name)}
                </Notice>
              ) : null}
              {state.billing.past_due ? (
                <Notice tone="danger" role="alert">
                  {BILLING_TEXTS.pastDue(planOf(state.plan).name)}
                </Notice>
              ) : null}
              {/* A plan picked above one's subscription (a lock's Upgrade): it is changed in the portal, not bought.
                  While a payment is past due, its warning leads there first. */}
              {configured &&
              state.billing.can_manage &&
              hasLiveSubscription(state) &&
              !state.billing.past_due &&
              picked &&
              rank(picked) > rank(state.plan) ? (
                <Notice tone="info" role="note">
                  {BILLING_TEXTS.changeInPortal(planOf(picked).name, portalLabel(state))}
                </Notice>
              ) : null}
              <Actions state={state} configured={configured} leaving={leaving} onPortal={() => leave('portal')} />
              {/* While a payment is being confirmed, nothing offers to pay again. */}
              {phase === 'waiting' || phase === 'late' ? null : (
                <PlanChoices
                  state={state}
                  configured={configured}
                  picked={picked}
                  pickedCard={pickedCard}
                  onPick={setPicked}
                  leaving={leaving}
                  onCheckout={leave}
                />
              )}
            </div>
          ) : null}
        </QueryState>
      </div>
    </section>
  );
}

function CurrentPlan({ state }: { state: PlanState }) {
  const plan = planOf(state.plan);
  const { billing } = state;
  let detail: string | null;
  // A failed payment is told in its own warning below.
  if (billing.past_due) detail = null;
  else if (billing.status === 'incomplete') detail = BILLING_TEXTS.incomplete;
  else if (billing.cancels_at) detail = BILLING_TEXTS.cancelsAt(plan.name, formatDate(billing.cancels_at));
  else if (billing.renews_at) detail = BILLING_TEXTS.renewsAt(formatDate(billing.renews_at), plan.pricePerMonth);
  else if (state.plan === 'basic') detail = BILLING_TEXTS.free;
  // A paid plan with no subscription billing it (none, or one that has ended) was set by staff.
  else if (billing.status === null || subscriptionEnded(billing.status)) detail = BILLING_TEXTS.setByTeam;
  else detail = BILLING_TEXTS.status(billing.status);
  return (
    <div className="flex flex-col gap-2">
      <p className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-fg-muted">Current plan</span>
        <span
          className="inline-flex rounded-full bg-accent/15 px-3 py-1 text-sm font-semibold"
          data-testid="billing-plan"
        >
          {plan.name}
        </span>
        <StatusChip state={state} />
      </p>
      {detail ? <p className="text-sm text-fg-muted">{detail}</p> : null}
    </div>
  );
}

function StatusChip({ state }: { state: PlanState }) {
  const { billing } = state;
  let label: string | null = null;
  let danger = false;
  if (billing.past_due) [label, danger] = ['Payment failed', true];
  else if (billing.cancels_at) label = 'Cancelled';
  else if (billing.status === 'active' || billing.status === 'trialing') label = 'Active';
  if (!label) return null;
  return (
    <span
      className={clsx(
        'inline-flex rounded-full px-3 py-1 text-xs font-semibold',
        danger ? 'bg-danger/15 text-danger' : 'bg-fg/10',
      )}
    >
      {label}
    </span>
  );
}

/** The Customer Portal's button, named for what the person most likely wants there. */
const portalLabel = ({ billing, ...state }: PlanState) =>
  billing.past_due
    ? 'Update payment details'
    : billing.cancels_at
      ? 'Renew or change plan'
      : hasLiveSubscription({ billing, ...state })
        ? 'Change or cancel plan'
        : 'Invoices and payment details';

/** What the portal holds for the person, said beside its button as the button names it. */
const portalLine = (state: PlanState) =>
  !hasLiveSubscription(state)
    ? BILLING_TEXTS.portalPast
    : state.billing.cancels_at && !state.billing.past_due
      ? BILLING_TEXTS.portalCancelled
      : BILLING_TEXTS.portal;

/** The Customer Portal's way in, named for what the person most likely wants there. */
function Actions({
  state,
  configured,
  leaving,
  onPortal,
}: {
  state: PlanState;
  configured: boolean;
  leaving: PaidPlan | 'portal' | null;
  onPortal(): void;
}) {
  if (!configured || !state.billing.can_manage) return null;
  const { billing } = state;
  const label = portalLabel(state);
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-fg-muted">{portalLine(state)}</p>
      <Button
        variant={billing.past_due ? 'primary' : 'secondary'}
        size="sm"
        // Its text's width on a phone too, as the account's buttons under it, not the panel's.
        className="shrink-0 self-start sm:self-auto"
        busy={leaving !== null}
        onClick={onPortal}
      >
        {leaving === 'portal' ? (
          <LoaderCircle aria-hidden className="h-4 w-4 animate-spin" />
        ) : (
          <CreditCard aria-hidden className="h-4 w-4" />
        )}
        {label}
      </Button>
    </div>
  );
}

/** The paid plans above the current one: Upgrade through Checkout, or how to get them without payments. */
function PlanChoices({
  state,
  configured,
  picked,
  pickedCard,
  onPick,
  leaving,
  onCheckout,
}: {
  state: PlanState;
  configured: boolean;
  picked: PaidPlan | null;
  pickedCard: RefObject<HTMLLIElement | null>;
  onPick(plan: PaidPlan): void;
  leaving: PaidPlan | 'portal' | null;
  onCheckout(plan: PaidPlan): void;
}) {
  // A live subscription changes in the portal; Checkout would start a second one.
  if (configured && hasLiveSubscription(state)) return null;
  const higher = PAID_PLANS.filter((plan) => rank(plan) > rank(state.plan));
  if (higher.length === 0) return null;
  return (
    <div className="flex flex-col gap-3">
      {configured ? null : (
        <Notice tone="info" role="note">
          {BILLING_MESSAGES.notConfigured} {BILLING_TEXTS.askTeam(CONTACT.supportEmail)}
        </Notice>
      )}
      <ul className="grid gap-3 sm:grid-cols-2">
        {higher.map((plan) => {
          const info = planOf(plan);
          const chosen = picked === plan;
          return (
            <li
              key={plan}
              ref={chosen ? pickedCard : undefined}
              className={clsx(
                'flex scroll-mt-24 scroll-mb-[calc(var(--portal-bottom-chrome,0px)+1rem)] flex-col gap-3 rounded-2xl border p-4',
                chosen ? 'border-accent bg-accent/5' : 'border-line',
              )}
            >
              <div className="flex items-baseline justify-between gap-2">
                <h3 className="font-semibold">
                  {info.name}
                  {chosen ? (
                    <span className="ml-2 rounded-full bg-accent/15 px-2 py-0.5 text-xs font-medium">Your choice</span>
                  ) : null}
                </h3>
                <p className="shrink-0 text-sm">
                  <span className="font-semibold">${info.pricePerMonth}</span>
                  <span className="text-fg-muted">/month</span>
                </p>
              </div>
              <ul className="flex flex-1 flex-col gap-1 text-sm text-fg-muted">
                {info.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <Check aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-link" />
                    {feature}
                  </li>
                ))}
              </ul>
              {configured ? (
                <Button
                  variant={chosen || (picked === null && plan === higher.at(-1)) ? 'primary' : 'secondary'}
                  size="sm"
                  busy={leaving !== null}
                  onClick={() => {
                    onPick(plan);
                    onCheckout(plan);
                  }}
                >
                  {leaving === plan ? <LoaderCircle aria-hidden className="h-4 w-4 animate-spin" /> : null}
                  Upgrade to {info.name}
                </Button>
              ) : (
                // The support form, not a mailto: link, which does nothing without a mail program set up.
                <Button asChild variant={chosen ? 'primary' : 'secondary'} size="sm">
                  <Link to={askForPlanPath(plan)} onClick={() => onPick(plan)}>
                    Ask for {info.name}
                  </Link>
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {configured ? <p className="text-xs text-fg-muted">{BILLING_TEXTS.checkoutTerms}</p> : null}
    </div>
  );
}

function Notice({
  tone,
  role,
  children,
}: {
  tone: 'info' | 'danger' | 'progress';
  role: 'status' | 'alert' | 'note';
  children: ReactNode;
}) {
  const Icon = tone === 'danger' ? AlertTriangle : tone === 'progress' ? LoaderCircle : Info;
  return (
    <div
      role={role}
      className={clsx(
        'flex items-start gap-3 rounded-2xl border p-4 text-sm',
        tone === 'danger' ? 'border-danger/60 bg-danger/10' : 'border-line bg-accent/10',
      )}
    >
      <Icon
        aria-hidden
        className={clsx(
          'mt-0.5 h-5 w-5 shrink-0',
          tone === 'danger' ? 'text-danger' : 'text-link',
          tone === 'progress' && 'animate-spin motion-reduce:animate-none',
        )}
      />
      <div className="flex flex-col items-start">{children}</div>
    </div>
  );
}
