import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Stripe from 'stripe';

/*
 * A stand-in for Stripe's API, for the tests and the e2e (nothing may call Stripe's servers). The real
 * `stripe` client is pointed at it (STRIPE_API_URL=http://127.0.0.1:<port>), and it answers exactly the
 * calls the server makes, recording each:
 *   POST /v1/customers                  → a customer (cus_…)
 *   POST /v1/customers/<id>             → the customer, its fields changed (its `email`)
 *   POST /v1/checkout/sessions          → a Checkout Session whose `url` is this server's /checkout/<id>,
 *                                         open until its `expires_at` (24 hours unless given), then expired
 *   GET  /v1/checkout/sessions          → the sessions of `customer` with `status` (open, complete, expired)
 *   POST /v1/checkout/sessions/<id>/expire → the open session, expired: its page no longer takes a payment
 *   POST /v1/billing_portal/sessions    → a portal session whose `url` is this server's /portal/<id>
 *   GET  /v1/subscriptions              → the subscriptions of `customer`: not cancelled, or of `status`
 *                                         (`all` for every one)
 *   GET  /v1/subscriptions/<id>         → the subscription (a cancelled one too)
 *   DELETE /v1/subscriptions/<id>       → the subscription, cancelled at once (`cancellation_details` kept),
 *                                         then customer.subscription.deleted sent; 404 resource_missing
 *                                         when it has already ended, as Stripe answers
 *   GET  /v1/invoices/<id>              → the invoice; its `payments` only with expand[]=payments
 *   POST /v1/refunds                    → a refund of a `payment_intent` or `charge` (all that is left of
 *                                         it, or `amount`); 400 charge_already_refunded when nothing is left
 * A POST with an Idempotency-Key is answered once: the same key again gets the first answer (400
 * idempotency_error if its parameters differ), as Stripe does for 24 hours.
 * It also plays the part of Stripe's hosted pages:
 *   GET  /checkout/<id>  a page with a Pay button; pressing it (POST /checkout/<id>/pay) starts the
 *                        subscription with its first invoice paid (a payment intent and its charge, of
 *                        the price's amount), sends checkout.session.completed and
 *                        customer.subscription.created (the chosen price, active), correctly signed, to
 *                        the app's webhook, then redirects to the session's success_url. "Back" goes to
 *                        its cancel_url.
 *   GET  /portal/<id>    a page to change the plan, cancel at period end, fail the next payment (once
 *                        failed: pay it, the subscription active again) or end the subscription now;
 *                        each sends the matching signed events, then comes back.
 *   GET  /health         200, for a runner waiting on it.
 *   PUT or DELETE /control/refused-customers/<id>
 *                        From then on every API call about that customer (its path, or its `customer`) is
 *                        answered 500 api_error, or again as usual: an outage for one customer, which an e2e test
 *                        sets across the process without touching the other tests' customers (decision 134).
 *   GET  /favicon.ico    204: the icon a browser asks for beside every page, so that a test reading the console
 *                        finds no 404 that is the stand-in's own.
 * Events are signed with the SDK's own stripe.webhooks.generateTestHeaderString.
 * Stripe promises no order and no delay: `holdEvents(true)` keeps every event made from then on (the pages',
 * a cancellation's, a test's sendEvent) until `releaseEvents` sends the ones named, in the order named, each
 * with its own id and `created`; `setTime` fixes the stand-in's clock, so that several changes fall in one
 * second as Stripe's often do; `staleRead` answers the next read of a subscription with what it was then,
 * as an answer made just before a change landed.
 *
 * In a test:
 *   const stand = await startStripeStandIn({ webhookUrl, webhookSecret: 'whsec_test' });
 *   ... env STRIPE_API_URL: stand.url ...; stand.calls; await stand.sendEvent('customer.subscription.updated', sub);
 *   await stand.close();
 *
 * From the e2e (Playwright `webServer`, a second entry beside the app's), one process:
 *   command: 'npx tsx src/server/test/stripe-stand-in.ts --port 4105
 *             --webhook-url http://127.0.0.1:<app port>/api/billing/webhook/ --webhook-secret whsec_e2e
 *             --price-intermediate price_intermediate --price-pro price_pro',
 *   url: 'http://127.0.0.1:4105/health'
 * and the app started with STRIPE_SECRET_KEY=sk_test_e2e, STRIPE_WEBHOOK_SECRET=whsec_e2e,
 * STRIPE_PRICE_INTERMEDIATE=price_intermediate, STRIPE_PRICE_PRO=price_pro and
 * STRIPE_API_URL=http://127.0.0.1:4105 (the defaults of the options are these values). The stand-in
 * may start before the app: it sends webhooks only when a page's button is pressed.
 */

export interface StandInCall {
  method: string;
  path: string;
  /** The form-encoded parameters, nested as Stripe reads them (`line_items[0][price]` → line_items['0'].price). */
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

export interface StandInOptions {
  port?: number;
  host?: string;
  /** The app's webhook (…/api/billing/webhook/); without it, events are recorded but not sent. */
  webhookUrl?: string | undefined;
  webhookSecret: string;
  /** Price ids and what the pages call them. */
  prices?: Record<string, string>;
  /** What each price charges, in cents of USD (3600 for a price not named here). */
  amounts?: Record<string, number>;
}

export interface SentEvent {
  event: Stripe.Event;
  status: number;
}

export interface StripeStandIn {
  url: string;
  port: number;
  calls: StandInCall[];
  /** Every event sent to the webhook, with the answer's status. */
  events: SentEvent[];
  customers: Map<string, Record<string, unknown>>;
  sessions: Map<string, Record<string, unknown>>;
  subscriptions: Map<string, Stripe.Subscription>;
  invoices: Map<string, Stripe.Invoice>;
  /** Charges by id (each of a payment intent), with what was refunded of them. */
  charges: Map<string, Stripe.Charge>;
  refunds: Map<string, Stripe.Refund>;
  /** Starts a subscription as Checkout does: stored, with its first invoice paid. Sends no event. */
  startSubscription(fields: SubscriptionFields): Stripe.Subscription;
  /** Resolves once every event sent after an API call (a cancellation's) has been answered. */
  idle(): Promise<void>;
  /** While on, every API call is answered 500 api_error, as in an outage at Stripe (the pages still work). */
  setOutage(on: boolean): void;
  /** While on, every API call about `customer` (its path, or its `customer`) is answered as in an outage. */
  refuseCustomer(customer: string, on: boolean): void;
  /**
   * Called with each API call as it arrives, before it is answered (undefined: none); the answer waits
   * for the promise it returns (a slow Stripe).
   */
  onCall(hook: ((call: StandInCall) => void | Promise<void>) | undefined): void;
  /**
   * Holds the next `method path` call before it is answered, until `release()` (which also lets later calls
   * through); `reached` resolves once that call has arrived. Takes the place of any `onCall` hook.
   */
  hold(method: string, path: string): { reached: Promise<void>; release(): void };
  /**
   * While on, every event made (the pages', a cancellation's, sendEvent's) is kept, not sent, until
   * releaseEvents; its SentEvent's status is 0 until then. Off: later events are sent; those kept stay kept.
   */
  holdEvents(on: boolean): void;
  /** The events kept and not yet released, in the order they were made. */
  heldEvents(): Stripe.Event[];
  /**
   * Sends kept events, those of `ids` in that order (any order Stripe may deliver in), every kept one in the
   * order made when none given; each is answered before the next is sent, and leaves the kept ones.
   */
  releaseEvents(ids?: string[]): Promise<SentEvent[]>;
  /** Fixes the stand-in's clock (Unix seconds) for every time it gives; undefined: the real clock again. */
  setTime(seconds: number | undefined): void;
  /**
   * The next read of the subscription (GET /v1/subscriptions/<id>) is answered, once, with the subscription as
   * it is now, whatever it becomes before that read arrives: Stripe's answer made before a change landed.
   */
  staleRead(subscriptionId: string): void;
  /** Builds a signed event of `type` about `object` and sends it to the webhook. */
  sendEvent(type: string, object: object, options?: { created?: number; id?: string }): Promise<SentEvent>;
  /** An event, its body and its Stripe-Signature header, without sending it (for tests that send it themselves). */
  signedEvent(
    type: string,
    object: object,
    options?: { created?: number; id?: string },
  ): { event: Stripe.Event; body: string; signature: string };
  /** The Stripe-Signature header of any body (for tests of bodies that are not events). */
  sign(body: string): string;
  /** Where events go from now on (an app started after the stand-in); undefined: recorded, not sent. */
  setWebhookUrl(url: string | undefined): void;
  /** A subscription as Stripe describes it, for events. */
  subscription(fields: SubscriptionFields): Stripe.Subscription;
  close(): Promise<void>;
}

export interface SubscriptionFields {
  id?: string;
  customer: string;
  price: string;
  status?: Stripe.Subscription.Status;
  currentPeriodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  cancelAt?: number | null;
  metadata?: Record<string, string>;
}

/** The app's Stripe variables for a stand-in at `url` (tests and the fuzzer; the e2e passes the same). */
export function standInStripeEnv(url: string, webhookSecret: string) {
  return {
    STRIPE_SECRET_KEY: 'sk_test_stand_in',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_PRICE_INTERMEDIATE: 'price_intermediate',
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_API_URL: url,
  };
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const DAY = 24 * 60 * 60;

/** Stripe's form encoding (`a[b][0]=c`) as nested objects. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node = result;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return result;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem;margin:.25rem 0}</style>
</head><body><p>Stripe stand-in (tests only)</p><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export async function startStripeStandIn(options: StandInOptions): Promise<StripeStandIn> {
  const calls: StandInCall[] = [];
  const events: SentEvent[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, Stripe.Subscription>();
  const portals = new Map<string, Record<string, unknown>>();
  const invoices = new Map<string, Stripe.Invoice>();
  const paymentIntents = new Map<string, Stripe.PaymentIntent>();
  const charges = new Map<string, Stripe.Charge>();
  const refunds = new Map<string, Stripe.Refund>();
  /** Idempotency-Key → the first request's parameters and answer. */
  const answered = new Map<string, { body: string; status: number; answer: string }>();
  /** Events sent after an API call answered (Stripe sends them on its own time). */
  const sending = new Set<Promise<unknown>>();
  const prices = options.prices ?? {};
  let outage = false;
  /** Customers whose every API call is answered as in an outage (refuseCustomer). */
  const refusedCustomers = new Set<string>();
  let holding = false;
  let fixedTime: number | undefined;
  const now = () => fixedTime ?? Math.floor(Date.now() / 1000);
  /** Events kept while holding, by id, in the order made. */
  const held = new Map<string, Stripe.Event>();
  /** Subscription id → the answer its next read gets (staleRead). */
  const staleReads = new Map<string, Stripe.Subscription>();
  let callHook: ((call: StandInCall) => void | Promise<void>) | undefined;
  const stripe = new Stripe('sk_test_stand_in');
  let base = '';

  function subscription(fields: SubscriptionFields): Stripe.Subscription {
    const periodEnd = fields.currentPeriodEnd ?? now() + 30 * DAY;
    const subscriptionId = fields.id ?? id('sub');
    return {
      id: subscriptionId,
      object: 'subscription',
      customer: fields.customer,
      status: fields.status ?? 'active',
      cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
      cancel_at: fields.cancelAt ?? null,
      created: now(),
      latest_invoice: null,
      metadata: fields.metadata ?? {},
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${subscriptionId}`,
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            price: { id: fields.price, object: 'price' },
            quantity: 1,
            current_period_start: periodEnd - 30 * DAY,
            current_period_end: periodEnd,
            subscription: subscriptionId,
          },
        ],
      },
    } as unknown as Stripe.Subscription;
  }

  function startSubscription(fields: SubscriptionFields): Stripe.Subscription {
    const sub = subscription(fields);
    const amount = options.amounts?.[fields.price] ?? 3600;
    const created = now();
    const paymentIntentId = id('pi');
    const chargeId = id('ch');
    charges.set(chargeId, {
      id: chargeId,
      object: 'charge',
      amount,
      amount_refunded: 0,
      refunded: false,
      currency: 'usd',
      customer: fields.customer,
      payment_intent: paymentIntentId,
      status: 'succeeded',
      paid: true,
      created,
    } as unknown as Stripe.Charge);
    paymentIntents.set(paymentIntentId, {
      id: paymentIntentId,
      object: 'payment_intent',
      amount,
      amount_received: amount,
      currency: 'usd',
      customer: fields.customer,
      latest_charge: chargeId,
      status: 'succeeded',
      created,
    } as unknown as Stripe.PaymentIntent);
    const invoiceId = id('in');
    invoices.set(invoiceId, {
      id: invoiceId,
      object: 'invoice',
      customer: fields.customer,
      status: 'paid',
      currency: 'usd',
      amount_due: amount,
      amount_paid: amount,
      amount_remaining: 0,
      billing_reason: 'subscription_create',
      created,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: {} } },
      payments: {
        object: 'list',
        has_more: false,
        url: `/v1/invoice_payments?invoice=${invoiceId}`,
        data: [
          {
            id: id('inpay'),
            object: 'invoice_payment',
            amount_paid: amount,
            amount_requested: amount,
            currency: 'usd',
            invoice: invoiceId,
            is_default: true,
            livemode: false,
            created,
            payment: { type: 'payment_intent', payment_intent: paymentIntentId },
            status: 'paid',
            status_transitions: { canceled_at: null, paid_at: created },
          },
        ],
      },
    } as unknown as Stripe.Invoice);
    const started = { ...sub, latest_invoice: invoiceId } as Stripe.Subscription;
    subscriptions.set(started.id, started);
    return started;
  }

  /** Sends an event after the API call that caused it has answered, as Stripe does. */
  function sendLater(type: string, object: object) {
    const sent: Promise<unknown> = new Promise((resolve) => setImmediate(resolve))
      .then(() => sendEvent(type, object))
      .catch(() => undefined)
      .finally(() => sending.delete(sent));
    sending.add(sent);
  }

  async function idle() {
    while (sending.size > 0) await Promise.all([...sending]);
  }

  function signedEvent(type: string, object: object, eventOptions: { created?: number; id?: string } = {}) {
    const event = {
      id: eventOptions.id ?? id('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: eventOptions.created ?? now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    } as unknown as Stripe.Event;
    const body = JSON.stringify(event, null, 2);
    return { event, body, signature: sign(body) };
  }

  function sign(body: string) {
    return stripe.webhooks.generateTestHeaderString({ payload: body, secret: options.webhookSecret });
  }

  async function sendEvent(type: string, object: object, eventOptions: { created?: number; id?: string } = {}) {
    const { event } = signedEvent(type, object, eventOptions);
    if (holding) {
      held.set(event.id, event);
      return { event, status: 0 };
    }
    return deliver(event);
  }

  /** Sends an event to the webhook, signed now, as Stripe signs each delivery of it. */
  async function deliver(event: Stripe.Event): Promise<SentEvent> {
    const body = JSON.stringify(event, null, 2);
    const signature = sign(body);
    let status = 0;
    if (options.webhookUrl) {
      const answer = await fetch(options.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
        body,
      });
      status = answer.status;
    }
    const sent = { event, status };
    events.push(sent);
    return sent;
  }

  /** An invoice event of the subscription's renewal, as Stripe sends it when a payment fails or is paid. */
  const sendInvoiceEvent = (
    type: 'invoice.payment_failed' | 'invoice.paid',
    sub: Stripe.Subscription,
    status: string,
  ) =>
    sendEvent(type, {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      status,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
    });

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    response.end(JSON.stringify(body));
  };
  const html = (response: ServerResponse, body: string, status = 200) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  };
  const redirect = (response: ServerResponse, location: string) => {
    response.writeHead(303, { location });
    response.end();
  };
  const noIcon = (response: ServerResponse) => {
    response.writeHead(204, { 'cache-control': 'public, max-age=86400' });
    response.end();
  };
  const refuseCustomer = (customer: string, on: boolean) => {
    if (on) refusedCustomers.add(customer);
    else refusedCustomers.delete(customer);
  };
  const notFound = (response: ServerResponse) =>
    json(response, 404, { error: { type: 'invalid_request_error', message: 'No such object (stand-in).' } });
  const missing = (response: ServerResponse, what: string, objectId: string) =>
    json(response, 404, {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such ${what}: '${objectId}'`,
      },
    });

  /** Open sessions past their `expires_at` are expired, as Stripe expires them on its own. */
  function expireLapsedSessions() {
    for (const session of sessions.values())
      if (session.status === 'open' && typeof session.expires_at === 'number' && session.expires_at <= now())
        sessions.set(String(session.id), { ...session, status: 'expired' });
  }

  /** The customer's subscription the portal shows, if any: as Stripe's, not one ended or never paid. */
  const liveSubscriptionOf = (customer: unknown) =>
    [...subscriptions.values()].find(
      (sub) => sub.customer === customer && sub.status !== 'canceled' && sub.status !== 'incomplete_expired',
    );

  async function changeSubscription(sub: Stripe.Subscription, change: Partial<Stripe.Subscription>, price?: string) {
    const changed = { ...sub, ...change } as Stripe.Subscription;
    if (price) {
      const [item] = changed.items.data;
      changed.items = { ...changed.items, data: [{ ...item!, price: { ...item!.price, id: price } }] };
    }
    subscriptions.set(sub.id, changed);
    const type = changed.status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated';
    await sendEvent(type, changed);
    return changed;
  }

  async function releaseEvents(ids?: string[]) {
    const chosen = (ids ?? [...held.keys()]).map((eventId) => {
      const event = held.get(eventId);
      if (!event) throw new Error(`No event ${eventId} is held.`);
      held.delete(eventId);
      return event;
    });
    const sent: SentEvent[] = [];
    for (const event of chosen) sent.push(await deliver(event));
    return sent;
  }

  async function handleApi(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    body: string,
    query: URLSearchParams,
  ) {
    // GET and DELETE send their parameters in the query string.
    const params = parseStripeForm(request.method === 'POST' ? body : query.toString());
    const idempotency = request.headers['idempotency-key'];
    const idempotencyKey = typeof idempotency === 'string' ? idempotency : undefined;
    const call = { method: request.method ?? '', path, params, idempotencyKey };
    calls.push(call);
    // A stale answer is the one made as the read arrived, however long it then takes to be answered.
    const readOf = request.method === 'GET' ? /^\/v1\/subscriptions\/([^/]+)$/.exec(path)?.[1] : undefined;
    const stale = readOf === undefined ? undefined : staleReads.get(readOf);
    if (stale) staleReads.delete(readOf!);
    await callHook?.(call);
    const about = /^\/v1\/customers\/([^/]+)/.exec(path)?.[1] ?? params.customer;
    if (outage || (typeof about === 'string' && refusedCustomers.has(about)))
      return json(response, 500, {
        error: { type: 'api_error', message: 'An unknown error occurred (stand-in outage).' },
      });
    if (request.method === 'POST' && idempotencyKey) {
      const first = answered.get(idempotencyKey);
      if (first) {
        if (first.body !== `${path}?${body}`)
          return json(response, 400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        response.writeHead(first.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return response.end(first.answer);
      }
      const end = response.end.bind(response) as (chunk: string) => ServerResponse;
      response.end = ((chunk: string) => {
        answered.set(idempotencyKey, { body: `${path}?${body}`, status: response.statusCode, answer: chunk });
        return end(chunk);
      }) as typeof response.end;
    }
    if (request.method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', created: now(), ...params };
      customers.set(customer.id, customer);
      return json(response, 200, customer);
    }
    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (request.method === 'POST' && customerPath) {
      const customer = customers.get(customerPath[1]!);
      if (!customer) return missing(response, 'customer', customerPath[1]!);
      Object.assign(customer, params);
      return json(response, 200, customer);
    }
    if (request.method === 'POST' && path === '/v1/checkout/sessions') {
      if (typeof params.customer === 'string' && !customers.has(params.customer))
        return json(response, 400, { error: { type: 'invalid_request_error', message: 'No such customer.' } });
      const sessionId = id('cs_test');
      const session = {
        id: sessionId,
        object: 'checkout.session',
        status: 'open',
        ...params,
        created: now(),
        // As Stripe: open for 24 hours unless `expires_at` says sooner.
        expires_at: params.expires_at === undefined ? now() + DAY : Number(params.expires_at),
        url: `${base}/checkout/${sessionId}`,
      };
      sessions.set(sessionId, session);
      return json(response, 200, session);
    }
    if (request.method === 'GET' && path === '/v1/checkout/sessions') {
      expireLapsedSessions();
      const data = [...sessions.values()].filter(
        (session) =>
          (query.get('customer') === null || session.customer === query.get('customer')) &&
          (query.get('status') === null || session.status === query.get('status')),
      );
      return json(response, 200, { object: 'list', data, has_more: false, url: path });
    }
    const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (request.method === 'POST' && expiring) {
      expireLapsedSessions();
      const session = sessions.get(expiring[1]!);
      if (!session) return json(response, 404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
      if (session.status !== 'open')
        return json(response, 400, {
          error: {
            type: 'invalid_request_error',
            message: `Only Checkout Sessions with a status in ["open"] can be expired.`,
          },
        });
      const expired = { ...session, status: 'expired' };
      sessions.set(String(session.id), expired);
      return json(response, 200, expired);
    }
    if (request.method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (typeof params.customer !== 'string' || !customers.has(params.customer))
        return json(response, 400, { error: { type: 'invalid_request_error', message: 'No such customer.' } });
      const portalId = id('bps');
      const portal = { id: portalId, object: 'billing_portal.session', ...params, url: `${base}/portal/${portalId}` };
      portals.set(portalId, portal);
      return json(response, 200, portal);
    }
    if (request.method === 'GET' && path === '/v1/subscriptions') {
      // As Stripe: without `status`, every subscription that is not cancelled; `all` for every one.
      const status = query.get('status');
      const data = [...subscriptions.values()].filter(
        (sub) =>
          (query.get('customer') === null || sub.customer === query.get('customer')) &&
          (status === 'all' || (status === null ? sub.status !== 'canceled' : sub.status === status)),
      );
      return json(response, 200, { object: 'list', data, has_more: false, url: path });
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && subscriptionPath) {
      const sub = stale ?? subscriptions.get(subscriptionPath[1]!);
      return sub ? json(response, 200, sub) : missing(response, 'subscription', subscriptionPath[1]!);
    }
    if (request.method === 'DELETE' && subscriptionPath) {
      const sub = subscriptions.get(subscriptionPath[1]!);
      // Stripe answers an ended subscription's cancellation as it does an unknown one's.
      if (!sub || sub.status === 'canceled' || sub.status === 'incomplete_expired')
        return missing(response, 'subscription', subscriptionPath[1]!);
      const ended = {
        ...sub,
        status: 'canceled',
        canceled_at: now(),
        ended_at: now(),
        cancellation_details: {
          comment: null,
          feedback: null,
          reason: 'cancellation_requested',
          ...(params.cancellation_details as object | undefined),
        },
      } as unknown as Stripe.Subscription;
      subscriptions.set(sub.id, ended);
      json(response, 200, ended);
      sendLater('customer.subscription.deleted', ended);
      return;
    }
    const invoicePath = /^\/v1\/invoices\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && invoicePath) {
      const invoice = invoices.get(invoicePath[1]!);
      if (!invoice) return missing(response, 'invoice', invoicePath[1]!);
      // `payments` is includable: there only when asked for.
      const expand = Object.values((params.expand as Record<string, string> | undefined) ?? {});
      const { payments, ...rest } = invoice;
      return json(response, 200, expand.includes('payments') ? { ...rest, payments } : rest);
    }
    if (request.method === 'POST' && path === '/v1/refunds') {
      const intent = typeof params.payment_intent === 'string' ? paymentIntents.get(params.payment_intent) : undefined;
      if (typeof params.payment_intent === 'string' && !intent)
        return missing(response, 'payment_intent', params.payment_intent);
      const chargeId = intent ? String(intent.latest_charge) : params.charge;
      const charge = typeof chargeId === 'string' ? charges.get(chargeId) : undefined;
      if (!charge)
        return typeof chargeId === 'string'
          ? missing(response, 'charge', chargeId)
          : json(response, 400, {
              error: { type: 'invalid_request_error', message: 'One of `charge` or `payment_intent` is required.' },
            });
      const left = charge.amount - charge.amount_refunded;
      const amount = params.amount === undefined ? left : Number(params.amount);
      if (left <= 0)
        return json(response, 400, {
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: `Charge ${charge.id} has already been refunded.`,
          },
        });
      if (!Number.isInteger(amount) || amount <= 0 || amount > left)
        return json(response, 400, {
          error: {
            type: 'invalid_request_error',
            code: 'amount_too_large',
            message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          },
        });
      const refund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: charge.currency,
        charge: charge.id,
        payment_intent: charge.payment_intent,
        reason: params.reason ?? null,
        metadata: params.metadata ?? {},
        status: 'succeeded',
        created: now(),
      } as unknown as Stripe.Refund;
      refunds.set(refund.id, refund);
      const refundedNow = charge.amount_refunded + amount;
      charges.set(charge.id, { ...charge, amount_refunded: refundedNow, refunded: refundedNow === charge.amount });
      return json(response, 200, refund);
    }
    return notFound(response);
  }

  function checkoutPage(session: Record<string, unknown>) {
    const item = (session.line_items as Record<string, { price?: string }> | undefined)?.['0'];
    const price = item?.price ?? '';
    return page(
      'Checkout',
      `<p>Subscribe to <strong>${escapeHtml(prices[price] ?? price)}</strong> (${escapeHtml(price)}).</p>
<form method="post" action="/checkout/${escapeHtml(String(session.id))}/pay"><button type="submit">Pay</button></form>
<p><a href="${escapeHtml(String(session.cancel_url ?? '/'))}">Back</a></p>`,
    );
  }

  function portalPage(portal: Record<string, unknown>) {
    const sub = liveSubscriptionOf(portal.customer);
    const action = (name: string, label: string, extra = '') =>
      `<form method="post" action="/portal/${escapeHtml(String(portal.id))}/${name}">${extra}<button type="submit">${escapeHtml(label)}</button></form>`;
    const planButtons = Object.entries(prices)
      .map(([price, name]) =>
        action('change', `Switch to ${name}`, `<input type="hidden" name="price" value="${escapeHtml(price)}">`),
      )
      .join('');
    const current = sub
      ? `<p>Subscription ${escapeHtml(sub.id)}: ${escapeHtml(sub.status)}, price ${escapeHtml(sub.items.data[0]?.price.id ?? '')}${sub.cancel_at_period_end ? ', cancels at period end' : ''}.</p>
${planButtons}${action('cancel', 'Cancel at period end')}${action('renew', 'Keep subscription')}${sub.status === 'past_due' ? action('pay', 'Pay the failed payment') : action('fail', 'Fail the next payment')}${action('end', 'End subscription now')}`
      : '<p>No live subscription.</p>';
    return page(
      'Billing portal',
      `${current}<p><a href="${escapeHtml(String(portal.return_url ?? '/'))}">Return</a></p>`,
    );
  }

  async function handlePages(request: IncomingMessage, response: ServerResponse, path: string, body: string) {
    const [, kind, pageId, action] = path.split('/');
    if (kind === 'checkout') {
      const session = sessions.get(pageId ?? '');
      if (!session) return notFound(response);
      if (request.method === 'GET' && !action) return html(response, checkoutPage(session));
      if (request.method === 'POST' && action === 'pay') {
        expireLapsedSessions();
        if (sessions.get(String(session.id))?.status !== 'open')
          return html(response, page('Checkout', '<p>This Checkout Session is no longer active.</p>'), 410);
        const price = (session.line_items as Record<string, { price: string }>)['0']!.price;
        const customer = String(session.customer);
        const sub = startSubscription({
          customer,
          price,
          metadata: ((session.subscription_data as { metadata?: Record<string, string> }) ?? {}).metadata ?? {},
        });
        const completed = { ...session, status: 'complete', payment_status: 'paid', subscription: sub.id };
        sessions.set(String(session.id), completed);
        await sendEvent('checkout.session.completed', completed);
        await sendEvent('customer.subscription.created', sub);
        return redirect(response, String(session.success_url));
      }
    }
    if (kind === 'portal') {
      const portal = portals.get(pageId ?? '');
      if (!portal) return notFound(response);
      if (request.method === 'GET' && !action) return html(response, portalPage(portal));
      const sub = liveSubscriptionOf(portal.customer);
      if (request.method === 'POST' && sub) {
        const form = new URLSearchParams(body);
        if (action === 'change') await changeSubscription(sub, {}, form.get('price') ?? undefined);
        if (action === 'cancel') await changeSubscription(sub, { cancel_at_period_end: true });
        if (action === 'renew') await changeSubscription(sub, { cancel_at_period_end: false, cancel_at: null });
        if (action === 'end') await changeSubscription(sub, { status: 'canceled' });
        if (action === 'fail') {
          const failed = await changeSubscription(sub, { status: 'past_due' });
          await sendInvoiceEvent('invoice.payment_failed', failed, 'open');
        }
        // A failed payment paid (the card updated, Stripe's retry through): the invoice, then the subscription.
        if (action === 'pay' && sub.status === 'past_due') {
          await sendInvoiceEvent('invoice.paid', sub, 'paid');
          await changeSubscription(sub, { status: 'active' });
        }
        return redirect(response, `/portal/${portal.id as string}`);
      }
    }
    return notFound(response);
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const path = url.pathname;
      const refused = /^\/control\/refused-customers\/([^/]+)$/.exec(path)?.[1];
      const handled =
        path === '/health'
          ? Promise.resolve(json(response, 200, { ok: true }))
          : refused && (request.method === 'PUT' || request.method === 'DELETE')
            ? Promise.resolve(refuseCustomer(refused, request.method === 'PUT')).then(() => {
                response.writeHead(204);
                response.end();
              })
            : path === '/favicon.ico' && (request.method === 'GET' || request.method === 'HEAD')
              ? Promise.resolve(noIcon(response))
              : path.startsWith('/v1/')
                ? handleApi(request, response, path, body, url.searchParams)
                : handlePages(request, response, path, body);
      handled.catch((error: unknown) => {
        if (!response.headersSent) json(response, 500, { error: { type: 'api_error', message: String(error) } });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url: base,
    port,
    calls,
    events,
    customers,
    sessions,
    subscriptions,
    invoices,
    charges,
    refunds,
    startSubscription,
    idle,
    sendEvent,
    signedEvent,
    sign,
    subscription,
    onCall: (hook) => {
      callHook = hook;
    },
    hold: (method, path) => {
      let arrived = () => {};
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const hook = async (call: StandInCall) => {
        if (call.method !== method || call.path !== path) return;
        if (callHook === hook) callHook = undefined;
        arrived();
        await released;
      };
      callHook = hook;
      return {
        reached,
        release: () => {
          if (callHook === hook) callHook = undefined;
          release();
        },
      };
    },
    setOutage: (on) => {
      outage = on;
    },
    refuseCustomer,
    holdEvents: (on) => {
      holding = on;
    },
    heldEvents: () => [...held.values()],
    releaseEvents,
    setTime: (seconds) => {
      fixedTime = seconds;
    },
    staleRead: (subscriptionId) => {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`No subscription ${subscriptionId}.`);
      staleReads.set(subscriptionId, sub);
    },
    setWebhookUrl: (url) => {
      options.webhookUrl = url;
    },
    close: () =>
      new Promise<void>((resolve) => {
        sending.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run as a program: the e2e's stand-in (see the header comment).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4105' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string', default: 'whsec_stand_in' },
      'price-intermediate': { type: 'string', default: 'price_intermediate' },
      'price-pro': { type: 'string', default: 'price_pro' },
    },
  });
  const standIn = await startStripeStandIn({
    port: Number(values.port),
    webhookUrl: values['webhook-url'],
    webhookSecret: values['webhook-secret'],
    prices: { [values['price-intermediate']]: 'Intermediate', [values['price-pro']]: 'Pro' },
  });
  console.log(`Stripe stand-in on ${standIn.url}, webhooks to ${values['webhook-url'] ?? '(none)'}`);
  const stop = () => void standIn.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
