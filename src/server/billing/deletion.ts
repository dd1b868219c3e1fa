import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { BILLING_MESSAGES } from '@shared/contract';
import type { AppContext } from '../context';
import { duplicateSubscriptions } from '../db/schema';
import { ApiError } from '../http/errors';
import { cancelAndRefund, ENDED, REFUSALS } from './duplicates';
import { billingAccountOf, isLive } from './service';
import { asStripeError, createStripeClient } from './stripe-client';

// Before an account is deleted, nothing of it may go on billing at Stripe (docs/product/accounts.md#deleting-the-account).

/**
 * Cancels at Stripe, at once, every subscription of the person that could still bill: the one followed,
 * every second one recorded and not yet settled (its refund too: both were just bought), and any other
 * Stripe lists for the customer (one whose events have not reached us yet); an open Checkout page is
 * expired, so it cannot start one after the account is gone. Stripe out of reach or refusing a
 * cancellation: a 503 and nothing is deleted. A refund Stripe refuses is logged for staff.
 */
export async function cancelSubscriptionsBeforeDeletion(
  ctx: AppContext,
  userId: number,
  log: FastifyBaseLogger,
): Promise<void> {
  const { db } = ctx.database;
  if (!ctx.config.stripe) return;
  const account = await billingAccountOf(db, userId);
  const seconds = await db
    .select()
    .from(duplicateSubscriptions)
    .where(and(eq(duplicateSubscriptions.userId, userId), isNull(duplicateSubscriptions.settledAt)));
  if (!account && seconds.length === 0) return;
  const stripe = await createStripeClient(ctx.config.stripe);
  const facts = (error: unknown, stripeError: Stripe.errors.StripeError | undefined) => ({
    err: error,
    userId,
    stripeType: stripeError?.type,
    stripeCode: stripeError?.code,
    requestId: stripeError?.requestId,
  });
  try {
    for (const second of seconds) {
      try {
        const refunded = await cancelAndRefund(stripe, second);
        log.warn(
          { userId, subscription: second.subscriptionId, refund: refunded.refundId },
          `billing: a second subscription (${second.subscriptionId}) cancelled at Stripe before its account was deleted${refunded.refundedAmount > 0 ? `, its payment refunded (${refunded.refundId ?? 'refunded before'})` : ''}`,
        );
      } catch (error) {
        const stripeError = await asStripeError(error);
        if (!stripeError || !REFUSALS.includes(stripeError.type)) throw error;
        // Refused: cancelled below with the others if Stripe still has it live; the refund is left to staff.
        log.error(
          facts(error, stripeError),
          `billing: a second subscription (${second.subscriptionId}) of an account being deleted: Stripe refused to cancel or refund it (${stripeError.message}): check it at Stripe and refund it there`,
        );
      }
    }
    const live = new Set<string>();
    if (account?.stripeSubscriptionId && isLive(account.subscriptionStatus)) live.add(account.stripeSubscriptionId);
    for (const second of seconds) live.add(second.subscriptionId);
    if (account?.stripeCustomerId) {
      const customer = account.stripeCustomerId;
      for await (const subscription of stripe.subscriptions.list({ customer, limit: 100 }))
        if (!ENDED.includes(subscription.status)) live.add(subscription.id);
      for await (const session of stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 }))
        await stripe.checkout.sessions.expire(session.id);
    }
    for (const id of live) {
      try {
        await stripe.subscriptions.cancel(id);
      } catch (error) {
        // Already ended at Stripe (or never known there): nothing left to bill.
        if ((await asStripeError(error))?.code !== 'resource_missing') throw error;
      }
    }
  } catch (error) {
    log.error(
      facts(error, await asStripeError(error)),
      'billing: a subscription could not be cancelled at Stripe before an account was deleted; nothing was deleted',
    );
    throw new ApiError(503, { detail: BILLING_MESSAGES.cancelBeforeDeleteFailed });
  }
}
