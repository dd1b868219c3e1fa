import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import {
  API,
  apiErrorSchema,
  BILLING_MESSAGES,
  BILLING_RETURN,
  billingRedirectSchema,
  checkoutRequestSchema,
  detailErrorSchema,
  type PaidPlan,
} from '@shared/contract';
import { currentUser } from '../auth/authenticate';
import type { AppContext } from '../context';
import { ApiError, tooManyRequests } from '../http/errors';
import { personKey } from '../cluster/rate-limit-store';
import { planOfSignedIn } from '../own/service';
import { expireCheckoutsJob } from './checkout-expiry';
import { expireCheckout } from './deletion';
import { settleDuplicateSubscriptions } from './duplicates';
import { billingAccountOf, checkoutRefusal, inCheckoutTurn, rememberCustomer, type BillingAccount } from './service';
import { callStripe, createStripeClient } from './stripe-client';
import { MALFORMED_EVENT, malformedEventReason, processEvent } from './webhook';

// Paying for a plan (docs/product/api.md#billing): Checkout to subscribe, the Customer Portal to change
// or cancel, and Stripe's signed webhook, the only source of a plan change. With no Stripe keys every
// billing call answers 503 and nothing else changes.

/** Checkout and portal sessions one person may open per hour (each is a call to Stripe). */
export const BILLING_SESSIONS_PER_HOUR = 20;
const HOUR_MS = 60 * 60 * 1000;
/** An open Checkout page is answered again only with this long left to pay on it (Stripe keeps one 24 hours). */
const CHECKOUT_MIN_TIME_LEFT_MS = HOUR_MS;

const notConfigured = () => new ApiError(503, { detail: BILLING_MESSAGES.notConfigured });

const described = <S extends object>(summary: string, schema: S, description?: string) => ({
  schema: { tags: ['billing'], summary, ...(description && { description }), ...schema },
});

export const billingRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const { publicUrl } = ctx.config;
  const stripeConfig = ctx.config.stripe;
  const stripe = stripeConfig && (await createStripeClient(stripeConfig));
  const limit = app.createRateLimit({
    max: BILLING_SESSIONS_PER_HOUR,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => personKey('billing', currentUser(request).id),
  });
  /** Refuses when payments are off, then counts the call against the person's hourly sessions. */
  const ready = async (request: FastifyRequest) => {
    if (!stripe || !stripeConfig) throw notConfigured();
    const counted = await limit(request);
    if (!counted.isAllowed && counted.isExceeded) throw tooManyRequests(counted.ttlInSeconds);
    return { stripe, stripeConfig };
  };
  /** 409 while a subscription is live (changed in the portal, never bought twice); 400 for a plan one has. */
  const refuseCheckout = async (account: BillingAccount | undefined, userId: number, plan: PaidPlan) => {
    const refusal = checkoutRefusal(account, await planOfSignedIn(db, userId), plan);
    if (refusal) throw refusal;
  };
  const signedIn = { onRequest: ctx.authenticate };
  const errors = { 401: detailErrorSchema, 429: detailErrorSchema, 503: detailErrorSchema };

  app.post(
    API.billingCheckout,
    {
      ...signedIn,
      ...described(
        'Start a subscription: the URL of a Stripe Checkout page for the plan',
        {
          security: [{ bearerAuth: [] }],
          body: checkoutRequestSchema,
          response: { 200: billingRedirectSchema, 400: apiErrorSchema, 409: detailErrorSchema, ...errors },
        },
        `The plan changes when Stripe's webhook confirms the payment, not on return from Checkout. One page is open at a time: asked again for the same plan while its page is open (a second click, another tab), the same URL; another plan's page replaces it (the earlier one can no longer be paid). 409 while a subscription is live (change it in the portal), or while another request of the person's is still opening a page after a few seconds; 400 for a plan the person has already or is above (staff can grant one). At most ${BILLING_SESSIONS_PER_HOUR} checkout and portal sessions per person per hour.`,
      ),
    },
    async (request) => {
      const { stripe, stripeConfig } = await ready(request);
      const user = currentUser(request);
      const { plan } = request.body;
      const account = await billingAccountOf(db, user.id);
      await refuseCheckout(account, user.id, plan);
      const newCustomer = async () => {
        // The idempotency key makes a second request racing this one get the same customer from Stripe.
        const created = await callStripe(request.log, 'customers.create', () =>
          stripe.customers.create(
            { email: user.email, metadata: { user_id: String(user.id) } },
            { idempotencyKey: `innerwave-customer-${user.id}` },
          ),
        );
        const remembered = await rememberCustomer(db, user.id, created.id);
        request.log.info({ userId: user.id, customer: remembered }, 'billing: Stripe customer created');
        return remembered;
      };
      const customer = account?.stripeCustomerId ?? (await newCustomer());
      // One Checkout page open at a time: another one (a second click, another tab, Back then Upgrade
      // again) could be paid too, and the person would pay for two subscriptions. Requests take turns,
      // across workers and servers, so the second sees the page the first opened.
      const opened = await inCheckoutTurn(db, user.id, async (now, renew) => {
        await refuseCheckout(now, user.id, plan);
        // Each call is held anew: slow calls together outlast one hold (docs/decisions/013).
        const inTurn = async <T>(what: string, call: () => Promise<T>) => {
          await renew();
          return callStripe(request.log, what, call);
        };
        // Stripe's lists read what was just written (its search would not).
        const open = await inTurn('checkout.sessions.list', () =>
          stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 }),
        );
        // The same plan's page at the price sold now, with time left to pay: the same page again. Any
        // other open page is expired, so Stripe refuses to take a payment there: the plan asked last is
        // the one sold (and a price no longer sold, which the webhook would not know, is not).
        const price = stripeConfig.prices[plan];
        const same = open.data.find(
          (session) =>
            session.metadata?.plan === plan &&
            session.metadata.price === price &&
            session.url &&
            session.expires_at * 1000 > Date.now() + CHECKOUT_MIN_TIME_LEFT_MS,
        );
        for (const earlier of open.data) {
          if (earlier === same) continue;
          await inTurn('checkout.sessions.expire', () => expireCheckout(stripe, earlier.id));
          request.log.info({ userId: user.id, session: earlier.id }, 'billing: earlier checkout expired');
        }
        if (same) {
          request.log.info({ userId: user.id, plan, session: same.id }, 'billing: checkout still open, answered again');
          return same.url!;
        }
        const session = await inTurn('checkout.sessions.create', () =>
          stripe.checkout.sessions.create({
            mode: 'subscription',
            customer,
            client_reference_id: String(user.id),
            line_items: [{ price, quantity: 1 }],
            success_url: publicUrl + BILLING_RETURN.success,
            cancel_url: publicUrl + BILLING_RETURN.cancel,
            metadata: { user_id: String(user.id), plan, price },
            subscription_data: { metadata: { user_id: String(user.id) } },
          }),
        );
        if (!session.url) throw new ApiError(503, { detail: BILLING_MESSAGES.providerUnavailable });
        // Staff may have set the plan, or a subscription become live, after this request's check and after
        // their expiry listed the open pages: asked again now that the page exists, which is expired when it
        // is no longer to be sold, so none opened meanwhile stays payable (docs/decisions/066).
        try {
          await refuseCheckout(await billingAccountOf(db, user.id), user.id, plan);
        } catch (refusal) {
          try {
            await inTurn('checkout.sessions.expire', () => expireCheckout(stripe, session.id));
            request.log.info(
              { userId: user.id, session: session.id },
              'billing: checkout opened as the plan changed, expired',
            );
          } catch {
            // Stripe out of reach (logged): the expiry job closes the page once it is back, and the person
            // hears why no page is theirs, as they would have before it was opened.
            await ctx.jobs.enqueue(db, expireCheckoutsJob(user.id, 'checkout-refused'));
            ctx.jobs.wake();
            request.log.info(
              { userId: user.id, session: session.id },
              'billing: checkout opened as the plan changed, its expiry queued',
            );
          }
          throw refusal;
        }
        request.log.info({ userId: user.id, plan, session: session.id }, 'billing: checkout opened');
        return session.url;
      });
      if (!opened) throw new ApiError(409, { detail: BILLING_MESSAGES.checkoutOpening });
      return { url: opened.done };
    },
  );

  app.post(
    API.billingPortal,
    {
      ...signedIn,
      ...described(
        'Manage the subscription: the URL of the Stripe Customer Portal (change plan, card, invoices, cancel)',
        {
          security: [{ bearerAuth: [] }],
          response: { 200: billingRedirectSchema, 409: detailErrorSchema, ...errors },
        },
      ),
    },
    async (request) => {
      const { stripe } = await ready(request);
      const user = currentUser(request);
      const account = await billingAccountOf(db, user.id);
      if (!account) throw new ApiError(409, { detail: BILLING_MESSAGES.noCustomer });
      const session = await callStripe(request.log, 'billingPortal.sessions.create', () =>
        stripe.billingPortal.sessions.create({
          customer: account.stripeCustomerId,
          return_url: publicUrl + BILLING_RETURN.portal,
        }),
      );
      return { url: session.url };
    },
  );

  // The webhook reads its body as bytes (the signature is over them), in a context of its own so no
  // other route's body changes.
  await app.register(async (hook) => {
    hook.removeAllContentTypeParsers();
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    hook.post(
      API.billingWebhook,
      described(
        "Stripe's events (signed): the only source of a plan change",
        {
          response: {
            200: z.object({ received: z.boolean(), duplicate: z.boolean() }),
            400: detailErrorSchema,
            415: detailErrorSchema,
            503: detailErrorSchema,
          },
        },
        "Verified with STRIPE_WEBHOOK_SECRET (400 otherwise, and for an event that is not JSON or whose id, type or object is malformed; nothing is recorded); each event id is applied once; a subscription event older than the last applied one changes nothing. News that a subscription other than the followed one is live is checked with Stripe first (503 while it cannot be reached, nothing recorded). A second live subscription of the same person is cancelled and refunded at Stripe; 503 while Stripe cannot be reached for it (the event is applied; its resend does the rest). A subscription that becomes the person's live one has their open Checkout pages expired just after, by a background job (the answer does not wait for it).",
      ),
      async (request) => {
        if (!stripe || !stripeConfig) throw notConfigured();
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !signature)
          throw new ApiError(400, { detail: 'Missing Stripe-Signature header.' });
        if (!Buffer.isBuffer(request.body)) throw new ApiError(400, { detail: 'Expected the event as a JSON body.' });
        let event: Stripe.Event;
        try {
          event = stripe.webhooks.constructEvent(request.body, signature, stripeConfig.webhookSecret);
        } catch (error) {
          // The signature is checked before the body is parsed: a body it signs that is no JSON is malformed.
          if (error instanceof SyntaxError) {
            request.log.warn({ reason: 'not JSON' }, 'billing: webhook refused (malformed event)');
            throw new ApiError(400, { detail: MALFORMED_EVENT });
          }
          request.log.warn({ err: error }, 'billing: webhook refused (signature)');
          throw new ApiError(400, { detail: 'The webhook signature is not valid.' });
        }
        const malformed = malformedEventReason(event);
        if (malformed) {
          request.log.warn({ reason: malformed }, 'billing: webhook refused (malformed event)');
          throw new ApiError(400, { detail: MALFORMED_EVENT });
        }
        const outcome = await processEvent(db, event, stripeConfig.prices, {
          client: stripe,
          log: request.log,
          jobs: ctx.jobs,
        });
        if (outcome.checkoutsToExpire) ctx.jobs.wake();
        request.log.info(
          {
            event: event.id,
            type: event.type,
            userId: outcome.userId,
            result: outcome.result,
            plan: outcome.planChange,
          },
          outcome.planChange
            ? `billing: plan ${outcome.planChange.from} → ${outcome.planChange.to} by Stripe`
            : 'billing: webhook',
        );
        // Every worker drops what it keeps of the person (the plan shows at once everywhere).
        if (outcome.userId !== undefined && outcome.processed)
          await ctx.notices.publish({ kind: 'user-changed', userId: outcome.userId });
        // A second live subscription of the person (this event's, or one an earlier attempt left to do)
        // is cancelled and refunded at Stripe now that the event is stored; 503 if Stripe is out of reach.
        if (outcome.userId !== undefined)
          await settleDuplicateSubscriptions({ db, stripe, jobs: ctx.jobs, log: request.log }, outcome.userId);
        return { received: true, duplicate: !outcome.processed };
      },
    );
  });
};
