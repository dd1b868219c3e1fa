import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { BILLING_MESSAGES } from '@shared/contract';
import type { AppContext } from '../context';
import { duplicateSubscriptions } from '../db/schema';
import { ApiError } from '../http/errors';
import { cancelAndRefund, ENDED, REFUSALS, secondSubscriptionReversal } from './duplicates';
import { billingAccountOf, isLive } from './service';
import { asStripeError, createStripeClient } from './stripe-client';

// Before an account is deleted, nothing of it may go on billing at Stripe (docs/product/accounts.md#deleting-the-account).

/**
 * Cancels at Stripe, at once, every subscription of the person that could still bill: the one followed,
 * every second one recorded and not yet settled (its refund too: both were just bought), and any other
 * Stripe lists for the customer (one whose events have not reached us yet); an open Checkout page is
 * expired first, so none is paid between the listing and the deletion. Stripe out of reach or refusing
 * a cancellation: a 503 and nothing is deleted. A refund Stripe refuses is logged for staff. Returns the
 * person's Stripe customer, for `cancelWhatStartedDuringDeletion` once the account is gone.
 */
export async function cancelSubscriptionsBeforeDeletion(
  ctx: AppContext,
  userId: number,
  log: FastifyBaseLogger,
): Promise<string | undefined> {
  const { db } = ctx.database;
  if (!ctx.config.stripe) return undefined;
  const account = await billingAccountOf(db, userId);
  const seconds = await db
    .select()
    .from(duplicateSubscriptions)
    .where(and(eq(duplicateSubscriptions.userId, userId), isNull(duplicateSubscriptions.settledAt)));
  if (!account && seconds.length === 0) return undefined;
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
        const refunded = await cancelAndRefund(stripe, secondSubscriptionReversal(second));
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
      await expireOpenCheckouts(stripe, customer);
      for await (const subscription of stripe.subscriptions.list({ customer, limit: 100 }))
        if (!ENDED.includes(subscription.status)) live.add(subscription.id);
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
  return account?.stripeCustomerId;
}

/**
 * Expires the open Checkout pages of the customer at Stripe (those `toExpire` picks; by default every one), so
 * none takes a payment; answers how many.
 */
export async function expireOpenCheckouts(
  stripe: Stripe,
  customer: string,
  toExpire: (session: Stripe.Checkout.Session) => boolean = () => true,
): Promise<number> {
  let expired = 0;
  for await (const session of stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 }))
    if (toExpire(session) && (await expireCheckout(stripe, session.id))) expired += 1;
  return expired;
}

/**
 * Expires one Checkout page at Stripe; false when it was paid or expired since it was listed (Stripe
 * refuses: another request or job expired it, or the subscriptions' listing and events see its payment).
 */
export async function expireCheckout(stripe: Stripe, id: string): Promise<boolean> {
  try {
    await stripe.checkout.sessions.expire(id);
    return true;
  } catch (error) {
    if ((await asStripeError(error))?.type !== 'StripeInvalidRequestError') throw error;
    return false;
  }
}

/**
 * Once the account is gone, its Checkout pages are expired and its live subscriptions cancelled with
 * their payment refunded: one started by a page opened, or paid, while the account was being deleted
 * (after the first pass listed them) would otherwise bill a person who can no longer sign in. No page
 * can be opened now. The account cannot come back, so Stripe failing here is logged for staff to finish.
 */
export async function cancelWhatStartedDuringDeletion(
  ctx: AppContext,
  customer: string,
  userId: number,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!ctx.config.stripe) return;
  const stripe = await createStripeClient(ctx.config.stripe);
  try {
    await expireOpenCheckouts(stripe, customer);
    for await (const subscription of stripe.subscriptions.list({ customer, limit: 100 })) {
      if (ENDED.includes(subscription.status)) continue;
      const refunded = await cancelAndRefund(stripe, {
        subscriptionId: subscription.id,
        userId,
        comment: 'Started while its Innerwave account was being deleted. Refunded in full.',
        reason: 'requested_by_customer',
        metadata: { user_id: String(userId), subscription: subscription.id, account: 'deleted' },
        idempotencyKey: `innerwave-deletion-refund-${subscription.id}`,
      });
      log.warn(
        { userId, customer, subscription: subscription.id, refund: refunded.refundId },
        `billing: a subscription (${subscription.id}) started while its account was being deleted: cancelled at Stripe${refunded.refundedAmount > 0 ? `, its payment refunded (${refunded.refundId ?? 'refunded before'})` : ''}`,
      );
    }
  } catch (error) {
    const stripeError = await asStripeError(error);
    log.error(
      { err: error, userId, customer, stripeType: stripeError?.type, stripeCode: stripeError?.code },
      `billing: after deleting an account, Stripe could not be asked whether a subscription started meanwhile: cancel and refund any live subscription of customer ${customer} at Stripe`,
    );
  }
}
