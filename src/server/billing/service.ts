import { setTimeout as sleep } from 'node:timers/promises';
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { SubscriptionPlan } from '@shared/constants';
import { planCovers } from '@shared/plans';
import { PAID_PLANS, subscriptionLive, type PaidPlan } from '@shared/contract/plain';
import type Stripe from 'stripe';
import {
  BILLING_MESSAGES,
  NO_ADMIN_BILLING,
  SUBSCRIPTION_STATUSES,
  type AdminBilling,
  type BillingState,
  type SubscriptionStatus,
} from '@shared/contract';
import type { StripeConfig } from '../config';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { billingAccounts, duplicateSubscriptions, profiles } from '../db/schema';

// A person's Stripe customer and subscription as the webhooks told them, and the plan they make
// (docs/decisions/013-billing-with-stripe-webhooks-as-the-source.md).

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type BillingAccount = typeof billingAccounts.$inferSelect;

/** Statuses of a subscription that still exists and may be paid: checkout would sell a second one. */
export const isLive = subscriptionLive;

/**
 * Why a Checkout page for `plan` is not to be sold to a person now, as the Checkout request answers it, or
 * undefined: a subscription of theirs is live (change it in the portal), or they hold the plan or one above it
 * (staff granted it). Asked before a page is opened, once it is, and of each open page after a plan change.
 */
export function checkoutRefusal(
  account: BillingAccount | undefined,
  held: SubscriptionPlan,
  plan: PaidPlan,
): ApiError | undefined {
  if (account && isLive(account.subscriptionStatus))
    return new ApiError(409, { detail: BILLING_MESSAGES.alreadySubscribed });
  // Checkout is for a plan above one's own: one staff granted is not sold again, nor one below it.
  if (planCovers(held, plan)) return new ApiError(400, { plan: [BILLING_MESSAGES.planHeld(held, plan)] });
  return undefined;
}

/** The plan an open Checkout page of ours sells (its metadata), or undefined for a page that names none. */
export const planOfPage = (session: Stripe.Checkout.Session): PaidPlan | undefined =>
  PAID_PLANS.find((plan) => plan === session.metadata?.plan);

const knownStatus = (status: string | null | undefined): SubscriptionStatus | null =>
  SUBSCRIPTION_STATUSES.includes(status as SubscriptionStatus) ? (status as SubscriptionStatus) : null;

/**
 * `lock`: the row stays locked until the transaction ends, so two workers applying events of the same
 * person take turns (each sees what the other wrote), as two subscriptions' events may arrive at once.
 */
export async function billingAccountOf(
  db: Db | Tx,
  userId: number,
  { lock = false } = {},
): Promise<BillingAccount | undefined> {
  const query = db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

export async function billingAccountByCustomer(
  db: Db | Tx,
  customerId: string,
  { lock = false } = {},
): Promise<BillingAccount | undefined> {
  const query = db.select().from(billingAccounts).where(eq(billingAccounts.stripeCustomerId, customerId));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** Remembers the person's Stripe customer; answers the one kept if another request stored one first. */
export async function rememberCustomer(db: Db, userId: number, customerId: string): Promise<string> {
  await db.insert(billingAccounts).values({ userId, stripeCustomerId: customerId }).onConflictDoNothing();
  const row = await billingAccountOf(db, userId);
  return row?.stripeCustomerId ?? customerId;
}

/**
 * A person's turn to open a Checkout page: held in their billing row (every worker and server sees it)
 * for `holdMs` from the start and again before each Stripe call in it, so a request that died holding it
 * does not block them for longer, and one whose calls are slow keeps it (a call takes less: STRIPE_CLIENT
 * in stripe-client.ts); another request waits up to `waitMs` for it, asking every `pollMs`.
 */
export const CHECKOUT_TURN = { holdMs: 60_000, waitMs: 5_000, pollMs: 100 } as const;

/** The turn lapsed and another request took it: this one stops where it is, as if it had waited. */
class CheckoutTurnLost extends Error {}

/**
 * Runs `open` in the person's turn to open a Checkout page, with their billing row as it is then (their
 * customer is remembered first), and gives the turn back after; `open` calls `renew` before each Stripe
 * call. Undefined when another request still holds it after `CHECKOUT_TURN.waitMs`, or took it from
 * this one (a hold that lapsed, its worker stalled).
 */
export async function inCheckoutTurn<T>(
  db: Db,
  userId: number,
  open: (account: BillingAccount, renew: () => Promise<void>) => Promise<T>,
): Promise<{ done: T } | undefined> {
  const giveUpAt = Date.now() + CHECKOUT_TURN.waitMs;
  const until = () => new Date(Date.now() + CHECKOUT_TURN.holdMs);
  for (;;) {
    let heldUntil = until();
    const [account] = await db
      .update(billingAccounts)
      .set({ checkoutOpeningUntil: heldUntil })
      .where(
        and(
          eq(billingAccounts.userId, userId),
          or(isNull(billingAccounts.checkoutOpeningUntil), lte(billingAccounts.checkoutOpeningUntil, new Date())),
        ),
      )
      .returning();
    if (account) {
      // Only its own turn, still held: one that lapsed meanwhile may be another request's now.
      const ours = () => and(eq(billingAccounts.userId, userId), eq(billingAccounts.checkoutOpeningUntil, heldUntil));
      const renew = async () => {
        const next = until();
        const [kept] = await db
          .update(billingAccounts)
          .set({ checkoutOpeningUntil: next })
          .where(ours())
          .returning({ userId: billingAccounts.userId });
        if (!kept) throw new CheckoutTurnLost();
        heldUntil = next;
      };
      try {
        return { done: await open(account, renew) };
      } catch (error) {
        if (error instanceof CheckoutTurnLost) return undefined;
        throw error;
      } finally {
        await db.update(billingAccounts).set({ checkoutOpeningUntil: null }).where(ours());
      }
    }
    if (Date.now() >= giveUpAt) return undefined;
    await sleep(CHECKOUT_TURN.pollMs);
  }
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** When the subscription stops, if it is set to: Stripe's cancel_at, or the period's end when cancelled at it. */
const stopsAt = (row: BillingAccount) => row.cancelAt ?? (row.cancelAtPeriodEnd ? row.currentPeriodEnd : null);

/** The billing part of GET /api/user/plan/. */
export function billingState(row: BillingAccount | undefined, configured: boolean): BillingState {
  const status = knownStatus(row?.subscriptionStatus);
  const live = row && isLive(status) && status !== 'unpaid' && status !== 'paused';
  const cancelsAt = live ? stopsAt(row) : null;
  return {
    configured,
    status,
    renews_at: live && !cancelsAt ? iso(row.currentPeriodEnd) : null,
    cancels_at: iso(cancelsAt),
    past_due: status === 'past_due',
    // A customer whose Checkout was left unpaid, or whose subscription's first payment never went through
    // (incomplete_expired), has nothing in the portal: no invoice paid, no card (screens.md#plan--billing).
    can_manage: configured && row !== undefined && row.stripeSubscriptionId !== null && status !== 'incomplete_expired',
  };
}

/** The columns staff see, as a left join gives them (all null with no Stripe record). */
export interface BillingColumns {
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  subscriptionStatus: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean | null;
}

type DuplicateSubscription = typeof duplicateSubscriptions.$inferSelect;

/**
 * The second live subscriptions staff should see, by user id (docs/product/api.md#users): every one still
 * to settle (being cancelled and refunded, or refused by Stripe and left to staff), the one waiting longest
 * first, then the latest settled one, which answers a person asking about a refund.
 */
export async function secondSubscriptionsForStaff(
  db: Db,
  userIds: number[],
): Promise<Map<number, DuplicateSubscription[]>> {
  const shown = new Map<number, DuplicateSubscription[]>();
  if (userIds.length === 0) return shown;
  const rows = await db
    .select()
    .from(duplicateSubscriptions)
    .where(inArray(duplicateSubscriptions.userId, userIds))
    .orderBy(asc(duplicateSubscriptions.foundAt), asc(duplicateSubscriptions.subscriptionId));
  const latestSettled = new Map<number, DuplicateSubscription>();
  for (const row of rows) {
    if (row.settledAt) latestSettled.set(row.userId, row);
    else shown.set(row.userId, [...(shown.get(row.userId) ?? []), row]);
  }
  for (const [userId, row] of latestSettled) shown.set(userId, [...(shown.get(userId) ?? []), row]);
  return shown;
}

/** What staff see of a user's billing. */
export function adminBilling(
  row: BillingColumns | undefined | null,
  seconds: DuplicateSubscription[] = [],
): AdminBilling {
  if (!row?.stripeCustomerId) return NO_ADMIN_BILLING;
  const status = knownStatus(row.subscriptionStatus);
  return {
    status,
    past_due: status === 'past_due',
    current_period_end: iso(row.currentPeriodEnd ?? null),
    cancel_at_period_end: row.cancelAtPeriodEnd ?? false,
    stripe_customer_id: row.stripeCustomerId,
    stripe_subscription_id: row.stripeSubscriptionId ?? null,
    second_subscriptions: seconds.map((second) => ({
      subscription_id: second.subscriptionId,
      settled_at: iso(second.settledAt),
      refunded_amount: second.refundedAmount,
      currency: second.currency,
      failure: second.failure,
    })),
  };
}

/**
 * The plan a subscription gives: its price's while active or trialing, Basic once it has ended or is unpaid.
 * While a payment is past due (Stripe retries the card) the person keeps what they had, never more than
 * the subscription's price now sells: one who moved down in the portal gets the lower plan at once (they
 * chose to pay less), one who moved up gets the higher plan only once it is paid.
 */
export function planFromSubscription(
  status: string,
  priceId: string | null,
  prices: StripeConfig['prices'],
  current: SubscriptionPlan,
): SubscriptionPlan {
  const priced: SubscriptionPlan | null =
    priceId === prices.pro ? 'pro' : priceId === prices.intermediate ? 'intermediate' : null;
  // A price this server does not sell: keep the plan rather than guess.
  if (status === 'active' || status === 'trialing') return priced ?? current;
  if (status === 'past_due') return priced && !planCovers(priced, current) ? priced : current;
  // An incomplete first payment has not given a plan yet, and one that expired unpaid takes none away (a plan
  // staff granted stays).
  if (status === 'incomplete' || status === 'incomplete_expired') return current;
  return 'basic';
}

/** The fields of a subscription object that we keep. */
export function subscriptionFields(subscription: Stripe.Subscription) {
  const item = subscription.items?.data?.[0];
  const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);
  return {
    stripeSubscriptionId: subscription.id,
    subscriptionStatus: subscription.status,
    subscriptionPriceId: item?.price?.id ?? null,
    currentPeriodEnd: seconds(item?.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end ?? false,
    cancelAt: seconds(subscription.cancel_at),
  };
}

export async function setPlan(db: Db | Tx, userId: number, plan: SubscriptionPlan): Promise<void> {
  await db
    .insert(profiles)
    .values({ userId, subscriptionPlan: plan })
    .onConflictDoUpdate({ target: profiles.userId, set: { subscriptionPlan: plan, updatedAt: new Date() } });
}
