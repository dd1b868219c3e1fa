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
 *   POST /v1/checkout/sessions          → a Checkout Session whose `url` is this server's /checkout/<id>
 *   GET  /v1/checkout/sessions          → the sessions of `customer` with `status` (open, complete, expired)
 *   POST /v1/checkout/sessions/<id>/expire → the open session, expired: its page no longer takes a payment
 *   POST /v1/billing_portal/sessions    → a portal session whose `url` is this server's /portal/<id>
 *   DELETE /v1/subscriptions/<id>       → the subscription, cancelled (an account being deleted)
 * It also plays the part of Stripe's hosted pages:
 *   GET  /checkout/<id>  a page with a Pay button; pressing it (POST /checkout/<id>/pay) sends
 *                        checkout.session.completed and customer.subscription.created (the chosen
 *                        price, active), correctly signed, to the app's webhook, then redirects to the
 *                        session's success_url. "Back" goes to its cancel_url.
 *   GET  /portal/<id>    a page to change the plan, cancel at period end, fail the next payment or end
 *                        the subscription now; each sends the matching signed events, then comes back.
 *   GET  /health         200, for a runner waiting on it.
 * Events are signed with the SDK's own stripe.webhooks.generateTestHeaderString.
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
  /** Where events go from now on (an app started after the stand-in). */
  setWebhookUrl(url: string): void;
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
export function standInStripeEnv(url: string, webhookSecret: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: 'sk_test_stand_in',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_PRICE_INTERMEDIATE: 'price_intermediate',
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_API_URL: url,
  };
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
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
  const prices = options.prices ?? {};
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
    const { event, body, signature } = signedEvent(type, object, eventOptions);
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
  const notFound = (response: ServerResponse) =>
    json(response, 404, { error: { type: 'invalid_request_error', message: 'No such object (stand-in).' } });

  /** The customer's live subscription, if any. */
  const liveSubscriptionOf = (customer: unknown) =>
    [...subscriptions.values()].find((sub) => sub.customer === customer && sub.status !== 'canceled');

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

  async function handleApi(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    body: string,
    query: URLSearchParams,
  ) {
    const params = parseStripeForm(body);
    const idempotency = request.headers['idempotency-key'];
    calls.push({
      method: request.method ?? '',
      path,
      params,
      idempotencyKey: typeof idempotency === 'string' ? idempotency : undefined,
    });
    if (request.method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', created: now(), ...params };
      customers.set(customer.id, customer);
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
        url: `${base}/checkout/${sessionId}`,
      };
      sessions.set(sessionId, session);
      return json(response, 200, session);
    }
    if (request.method === 'GET' && path === '/v1/checkout/sessions') {
      const data = [...sessions.values()].filter(
        (session) =>
          (query.get('customer') === null || session.customer === query.get('customer')) &&
          (query.get('status') === null || session.status === query.get('status')),
      );
      return json(response, 200, { object: 'list', data, has_more: false, url: path });
    }
    const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (request.method === 'POST' && expiring) {
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
    const cancelled = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (request.method === 'DELETE' && cancelled) {
      const sub = subscriptions.get(cancelled[1]!);
      if (!sub)
        return json(response, 404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription.' },
        });
      const ended = { ...sub, status: 'canceled' } as Stripe.Subscription;
      subscriptions.set(sub.id, ended);
      return json(response, 200, ended);
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
${planButtons}${action('cancel', 'Cancel at period end')}${action('renew', 'Keep subscription')}${action('fail', 'Fail the next payment')}${action('end', 'End subscription now')}`
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
        if (session.status !== 'open')
          return html(response, page('Checkout', '<p>This Checkout Session is no longer active.</p>'), 410);
        const price = (session.line_items as Record<string, { price: string }>)['0']!.price;
        const customer = String(session.customer);
        const sub = subscription({
          customer,
          price,
          metadata: ((session.subscription_data as { metadata?: Record<string, string> }) ?? {}).metadata ?? {},
        });
        subscriptions.set(sub.id, sub);
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
          await sendEvent('invoice.payment_failed', {
            id: id('in'),
            object: 'invoice',
            customer: failed.customer,
            status: 'open',
            parent: { type: 'subscription_details', subscription_details: { subscription: failed.id } },
          });
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
      const handled =
        path === '/health'
          ? Promise.resolve(json(response, 200, { ok: true }))
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
    sendEvent,
    signedEvent,
    sign,
    subscription,
    setWebhookUrl: (url) => {
      options.webhookUrl = url;
    },
    close: () =>
      new Promise<void>((resolve) => {
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
