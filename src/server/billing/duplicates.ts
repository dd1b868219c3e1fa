import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Db } from '../db/client';
import { duplicateSubscriptions } from '../db/schema';
import { ApiError } from '../http/errors';
import { mailJob } from '../jobs/mail-kinds';
import type { JobQueue } from '../jobs/runner';
import { formatMoney } from '@shared/numbers';
import type { Tx } from './service';
import { asStripeError } from './stripe-client';

// A person's second live subscription (two Checkouts paid at the same moment, each before the other's
// events; docs/product/plans.md, decision 013). The webhook follows one and records the other in the
// transaction of the event; once that is committed, the other is cancelled at Stripe and what it charged
// refunded in full (both were just bought: none of it was used), and the person is mailed.
//
// Stripe resends events and two workers may apply both subscriptions' events at once, so every step may
// run twice: a subscription Stripe no longer has live is not cancelled again, the refund carries an
// idempotency key made of the subscription id (Stripe answers a second request with the first refund),
// a payment already refunded counts as refunded, and only the worker that marks the record settled
// mails the person and logs it. Stripe out of reach: the webhook answers 503 and Stripe sends the event
// again (its resend finds the record still to do). Stripe refusing for good: the refusal is kept on the
// record and logged for staff, and the webhook answers 200 (resending would be refused the same way).

/** The 503 detail while a second subscription is still to be cancelled and refunded (Stripe resends the event). */
export const DUPLICATE_NOT_SETTLED =
  'A second subscription could not be cancelled and refunded at Stripe yet; send the event again.';

/** Statuses of a subscription that can bill no more: nothing to cancel. */
export const ENDED: readonly string[] = ['canceled', 'incomplete_expired'];

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

export async function recordDuplicateSubscription(
  tx: Tx,
  record: { subscriptionId: string; userId: number; keptSubscriptionId: string },
): Promise<void> {
  await tx.insert(duplicateSubscriptions).values(record).onConflictDoNothing();
}

export async function isDuplicateSubscription(tx: Tx, subscriptionId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: duplicateSubscriptions.subscriptionId })
    .from(duplicateSubscriptions)
    .where(eq(duplicateSubscriptions.subscriptionId, subscriptionId));
  return row !== undefined;
}

type Duplicate = typeof duplicateSubscriptions.$inferSelect;

export interface Refunded {
  refundId: string | null;
  refundedAmount: number;
  currency: string | null;
}

/** A subscription to cancel at once with its payment refunded in full, and how Stripe is to record why. */
export interface Reversal {
  subscriptionId: string;
  userId: number;
  /** The cancellation's comment, kept at Stripe. */
  comment: string;
  reason: Stripe.RefundCreateParams.Reason;
  metadata: Record<string, string>;
  /** Stripe answers a second refund request with this key with the first refund. */
  idempotencyKey: string;
}

/** A second subscription's reversal: both were just bought, none of it was used. */
export const secondSubscriptionReversal = (duplicate: Duplicate): Reversal => ({
  subscriptionId: duplicate.subscriptionId,
  userId: duplicate.userId,
  comment: `A second subscription of the same person (two Checkouts paid at once); ${duplicate.keptSubscriptionId} is kept. Refunded in full.`,
  reason: 'duplicate',
  metadata: {
    user_id: String(duplicate.userId),
    subscription: duplicate.subscriptionId,
    kept_subscription: duplicate.keptSubscriptionId,
  },
  idempotencyKey: `innerwave-duplicate-refund-${duplicate.subscriptionId}`,
});

/** Cancels the subscription at Stripe unless it has ended, then refunds its latest invoice's payment in full. */
export async function cancelAndRefund(stripe: Stripe, reversal: Reversal): Promise<Refunded> {
  const id = reversal.subscriptionId;
  const subscription = await stripe.subscriptions.retrieve(id);
  if (!ENDED.includes(subscription.status)) {
    try {
      await stripe.subscriptions.cancel(id, { cancellation_details: { comment: reversal.comment } });
    } catch (error) {
      // Cancelled meanwhile (another worker): Stripe answers that it has no such live subscription.
      if ((await asStripeError(error))?.code !== 'resource_missing') throw error;
    }
  }
  const nothing: Refunded = { refundId: null, refundedAmount: 0, currency: null };
  const invoiceId = idOf(subscription.latest_invoice);
  if (!invoiceId) return nothing;
  const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });
  const payment = invoice.payments?.data.find((each) => each.status === 'paid' && (each.amount_paid ?? 0) > 0);
  if (!payment) return nothing;
  const paymentIntent = idOf(payment.payment.payment_intent);
  const charge = idOf(payment.payment.charge);
  if (!paymentIntent && !charge) throw new Error(`its payment ${payment.id} is neither a payment intent nor a charge`);
  try {
    const refund = await stripe.refunds.create(
      {
        ...(paymentIntent ? { payment_intent: paymentIntent } : { charge: charge! }),
        reason: reversal.reason,
        metadata: reversal.metadata,
      },
      { idempotencyKey: reversal.idempotencyKey },
    );
    return { refundId: refund.id, refundedAmount: refund.amount, currency: refund.currency };
  } catch (error) {
    // Refunded already (after Stripe's 24 hours of idempotency, or by staff): it is refunded all the same.
    if ((await asStripeError(error))?.code !== 'charge_already_refunded') throw error;
    return { refundId: null, refundedAmount: payment.amount_paid ?? 0, currency: payment.currency };
  }
}

/**
 * Stripe's errors (the SDK's classes) whose answer will not change if asked again: a request it refuses,
 * as opposed to not reaching it, its own failure, its rate limit or a request still in flight.
 */
export const REFUSALS: readonly string[] = ['StripeInvalidRequestError', 'StripeCardError', 'StripePermissionError'];

export interface SettleDeps {
  db: Db;
  stripe: Stripe;
  jobs: Pick<JobQueue, 'enqueue' | 'wake'>;
  log: FastifyBaseLogger;
}

/**
 * Cancels and refunds the person's second subscriptions still to do. Stripe out of reach: throws a 503
 * (the webhook's answer, so Stripe sends the event again).
 */
export async function settleDuplicateSubscriptions({ db, stripe, jobs, log }: SettleDeps, userId: number) {
  const pending = await db
    .select()
    .from(duplicateSubscriptions)
    .where(
      and(
        eq(duplicateSubscriptions.userId, userId),
        isNull(duplicateSubscriptions.settledAt),
        isNull(duplicateSubscriptions.failure),
      ),
    );
  for (const duplicate of pending) {
    const which = `a second live subscription (${duplicate.subscriptionId}) of the same person, beside ${duplicate.keptSubscriptionId} which is followed`;
    const still = and(
      eq(duplicateSubscriptions.subscriptionId, duplicate.subscriptionId),
      isNull(duplicateSubscriptions.settledAt),
      isNull(duplicateSubscriptions.failure),
    );
    let refunded: Refunded;
    try {
      refunded = await cancelAndRefund(stripe, secondSubscriptionReversal(duplicate));
    } catch (error) {
      const stripeError = await asStripeError(error);
      const facts = {
        err: error,
        userId,
        subscription: duplicate.subscriptionId,
        stripeType: stripeError?.type,
        stripeCode: stripeError?.code,
        requestId: stripeError?.requestId,
      };
      if (stripeError && !REFUSALS.includes(stripeError.type)) {
        log.error(
          facts,
          `billing: ${which}, still bills: Stripe could not be reached to cancel and refund it; Stripe will send the event again`,
        );
        throw new ApiError(503, { detail: DUPLICATE_NOT_SETTLED });
      }
      const reason = error instanceof Error ? error.message : String(error);
      await db.update(duplicateSubscriptions).set({ failure: reason }).where(still);
      log.warn(
        facts,
        `billing: ${which}, still bills: Stripe refused to cancel or refund it (${reason}): cancel and refund it at Stripe`,
      );
      continue;
    }
    const settled = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(duplicateSubscriptions)
        .set({ settledAt: new Date(), ...refunded })
        .where(still)
        .returning({ id: duplicateSubscriptions.subscriptionId });
      if (row && refunded.refundedAmount > 0)
        await jobs.enqueue(
          tx,
          mailJob({ kind: 'mail.duplicate-refunded', payload: { subscriptionId: duplicate.subscriptionId } }),
        );
      return row !== undefined;
    });
    // Another worker settled it meanwhile: it logged it and mailed the person.
    if (!settled) continue;
    jobs.wake();
    const done =
      refunded.refundedAmount > 0 && refunded.currency
        ? `cancelled at Stripe and its payment of ${formatMoney(refunded.refundedAmount, refunded.currency)} refunded in full (${refunded.refundId ?? 'refunded before'}); the person is told by e-mail`
        : 'cancelled at Stripe; it had charged nothing';
    log.warn(
      { userId, subscription: duplicate.subscriptionId, refund: refunded.refundId },
      `billing: ${which}: ${done}`,
    );
  }
}
