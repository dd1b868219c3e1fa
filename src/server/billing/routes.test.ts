import { PassThrough, Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { ADMIN_API, API, BILLING_MESSAGES, fillPath } from '@shared/contract';
import type { Notice } from '../cluster/notices';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';
import { startStripeStandIn, type StripeStandIn } from '../test/stripe-stand-in';
import { readOutbox } from '../test/eml';
import { linkParams } from '../auth/test-helpers';
import { ownTestKit } from '../own/test-kit';
import { billingAccounts, duplicateSubscriptions, jobs, stripeEvents } from '../db/schema';
import { processEvent } from './webhook';
import { runCli } from '../admin/cli';
import { CHECKOUT_TURN } from './service';
import { STRIPE_CLIENT } from './stripe-client';

// Billing against the Stripe stand-in: the real `stripe` client, nothing sent to Stripe's servers.

const SECRET = 'whsec_billing_test';
const PRICES = { intermediate: 'price_intermediate_test', pro: 'price_pro_test' };
const stripeEnv = (apiUrl: string) => ({
  STRIPE_SECRET_KEY: 'sk_test_billing',
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_PRICE_INTERMEDIATE: PRICES.intermediate,
  STRIPE_PRICE_PRO: PRICES.pro,
  STRIPE_API_URL: apiUrl,
});

/** The Stripe calls made so far, once the jobs earlier events queued (the expiry of open Checkout pages) are done. */
/**
 * The app listening on a free port, and a stand-in that sends its events there: its hosted pages post to the app, and
 * events it holds are released to it.
 */
async function appListeningToStandIn(): Promise<{ t: TestApp; stand: StripeStandIn }> {
  const stand = await startStripeStandIn({
    webhookSecret: SECRET,
    prices: { [PRICES.intermediate]: 'Intermediate', [PRICES.pro]: 'Pro' },
  });
  const t = await createTestApp(stripeEnv(stand.url));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  stand.setWebhookUrl(`http://127.0.0.1:${port}${API.billingWebhook}`);
  return { t, stand };
}

async function stripeCallsSoFar(t: TestApp, stand: StripeStandIn) {
  await t.ctx.jobs.settled();
  return stand.calls.length;
}

describe('billing without Stripe keys', () => {
  let t: TestApp;
  let ada: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp();
    ada = await signedInUser(t.ctx);
  });
  afterAll(() => t.close());

  it('answers 503 to every billing call and says so in the plan; nothing else changes', async () => {
    for (const [url, payload] of [
      [API.billingCheckout, { plan: 'pro' }],
      [API.billingPortal, {}],
    ] as const) {
      const answer = await t.app.inject({ method: 'POST', url, payload, headers: ada.headers });
      expect([answer.statusCode, answer.json()]).toEqual([503, { detail: 'Payments are not set up on this server.' }]);
    }
    const hook = await t.app.inject({
      method: 'POST',
      url: API.billingWebhook,
      payload: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
    });
    expect([hook.statusCode, hook.json()]).toEqual([503, { detail: BILLING_MESSAGES.notConfigured }]);
    const plan = await t.app.inject({ method: 'GET', url: API.plan, headers: ada.headers });
    expect(plan.json()).toMatchObject({
      plan: 'basic',
      billing: {
        configured: false,
        status: null,
        renews_at: null,
        cancels_at: null,
        past_due: false,
        can_manage: false,
      },
    });
  });

  it('publishes the billing calls in the OpenAPI description', async () => {
    const { paths } = (await t.app.inject({ method: 'GET', url: API.openapi })).json();
    expect(Object.keys(paths[API.billingCheckout].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '409', '429', '503']),
    );
    expect(paths[API.billingPortal].post).toBeDefined();
    expect(Object.keys(paths[API.billingWebhook].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '503']),
    );
  });

  it('still asks who is calling first', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: API.billingCheckout, payload: { plan: 'pro' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('billing with Stripe (the stand-in)', () => {
  let t: TestApp;
  let stand: StripeStandIn;
  const notices: Notice[] = [];
  const { call, ownMessagesUpTo } = ownTestKit(() => t);

  beforeAll(async () => {
    stand = await startStripeStandIn({ webhookSecret: SECRET });
    t = await createTestApp(stripeEnv(stand.url));
    t.ctx.notices.subscribe((notice) => notices.push(notice));
  });
  afterAll(async () => {
    await t.close();
    await stand.close();
  });

  const checkout = (user: SignedInUser, plan: string) => call(user, 'POST', API.billingCheckout, { plan });
  const planOf = async (user: SignedInUser) => (await call(user, 'GET', API.plan)).json();
  /** Delivers a signed event as Stripe would; `tamper` changes the body after signing. */
  const deliver = async (
    type: string,
    object: object,
    options: { created?: number; id?: string; tamper?: (body: string) => string } = {},
  ) => {
    const { event, body, signature } = stand.signedEvent(type, object, options);
    const answer = await t.app.inject({
      method: 'POST',
      url: API.billingWebhook,
      payload: options.tamper ? options.tamper(body) : body,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    });
    return { event, answer };
  };
  /** A person who paid for `plan` through checkout: their customer and live subscription. */
  async function subscriber(plan: 'intermediate' | 'pro', created = 1_800_000_000) {
    const user = await signedInUser(t.ctx);
    expect((await checkout(user, plan)).statusCode).toBe(200);
    const customer = stand.calls.filter((c) => c.path === '/v1/customers').at(-1)!;
    const customerId = [...stand.customers.values()].find(
      (c) => (c.metadata as Record<string, string>).user_id === String(user.id),
    )!.id as string;
    expect(customer.params.metadata).toEqual({ user_id: String(user.id) });
    const sub = stand.subscription({ customer: customerId, price: PRICES[plan] });
    const created_ = await deliver('customer.subscription.created', sub, { created });
    expect(created_.answer.json()).toEqual({ received: true, duplicate: false });
    return { user, customerId, sub };
  }
  const later = (sub: Stripe.Subscription, change: Partial<Stripe.Subscription>) =>
    ({ ...sub, ...change }) as Stripe.Subscription;

  it('gives the Stripe customer a new e-mail address once it is confirmed, for its receipts and invoices', async () => {
    const { user, customerId } = await subscriber('pro');
    const newEmail = `moved-${user.id}@example.com`;
    const asked = await call(user, 'POST', API.setEmail, { current_password: user.password, new_email: newEmail });
    expect(asked.statusCode, asked.body).toBe(204);
    await t.ctx.jobs.settled();
    const mail = (await readOutbox(t.ctx.mailer.outboxDir!)).find((m) => m.to.includes(newEmail))!;
    // Asked, not yet confirmed: Stripe still writes to the address the account has.
    expect(stand.customers.get(customerId)?.email).toBe(user.email);

    const confirmed = await t.app.inject({
      method: 'POST',
      url: API.setEmailConfirm,
      payload: linkParams(mail, 'email/confirm'),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    await t.ctx.jobs.settled();
    expect(stand.customers.get(customerId)?.email).toBe(newEmail);
  });

  it('opens Checkout for each paid plan, creating the Stripe customer once and reusing it', async () => {
    const ada = await signedInUser(t.ctx, { email: 'ada.billing@example.com' });
    const before = await stripeCallsSoFar(t, stand);
    const first = await checkout(ada, 'intermediate');
    expect(first.statusCode).toBe(200);
    expect(first.json().url).toMatch(new RegExp(`^${stand.url}/checkout/cs_test_`));
    const second = await checkout(ada, 'pro');
    expect(second.statusCode).toBe(200);

    const made = stand.calls.slice(before);
    const firstSession = /cs_test_\w+/.exec(first.json().url)![0];
    // The second Checkout, for another plan, expires the first one still open: it can no longer be paid as well.
    expect(made.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/customers',
      'GET /v1/checkout/sessions',
      'POST /v1/checkout/sessions',
      'GET /v1/checkout/sessions',
      `POST /v1/checkout/sessions/${firstSession}/expire`,
      'POST /v1/checkout/sessions',
    ]);
    expect(stand.sessions.get(firstSession)?.status).toBe('expired');
    const [customerCall, , intermediate, , , pro] = made;
    expect(customerCall!.params).toEqual({ email: 'ada.billing@example.com', metadata: { user_id: String(ada.id) } });
    expect(customerCall!.idempotencyKey).toBe(`innerwave-customer-${ada.id}`);
    const customerId = [...stand.customers.keys()].at(-1);
    for (const [session, price] of [
      [intermediate!, PRICES.intermediate],
      [pro!, PRICES.pro],
    ] as const) {
      expect(session.params).toMatchObject({
        mode: 'subscription',
        customer: customerId,
        client_reference_id: String(ada.id),
        line_items: { 0: { price, quantity: '1' } },
        success_url: 'http://innerwave.test/profile?billing=success',
        cancel_url: 'http://innerwave.test/profile?billing=cancelled',
        subscription_data: { metadata: { user_id: String(ada.id) } },
      });
    }
    // Not paid yet: nothing changed, and nothing is offered in the portal (no invoice, no card there).
    expect(await planOf(ada)).toMatchObject({
      plan: 'basic',
      billing: { configured: true, status: null, can_manage: false, renews_at: null },
    });
  });

  describe('one Checkout page open at a time', () => {
    const sessionOf = (url: string) => /cs_test_\w+/.exec(url)![0];
    const openSessionsOf = (user: SignedInUser) =>
      [...stand.sessions.values()].filter(
        (session) => session.client_reference_id === String(user.id) && session.status === 'open',
      );

    it('gives two requests at once (a double click, two tabs) the same page, and a later one too', async () => {
      const una = await signedInUser(t.ctx);
      const both = await Promise.all([checkout(una, 'pro'), checkout(una, 'pro')]);
      expect(both.map((answer) => answer.statusCode)).toEqual([200, 200]);
      const [url] = both.map((answer) => answer.json().url as string);
      expect(both[1]!.json().url).toBe(url);
      expect(openSessionsOf(una).map((session) => session.id)).toEqual([sessionOf(url!)]);
      // Asked again while the page is still open (Back from Checkout, then Upgrade again): the same page.
      const before = await stripeCallsSoFar(t, stand);
      const again = await checkout(una, 'pro');
      expect([again.statusCode, again.json()]).toEqual([200, { url }]);
      expect(stand.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/checkout/sessions']);
    });

    it('opens the plan asked last when two plans are asked at once: only its page can be paid', async () => {
      const vic = await signedInUser(t.ctx);
      await checkout(vic, 'intermediate');
      const [intermediate, pro] = await Promise.all([checkout(vic, 'intermediate'), checkout(vic, 'pro')]);
      expect([intermediate.statusCode, pro.statusCode]).toEqual([200, 200]);
      const open = openSessionsOf(vic);
      expect(open).toHaveLength(1);
      // Whichever came second replaced the other's page, and is the one open.
      const last = (open[0]!.metadata as Record<string, string>).plan;
      expect(open[0]!.id).toBe(sessionOf((last === 'pro' ? pro : intermediate).json().url));
    });

    it('opens a new page in place of one about to expire, or one at a price no longer sold', async () => {
      const wes = await signedInUser(t.ctx);
      const replaced = async (change: (session: Record<string, unknown>) => Record<string, unknown>) => {
        const first = (await checkout(wes, 'pro')).json().url as string;
        const session = stand.sessions.get(sessionOf(first))!;
        stand.sessions.set(String(session.id), change(session));
        const second = await checkout(wes, 'pro');
        expect(second.statusCode).toBe(200);
        expect(second.json().url).not.toBe(first);
        expect(stand.sessions.get(sessionOf(first))?.status).toBe('expired');
        expect(openSessionsOf(wes).map((open) => open.id)).toEqual([sessionOf(second.json().url)]);
      };
      // Ten minutes left to pay.
      await replaced((session) => ({ ...session, expires_at: Math.floor(Date.now() / 1000) + 10 * 60 }));
      // Opened before the operator changed STRIPE_PRICE_PRO: the webhook would not know its price.
      await replaced((session) => ({
        ...session,
        metadata: { ...(session.metadata as object), price: 'price_pro_last_year' },
      }));
    });

    it('waits for a request opening a page, past the time it may take if it died; says so if it takes longer', async () => {
      const xia = await signedInUser(t.ctx);
      const url = (await checkout(xia, 'pro')).json().url as string;
      const holdUntil = (ms: number) =>
        t.ctx.database.db
          .update(billingAccounts)
          .set({ checkoutOpeningUntil: new Date(Date.now() + ms) })
          .where(eq(billingAccounts.userId, xia.id));
      // A request that died opening a page (its worker stopped): its turn lapses, and the next one goes on.
      await holdUntil(700);
      const after = await checkout(xia, 'pro');
      expect([after.statusCode, after.json()]).toEqual([200, { url }]);
      // One still opening a page after the wait: the person is told, and nothing is opened.
      await holdUntil(60_000);
      const before = await stripeCallsSoFar(t, stand);
      const busy = await checkout(xia, 'intermediate');
      expect([busy.statusCode, busy.json()]).toEqual([409, { detail: BILLING_MESSAGES.checkoutOpening }]);
      expect(stand.calls.slice(before)).toEqual([]);
      await holdUntil(-1);
    }, 15_000);
    it('keeps the turn through Stripe calls that take longer together than it is held: still one page', async () => {
      const yan = await signedInUser(t.ctx);
      await checkout(yan, 'intermediate');
      // Held 1.2 s here; each Stripe call takes 800 ms, and replacing the Intermediate page takes three
      // (list, expire, create): the turn outlives its first hold only if it is renewed before each call.
      // (Held for less than two calls, so a request taking it after the first hold lists before the
      // first request's page is created, and would open a second.)
      const turn = CHECKOUT_TURN as { holdMs: number };
      const holdMs = turn.holdMs;
      turn.holdMs = 1_200;
      stand.onCall(() => sleep(800));
      try {
        const first = checkout(yan, 'pro');
        await sleep(100);
        const [a, b] = await Promise.all([first, checkout(yan, 'pro')]);
        expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
        expect(b.json().url).toBe(a.json().url);
        expect(openSessionsOf(yan).map((session) => session.id)).toEqual([sessionOf(a.json().url)]);
      } finally {
        stand.onCall(undefined);
        turn.holdMs = holdMs;
      }
    }, 15_000);

    it('stops a request whose turn another took while a call was slow: 409, no page opened', async () => {
      const zed = await signedInUser(t.ctx);
      await checkout(zed, 'intermediate');
      // Another request took the lapsed turn while the list was answered.
      stand.onCall(async (call) => {
        if (call.path === '/v1/checkout/sessions' && call.method === 'GET')
          await t.ctx.database.db
            .update(billingAccounts)
            .set({ checkoutOpeningUntil: new Date(Date.now() + 30_000) })
            .where(eq(billingAccounts.userId, zed.id));
      });
      const before = await stripeCallsSoFar(t, stand);
      try {
        const answer = await checkout(zed, 'pro');
        expect([answer.statusCode, answer.json()]).toEqual([409, { detail: BILLING_MESSAGES.checkoutOpening }]);
      } finally {
        stand.onCall(undefined);
      }
      expect(stand.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/checkout/sessions']);
      // The other request's turn is left to it.
      const [row] = await t.ctx.database.db.select().from(billingAccounts).where(eq(billingAccounts.userId, zed.id));
      expect(row?.checkoutOpeningUntil).not.toBeNull();
    });

    it('closes the open page when staff set the plan, after the admin API answers and as the CLI says; Stripe out of reach fails neither', async () => {
      const staff = await signedInUser(t.ctx, { isStaff: true });
      const setPlan = (user: SignedInUser, plan: string) =>
        t.app.inject({
          method: 'PATCH',
          url: fillPath(ADMIN_API.user, { id: user.id }),
          payload: { subscription_plan: plan },
          headers: staff.headers,
        });
      const setPlanByCli = async (user: SignedInUser, plan: string) => {
        const [stdout, stderr] = [new PassThrough(), new PassThrough()];
        let [out, err] = ['', ''];
        stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        const env = { DATA_DIR: t.dataDir, SECRET_KEY: 'x'.repeat(48), PUBLIC_URL: 'http://innerwave.test' };
        const code = await runCli(
          ['set-plan', user.email, plan],
          { stdin: Readable.from(['']), stdout, stderr },
          { database: t.database, env: { ...env, ...stripeEnv(stand.url) } },
        );
        return { code, out, err };
      };
      const pageOf = async (user: SignedInUser, plan: string) =>
        sessionOf((await checkout(user, plan)).json().url as string);

      const amy = await signedInUser(t.ctx);
      const amyPage = await pageOf(amy, 'pro');
      // Stripe holds its answer: the plan is set and answered all the same, and the page closed once it answers.
      const listing = stand.hold('GET', '/v1/checkout/sessions');
      try {
        const answer = await setPlan(amy, 'pro');
        expect([answer.statusCode, answer.json().subscription_plan]).toEqual([200, 'pro']);
        expect(stand.sessions.get(amyPage)?.status).toBe('open');
        const expiring = t.ctx.jobs.settled();
        await listing.reached;
        listing.release();
        await expiring;
      } finally {
        listing.release();
      }
      expect(stand.sessions.get(amyPage)?.status).toBe('expired');
      expect(openSessionsOf(amy)).toEqual([]);

      // A page for a plan above the one set stays: the profile would open one for it.
      const abe = await signedInUser(t.ctx);
      const abePage = await pageOf(abe, 'pro');
      expect((await setPlan(abe, 'intermediate')).statusCode).toBe(200);
      await t.ctx.jobs.settled();
      expect(stand.sessions.get(abePage)?.status).toBe('open');

      const ben = await signedInUser(t.ctx);
      const benPage = await pageOf(ben, 'intermediate');
      const byCli = await setPlanByCli(ben, 'intermediate');
      expect(byCli.code, byCli.err).toBe(0);
      expect(byCli.out).toContain(
        'Closing their open Stripe Checkout pages (this waits for Stripe)…\nTheir open Stripe Checkout page can no longer be paid.\n',
      );
      expect(stand.sessions.get(benPage)?.status).toBe('expired');

      // Stripe out of reach: the plan is set all the same, and the page is left as it was: the admin API's
      // job is retried, the CLI tells the operator.
      const cat = await signedInUser(t.ctx);
      const catPage = await pageOf(cat, 'pro');
      const dan = await signedInUser(t.ctx);
      const danPage = await pageOf(dan, 'pro');
      const catJob = () =>
        t.ctx.database.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, 'billing.expire-checkouts'), sql`${jobs.payload} ->> 'userId' = ${String(cat.id)}`));
      stand.setOutage(true);
      try {
        const answer = await setPlan(cat, 'pro');
        expect([answer.statusCode, answer.json().subscription_plan]).toEqual([200, 'pro']);
        await t.ctx.jobs.settled();
        expect((await catJob()).map((job) => job.status)).toEqual(['failed']);
        const refused = await setPlanByCli(dan, 'pro');
        expect(refused.code).toBe(0);
        expect(refused.out).toContain('Closing their open Stripe Checkout pages (this waits for Stripe)…');
        expect(refused.err).toContain('Stripe did not close their open Checkout pages');
      } finally {
        stand.setOutage(false);
      }
      expect((await planOf(cat)).plan).toBe('pro');
      expect((await planOf(dan)).plan).toBe('pro');
      expect([stand.sessions.get(catPage)?.status, stand.sessions.get(danPage)?.status]).toEqual(['open', 'open']);
      // The job's next attempt (its time brought forward) closes the page once Stripe answers again.
      await t.ctx.database.db
        .update(jobs)
        .set({ runAt: new Date() })
        .where(eq(jobs.id, (await catJob())[0]!.id));
      await t.ctx.jobs.settled();
      expect((await catJob()).map((job) => job.status)).toEqual(['done']);
      expect(stand.sessions.get(catPage)?.status).toBe('expired');
    }, 60_000);

    it('closes the open page once a subscription becomes live otherwise than through it; Stripe out of reach is retried', async () => {
      const liveInPortal = async (user: SignedInUser) => {
        const customer = [...stand.customers.values()].find(
          (c) => (c.metadata as Record<string, string>).user_id === String(user.id),
        )!.id as string;
        const subscription = stand.subscription({ customer, price: PRICES.intermediate });
        const { answer } = await deliver('customer.subscription.created', subscription);
        expect([answer.statusCode, answer.json()]).toEqual([200, { received: true, duplicate: false }]);
        return subscription;
      };
      const expiryOf = async (user: SignedInUser) =>
        t.ctx.database.db
          .select()
          .from(jobs)
          .where(
            and(eq(jobs.kind, 'billing.expire-checkouts'), sql`${jobs.payload} ->> 'userId' = ${String(user.id)}`),
          );

      // Intermediate bought in the Customer Portal while a Pro page was open: that page would sell Pro on top.
      const eve = await signedInUser(t.ctx);
      const evePage = sessionOf((await checkout(eve, 'pro')).json().url as string);
      await liveInPortal(eve);
      await t.ctx.jobs.settled();
      expect(stand.sessions.get(evePage)?.status).toBe('expired');
      expect((await planOf(eve)).plan).toBe('intermediate');

      // Stripe out of reach: the webhook is answered as ever, and the job tried again later closes the page.
      const fay = await signedInUser(t.ctx);
      const fayPage = sessionOf((await checkout(fay, 'pro')).json().url as string);
      stand.setOutage(true);
      try {
        await liveInPortal(fay);
        await t.ctx.jobs.settled();
        expect((await expiryOf(fay)).map((job) => job.status)).toEqual(['failed']);
      } finally {
        stand.setOutage(false);
      }
      expect(stand.sessions.get(fayPage)?.status).toBe('open');
      await t.ctx.database.db
        .update(jobs)
        .set({ runAt: new Date() })
        .where(eq(jobs.id, (await expiryOf(fay))[0]!.id));
      await t.ctx.jobs.settled();
      expect(stand.sessions.get(fayPage)?.status).toBe('expired');

      // A job that runs late finds the change undone (the subscription cancelled) and the person's page opened
      // since for sale again: it is theirs to pay, and left open.
      const hal = await signedInUser(t.ctx);
      await checkout(hal, 'pro');
      stand.setOutage(true);
      let portalSubscription: Awaited<ReturnType<typeof liveInPortal>>;
      try {
        portalSubscription = await liveInPortal(hal);
        await t.ctx.jobs.settled();
      } finally {
        stand.setOutage(false);
      }
      const { answer: cancelled } = await deliver(
        'customer.subscription.deleted',
        { ...portalSubscription, status: 'canceled' },
        { created: portalSubscription.created + 60 },
      );
      expect(cancelled.statusCode).toBe(200);
      expect((await planOf(hal)).plan).toBe('basic');
      const halPage = sessionOf((await checkout(hal, 'pro')).json().url as string);
      await t.ctx.database.db
        .update(jobs)
        .set({ runAt: new Date() })
        .where(eq(jobs.id, (await expiryOf(hal))[0]!.id));
      await t.ctx.jobs.settled();
      expect((await expiryOf(hal)).map((job) => job.status)).toEqual(['done']);
      expect(stand.sessions.get(halPage)?.status).toBe('open');
    }, 30_000);

    it('goes on when the earlier page it replaces was expired meanwhile (by the job expiring them)', async () => {
      const gus = await signedInUser(t.ctx);
      const earlier = sessionOf((await checkout(gus, 'intermediate')).json().url as string);
      // Listed open, then expired by someone else just before this request's own expiry reaches Stripe.
      stand.onCall((call) => {
        if (call.path === `/v1/checkout/sessions/${earlier}/expire`)
          stand.sessions.set(earlier, { ...stand.sessions.get(earlier), status: 'expired' });
      });
      try {
        const answer = await checkout(gus, 'pro');
        expect(answer.statusCode).toBe(200);
        expect(openSessionsOf(gus).map((open) => open.id)).toEqual([sessionOf(answer.json().url)]);
      } finally {
        stand.onCall(undefined);
      }
    });

    it('expires a page opened as staff set the plan or a subscription became live, after their pages were listed, in a job while Stripe does not answer', async () => {
      const staff = await signedInUser(t.ctx, { isStaff: true });
      const changes = {
        // Staff grant Pro; their job lists the person's open pages (none yet) and ends.
        staffSetPro: async (user: SignedInUser) => {
          const answer = await t.app.inject({
            method: 'PATCH',
            url: fillPath(ADMIN_API.user, { id: user.id }),
            payload: { subscription_plan: 'pro' },
            headers: staff.headers,
          });
          expect(answer.statusCode).toBe(200);
          await t.ctx.jobs.settled();
        },
        // A subscription of theirs becomes live otherwise than through this page (the Customer Portal).
        subscriptionLive: async (user: SignedInUser) => {
          const customer = [...stand.customers.values()].find(
            (c) => (c.metadata as Record<string, string>).user_id === String(user.id),
          )!.id as string;
          const { answer } = await deliver(
            'customer.subscription.created',
            stand.subscription({ customer, price: PRICES.intermediate }),
          );
          expect(answer.statusCode).toBe(200);
          await t.ctx.jobs.settled();
        },
      };
      const refusals = {
        staffSetPro: [400, { plan: [BILLING_MESSAGES.planHeld('pro', 'pro')] }],
        subscriptionLive: [409, { detail: BILLING_MESSAGES.alreadySubscribed }],
      };
      const cases = Object.entries(changes).flatMap(([name, change]) =>
        [true, false].map((expiryAnswered) => ({ name, change, expiryAnswered })),
      );
      for (const { name, change, expiryAnswered } of cases) {
        const user = await signedInUser(t.ctx);
        const what = `${name}, Stripe ${expiryAnswered ? 'answering' : 'out of reach for'} the page's expiry`;
        // The request has passed its checks, in its turn, and Stripe is creating its page: the change comes now.
        const creating = stand.hold('POST', '/v1/checkout/sessions');
        try {
          const opening = checkout(user, 'pro');
          await creating.reached;
          await change(user);
          // Out of reach for the expiry (and the client's retries of it), back for the job's listing: the job
          // queued instead expires the page, and the person still hears why.
          let back = expiryAnswered;
          stand.onCall((stripeCall) => {
            back ||= stripeCall.method === 'GET';
            stand.setOutage(!back && stripeCall.path.endsWith('/expire'));
          });
          creating.release();
          const answer = await opening;
          expect([answer.statusCode, answer.json()], what).toEqual(refusals[name as keyof typeof refusals]);
          await t.ctx.jobs.settled();
        } finally {
          creating.release();
          stand.onCall(undefined);
          stand.setOutage(false);
        }
        const pages = [...stand.sessions.values()].filter((page) => page.client_reference_id === String(user.id));
        expect(
          pages.map((page) => page.status),
          what,
        ).toEqual(['expired']);
      }
    });

    it('holds the turn for longer than one Stripe call can take, retries included', () => {
      // The client's timeout counts each attempt (a retry waits at most 5 s before it, as the SDK does);
      // the turn is renewed before each call, so it is one call that must fit in a hold.
      const attempts = STRIPE_CLIENT.maxNetworkRetries + 1;
      const longestCall = attempts * STRIPE_CLIENT.timeout + STRIPE_CLIENT.maxNetworkRetries * 5_000;
      expect(longestCall).toBeLessThan(CHECKOUT_TURN.holdMs);
    });
  });

  it('refuses a plan that is not sold and a body that is not one', async () => {
    const bob = await signedInUser(t.ctx);
    for (const payload of [{ plan: 'basic' }, { plan: 'gold' }, { plan: null }]) {
      const answer = await call(bob, 'POST', API.billingCheckout, payload);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ plan: ['Choose one of: intermediate, pro.'] });
    }
    // A body without the field names it missing, as every call does.
    const missing = await call(bob, 'POST', API.billingCheckout, {});
    expect([missing.statusCode, missing.json()]).toEqual([400, { plan: ['This field is required.'] }]);
  });

  it('sells only a plan above one staff granted: the same plan or a lower one is 400, and Stripe is not called', async () => {
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const grant = async (user: SignedInUser, plan: string) =>
      expect(
        (await call(staff, 'PATCH', fillPath(ADMIN_API.user, { id: user.id }), { subscription_plan: plan })).statusCode,
      ).toBe(200);
    const granted = await signedInUser(t.ctx);
    await grant(granted, 'pro');
    const before = await stripeCallsSoFar(t, stand);
    const same = await checkout(granted, 'pro');
    expect([same.statusCode, same.json()]).toEqual([400, { plan: ['You have the Pro plan already.'] }]);
    const lower = await checkout(granted, 'intermediate');
    expect([lower.statusCode, lower.json()]).toEqual([
      400,
      { plan: ['Your Pro plan already includes everything in Intermediate.'] },
    ]);
    expect(stand.calls.slice(before)).toEqual([]);
    expect((await planOf(granted)).plan).toBe('pro');

    // Granted Intermediate: Pro is above it and sold; Intermediate is not.
    const halfway = await signedInUser(t.ctx);
    await grant(halfway, 'intermediate');
    expect((await checkout(halfway, 'intermediate')).statusCode).toBe(400);
    const upgrade = await checkout(halfway, 'pro');
    expect(upgrade.statusCode).toBe(200);
    expect(upgrade.json().url).toMatch(new RegExp(`^${stand.url}/checkout/cs_test_`));
  });

  it('opens the Customer Portal for a customer, back to the profile, which asks for the plan again; 409 before any purchase', async () => {
    const cy = await signedInUser(t.ctx);
    const none = await call(cy, 'POST', API.billingPortal);
    expect([none.statusCode, none.json()]).toEqual([409, { detail: BILLING_MESSAGES.noCustomer }]);
    await checkout(cy, 'pro');
    const portal = await call(cy, 'POST', API.billingPortal);
    expect(portal.statusCode).toBe(200);
    expect(portal.json().url).toMatch(new RegExp(`^${stand.url}/portal/bps_`));
    expect(stand.calls.at(-1)).toMatchObject({
      path: '/v1/billing_portal/sessions',
      params: { return_url: 'http://innerwave.test/profile?billing=portal' },
    });
  });

  it('applies webhooks in order: the price gives the plan, the period end the renewal; every worker hears of it', async () => {
    notices.length = 0;
    const { user, sub } = await subscriber('pro');
    const state = await planOf(user);
    expect(state).toMatchObject({
      plan: 'pro',
      features: { exportMessages: true },
      billing: { status: 'active', past_due: false, cancels_at: null, can_manage: true },
    });
    expect(state.billing.renews_at).toBe(new Date(sub.items.data[0]!.current_period_end * 1000).toISOString());
    expect(notices).toContainEqual({ kind: 'user-changed', userId: user.id });

    // A change of plan in the portal.
    await deliver('customer.subscription.updated', later(sub, {}), { created: 1_800_000_100 });
    const down = stand.subscription({ id: sub.id, customer: sub.customer as string, price: PRICES.intermediate });
    await deliver('customer.subscription.updated', down, { created: 1_800_000_200 });
    expect((await planOf(user)).plan).toBe('intermediate');
    // A live subscription is changed in the portal, not bought again.
    const again = await checkout(user, 'pro');
    expect([again.statusCode, again.json()]).toEqual([409, { detail: BILLING_MESSAGES.alreadySubscribed }]);
  });

  it('follows a second live subscription of the same person (two Checkouts paid at once) and records the other to cancel', async () => {
    const { user, customerId, sub } = await subscriber('intermediate');
    const second = stand.subscription({ customer: customerId, price: PRICES.pro });
    const { event } = stand.signedEvent('customer.subscription.created', second, { created: 1_800_000_100 });
    const outcome = await processEvent(t.ctx.database.db, event, PRICES);
    expect(outcome).toMatchObject({
      userId: user.id,
      planChange: { from: 'intermediate', to: 'pro' },
      result: `subscription active; a second live one (${sub.id}) to cancel and refund`,
    });
    const recorded = await t.ctx.database.db
      .select()
      .from(duplicateSubscriptions)
      .where(eq(duplicateSubscriptions.userId, user.id));
    expect(recorded).toMatchObject([{ subscriptionId: sub.id, keptSubscriptionId: second.id, settledAt: null }]);
    // The same subscription's own later news records nothing more; the other's news is no longer the person's.
    const renewed = stand.signedEvent('customer.subscription.updated', second, { created: 1_800_000_200 }).event;
    expect((await processEvent(t.ctx.database.db, renewed, PRICES)).result).toBe('subscription active');
    const late = stand.signedEvent('customer.subscription.updated', sub, { created: 1_800_000_300 }).event;
    expect((await processEvent(t.ctx.database.db, late, PRICES)).result).toBe(
      'ignored: a second subscription, cancelled and refunded',
    );
    expect((await planOf(user)).plan).toBe('pro');
  });

  it('applies each event once: a replayed event changes nothing', async () => {
    const { user, sub } = await subscriber('intermediate');
    const upgrade = stand.subscription({ id: sub.id, customer: sub.customer as string, price: PRICES.pro });
    const { event } = await deliver('customer.subscription.updated', upgrade, { created: 1_800_000_100 });
    expect((await planOf(user)).plan).toBe('pro');
    // An operator sets the plan by hand; the same event again must not undo it.
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const patched = await call(staff, 'PATCH', fillPath(ADMIN_API.user, { id: user.id }), {
      subscription_plan: 'basic',
    });
    expect(patched.statusCode).toBe(200);
    const replay = await deliver('customer.subscription.updated', upgrade, { created: 1_800_000_100, id: event.id });
    expect([replay.answer.statusCode, replay.answer.json()]).toEqual([200, { received: true, duplicate: true }]);
    expect((await planOf(user)).plan).toBe('basic');
  });

  it('is safe out of order: an older event arriving late changes nothing', async () => {
    const { user, sub } = await subscriber('pro', 1_800_000_000);
    const cancelling = later(sub, { cancel_at_period_end: true });
    await deliver('customer.subscription.updated', cancelling, { created: 1_800_000_300 });
    // The earlier "renewing" update arrives after it.
    await deliver('customer.subscription.updated', later(sub, {}), { created: 1_800_000_200 });
    const state = await planOf(user);
    expect(state.plan).toBe('pro');
    expect(state.billing.cancels_at).toBe(new Date(sub.items.data[0]!.current_period_end * 1000).toISOString());
    // The deletion, then a late update of the same subscription: an ended subscription stays ended.
    await deliver('customer.subscription.deleted', later(sub, { status: 'canceled' }), { created: 1_800_000_400 });
    await deliver('customer.subscription.updated', later(sub, {}), { created: 1_800_000_500 });
    expect(await planOf(user)).toMatchObject({ plan: 'basic', billing: { status: 'canceled' } });
  });

  it('takes a subscription said incomplete after it was active in the same second for old news: it stays paid for', async () => {
    // Checkout's subscription is created incomplete and made active once paid, both events in the same
    // second; Stripe may deliver them in either order.
    const user = await signedInUser(t.ctx);
    expect((await checkout(user, 'intermediate')).statusCode).toBe(200);
    const customer = [...stand.customers.values()].find(
      (c) => (c.metadata as Record<string, string>).user_id === String(user.id),
    )!.id as string;
    const sub = stand.subscription({ customer, price: PRICES.intermediate, status: 'incomplete' });
    await deliver('customer.subscription.updated', later(sub, { status: 'active' }), { created: 1_800_000_000 });
    expect(await planOf(user)).toMatchObject({ plan: 'intermediate', billing: { status: 'active' } });
    await deliver('customer.subscription.created', sub, { created: 1_800_000_000 });
    expect(await planOf(user)).toMatchObject({ plan: 'intermediate', billing: { status: 'active', past_due: false } });
    // Still live: a second subscription is not sold beside it.
    const again = await checkout(user, 'pro');
    expect([again.statusCode, again.json()]).toEqual([409, { detail: BILLING_MESSAGES.alreadySubscribed }]);
  });

  it('applies two changes of one second delivered in the other order as Stripe has the subscription now', async () => {
    const { user, sub } = await subscriber('pro', 1_800_000_000);
    const periodEnd = new Date(sub.items.data[0]!.current_period_end * 1000).toISOString();
    const cancelling = later(sub, { cancel_at_period_end: true });
    // Cancelled, then "Keep subscription", in one second: Stripe has it kept, and sends "keep" first.
    stand.subscriptions.set(sub.id, sub);
    await deliver('customer.subscription.updated', sub, { created: 1_800_000_100 });
    const asked = () => stand.calls.filter((c) => c.method === 'GET' && c.path === `/v1/subscriptions/${sub.id}`);
    expect(asked()).toHaveLength(0);
    const { event, answer } = await deliver('customer.subscription.updated', cancelling, { created: 1_800_000_100 });
    expect(answer.json()).toEqual({ received: true, duplicate: false });
    expect(await planOf(user)).toMatchObject({ plan: 'pro', billing: { renews_at: periodEnd, cancels_at: null } });
    expect(asked()).toHaveLength(1);
    // Its resend asks nothing and changes nothing.
    await deliver('customer.subscription.updated', cancelling, { created: 1_800_000_100, id: event.id });
    expect(asked()).toHaveLength(1);

    // The other way round (kept, then cancelled), with Stripe out of reach at first: 503, nothing stored,
    // and Stripe's resend of the same event applies it.
    stand.subscriptions.set(sub.id, cancelling);
    await deliver('customer.subscription.updated', cancelling, { created: 1_800_000_200 });
    stand.setOutage(true);
    const kept = await deliver('customer.subscription.updated', sub, { created: 1_800_000_200 });
    stand.setOutage(false);
    expect(kept.answer.statusCode).toBe(503);
    const resent = await deliver('customer.subscription.updated', sub, { created: 1_800_000_200, id: kept.event.id });
    expect(resent.answer.json()).toEqual({ received: true, duplicate: false });
    expect(await planOf(user)).toMatchObject({ plan: 'pro', billing: { renews_at: null, cancels_at: periodEnd } });
  });

  it('refuses a missing, wrong or stale signature and a changed body (400), changing nothing', async () => {
    const { user, sub } = await subscriber('pro');
    const deleted = later(sub, { status: 'canceled' });
    const tampered = await deliver('customer.subscription.deleted', deleted, {
      created: 1_800_000_900,
      tamper: (body) => body.replace('"canceled"', '"canceled" '),
    });
    expect([tampered.answer.statusCode, tampered.answer.json()]).toEqual([
      400,
      { detail: 'The webhook signature is not valid.' },
    ]);
    const { body } = stand.signedEvent('customer.subscription.deleted', deleted);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: API.billingWebhook,
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect([unsigned.statusCode, unsigned.json()]).toEqual([400, { detail: 'Missing Stripe-Signature header.' }]);
    const forged = await t.app.inject({
      method: 'POST',
      url: API.billingWebhook,
      payload: body,
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=00ff` },
    });
    expect(forged.statusCode).toBe(400);
    const otherSecret = await startStripeStandIn({ webhookSecret: 'whsec_someone_else' });
    const foreign = otherSecret.signedEvent('customer.subscription.deleted', deleted);
    await otherSecret.close();
    const wrongSecret = await t.app.inject({
      method: 'POST',
      url: API.billingWebhook,
      payload: foreign.body,
      headers: { 'content-type': 'application/json', 'stripe-signature': foreign.signature },
    });
    expect(wrongSecret.statusCode).toBe(400);
    const notJson = await t.app.inject({
      method: 'POST',
      url: API.billingWebhook,
      payload: body,
      headers: { 'content-type': 'text/plain', 'stripe-signature': foreign.signature },
    });
    expect(notJson.statusCode).toBe(415);
    expect((await planOf(user)).plan).toBe('pro');
  });

  it('refuses a signed event that is malformed (400) and records nothing; a reference that is not a decimal user id is ignored', async () => {
    const { user, customerId, sub } = await subscriber('pro');
    const storedEvents = async () => (await t.ctx.database.db.select().from(stripeEvents)).length;
    const before = await storedEvents();
    const post = (body: string) =>
      t.app.inject({
        method: 'POST',
        url: API.billingWebhook,
        payload: body,
        headers: { 'content-type': 'application/json', 'stripe-signature': stand.sign(body) },
      });
    const event = (fields: object) =>
      JSON.stringify({ id: 'evt_malformed', object: 'event', created: 1_800_000_900, type: 'ping', ...fields });
    const malformed = [
      // Signed, but not JSON: the signature holds, the event does not.
      'not json',
      '{"id":',
      '[]',
      '{}',
      '"evt_1"',
      '{"id":null}',
      event({ id: 'evt_\u0000' }),
      event({ id: '' }),
      event({ type: 42 }),
      event({ type: 'customer.subscription.updated', data: null }),
      event({ type: 'customer.subscription.updated', data: {} }),
      event({ type: 'customer.subscription.updated', data: { object: [] } }),
      event({ type: 'customer.subscription.updated', created: 'soon', data: { object: sub } }),
      event({ type: 'customer.subscription.updated', data: { object: { ...sub, customer: { id: 5 } } } }),
      event({ type: 'customer.subscription.updated', data: { object: { ...sub, status: null } } }),
      event({ type: 'customer.subscription.deleted', data: { object: { ...sub, id: 7 } } }),
      event({ type: 'checkout.session.completed', data: { object: { mode: 'subscription', customer: 5 } } }),
      event({ type: 'invoice.payment_failed', data: { object: { customer: customerId, subscription: ['x'] } } }),
    ];
    for (const body of malformed) {
      const answer = await post(body);
      expect([body, answer.statusCode, answer.json()]).toEqual([
        body,
        400,
        { detail: 'The webhook event is malformed.' },
      ]);
    }
    expect(await storedEvents()).toBe(before);
    expect((await planOf(user)).plan).toBe('pro');

    // Well formed, but naming a user only in a form Number() reads ("1e0", "1.0"): not ours, ignored.
    const bob = await signedInUser(t.ctx);
    const paid = await deliver('checkout.session.completed', {
      id: 'cs_exponent',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: `${bob.id}e0`,
      customer: 'cus_exponent',
      subscription: 'sub_exponent',
    });
    expect([paid.answer.statusCode, paid.answer.json()]).toEqual([200, { received: true, duplicate: false }]);
    for (const [customer, userId] of [
      ['cus_exponent', undefined],
      ['cus_decimal', `${bob.id}.0`],
      ['cus_padded', ` ${bob.id}`],
    ] as const) {
      const bobs = stand.subscription({
        id: `sub_${customer}`,
        customer,
        price: PRICES.pro,
        ...(userId && { metadata: { user_id: userId } }),
      });
      const created = await deliver('customer.subscription.created', bobs);
      expect(created.answer.statusCode).toBe(200);
    }
    expect(await planOf(bob)).toMatchObject({ plan: 'basic', billing: { status: null } });
  });

  it('keeps the plan and warns when a payment fails, until it is paid', async () => {
    const { user, sub } = await subscriber('intermediate');
    const invoice = {
      id: 'in_failed',
      object: 'invoice',
      customer: sub.customer,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
    };
    await deliver('invoice.payment_failed', invoice, { created: 1_800_000_100 });
    expect(await planOf(user)).toMatchObject({
      plan: 'intermediate',
      billing: { status: 'past_due', past_due: true },
    });
    await deliver('customer.subscription.updated', later(sub, { status: 'past_due' }), { created: 1_800_000_110 });
    expect((await planOf(user)).billing.past_due).toBe(true);
    // Stripe's retry succeeded.
    await deliver('customer.subscription.updated', later(sub, { status: 'active' }), { created: 1_800_000_200 });
    expect(await planOf(user)).toMatchObject({ plan: 'intermediate', billing: { status: 'active', past_due: false } });
    // Retries exhausted: unpaid drops to Basic.
    await deliver('customer.subscription.updated', later(sub, { status: 'unpaid' }), { created: 1_800_000_300 });
    expect(await planOf(user)).toMatchObject({ plan: 'basic', billing: { status: 'unpaid', renews_at: null } });
  });

  it('shows a cancellation at period end, keeps the plan until the deletion, then Basic; buying again works', async () => {
    const { user, sub } = await subscriber('pro');
    await deliver('customer.subscription.updated', later(sub, { cancel_at_period_end: true }), {
      created: 1_800_000_100,
    });
    const periodEnd = new Date(sub.items.data[0]!.current_period_end * 1000).toISOString();
    expect(await planOf(user)).toMatchObject({
      plan: 'pro',
      billing: { status: 'active', renews_at: null, cancels_at: periodEnd },
    });
    await deliver('customer.subscription.deleted', later(sub, { status: 'canceled' }), { created: 1_800_000_200 });
    expect(await planOf(user)).toMatchObject({
      plan: 'basic',
      billing: { status: 'canceled', renews_at: null, cancels_at: null, can_manage: true },
    });
    // A new subscription later: checkout is open again, and the old one's news changes nothing.
    const customers = stand.customers.size;
    expect((await checkout(user, 'intermediate')).statusCode).toBe(200);
    expect(stand.customers.size).toBe(customers);
    const fresh = stand.startSubscription({ customer: sub.customer as string, price: PRICES.intermediate });
    await deliver('customer.subscription.created', fresh, { created: 1_800_000_300 });
    await deliver('customer.subscription.deleted', later(sub, { status: 'canceled' }), { created: 1_800_000_400 });
    expect(await planOf(user)).toMatchObject({ plan: 'intermediate', billing: { status: 'active' } });
  });

  it('keeps a former subscriber’s portal when a later Checkout’s first payment never goes through', async () => {
    const { user, customerId, sub } = await subscriber('pro');
    await deliver('customer.subscription.deleted', later(sub, { status: 'canceled' }), { created: 1_800_000_100 });
    expect((await checkout(user, 'intermediate')).statusCode).toBe(200);
    const unpaid = stand.subscription({ customer: customerId, price: PRICES.intermediate, status: 'incomplete' });
    await deliver('checkout.session.completed', {
      id: 'cs_unpaid',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: String(user.id),
      customer: customerId,
      subscription: unpaid.id,
      payment_status: 'unpaid',
    });
    await deliver('customer.subscription.created', unpaid, { created: 1_800_000_200 });
    await deliver('customer.subscription.updated', later(unpaid, { status: 'incomplete_expired' }), {
      created: 1_800_000_300,
    });
    // Their invoices and card are still in the portal: the former subscription stays the one shown.
    expect(await planOf(user)).toMatchObject({ plan: 'basic', billing: { status: 'canceled', can_manage: true } });
  });

  it('after a downgrade keeps own content above the limit readable and deletable, and refuses more', async () => {
    const { user, sub } = await subscriber('pro');
    const categoryId = await ownMessagesUpTo(user, 205);
    await deliver('customer.subscription.deleted', later(sub, { status: 'canceled' }), { created: 1_800_000_100 });
    expect((await planOf(user)).plan).toBe('basic');
    const listed = await call(user, 'GET', API.myCategories);
    expect(listed.statusCode).toBe(200);
    const messages = listed.json()[0].messages as { id: number }[];
    expect(messages).toHaveLength(205);
    const more = await call(user, 'POST', fillPath(API.myCategoryMessages, { id: categoryId }), {
      message_text: 'One more',
    });
    expect(more.statusCode).toBe(403);
    expect(more.json()).toMatchObject({ code: 'plan_limit', required_plan: 'intermediate' });
    const removed = await call(user, 'DELETE', fillPath(API.myMessage, { id: messages[0]!.id }));
    expect(removed.statusCode).toBe(204);
    expect((await planOf(user)).usage.ownMessages).toBe(204);
  });

  it('shows staff the plan status and Stripe ids', async () => {
    const { user, customerId, sub } = await subscriber('pro');
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const detail = await call(staff, 'GET', fillPath(ADMIN_API.user, { id: user.id }));
    expect(detail.json()).toMatchObject({
      subscription_plan: 'pro',
      billing: {
        status: 'active',
        past_due: false,
        cancel_at_period_end: false,
        stripe_customer_id: customerId,
        stripe_subscription_id: sub.id,
      },
    });
    const listed = await call(staff, 'GET', `${ADMIN_API.users}?search=${encodeURIComponent(user.email)}`);
    expect(listed.json().results[0].billing.stripe_customer_id).toBe(customerId);
  });

  it('shows staff every second subscription still to settle, not only the latest, and the latest settled', async () => {
    const { user, sub } = await subscriber('pro');
    const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 12, minute));
    const second = (id: string, minute: number, fields: Partial<typeof duplicateSubscriptions.$inferInsert> = {}) => ({
      subscriptionId: id,
      userId: user.id,
      keptSubscriptionId: sub.id,
      foundAt: at(minute),
      ...fields,
    });
    const settled = { settledAt: at(59), refundedAmount: 5600, currency: 'usd' };
    await t.ctx.database.db
      .insert(duplicateSubscriptions)
      .values([
        second(`sub_old_settled_${user.id}`, 1, settled),
        second(`sub_refused_${user.id}`, 2, { failure: 'No such subscription' }),
        second(`sub_pending_${user.id}`, 3),
        second(`sub_new_settled_${user.id}`, 4, settled),
      ]);
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const listed = await call(staff, 'GET', `${ADMIN_API.users}?search=${encodeURIComponent(user.email)}`);
    const detail = await call(staff, 'GET', fillPath(ADMIN_API.user, { id: user.id }));
    for (const seen of [listed.json().results[0], detail.json()])
      expect(seen.billing.second_subscriptions).toEqual([
        {
          subscription_id: `sub_refused_${user.id}`,
          settled_at: null,
          refunded_amount: null,
          currency: null,
          failure: 'No such subscription',
        },
        {
          subscription_id: `sub_pending_${user.id}`,
          settled_at: null,
          refunded_amount: null,
          currency: null,
          failure: null,
        },
        {
          subscription_id: `sub_new_settled_${user.id}`,
          settled_at: at(59).toISOString(),
          refunded_amount: 5600,
          currency: 'usd',
          failure: null,
        },
      ]);
    // Someone who never had one: none.
    const { user: single } = await subscriber('intermediate');
    expect(
      (await call(staff, 'GET', fillPath(ADMIN_API.user, { id: single.id }))).json().billing.second_subscriptions,
    ).toEqual([]);
  });

  it('ignores events it does not handle and subscriptions of customers it does not know', async () => {
    const other = await deliver('customer.created', { id: 'cus_elsewhere', object: 'customer' });
    expect(other.answer.json()).toEqual({ received: true, duplicate: false });
    const stranger = stand.subscription({ customer: 'cus_unknown', price: PRICES.pro });
    expect((await deliver('customer.subscription.created', stranger)).answer.statusCode).toBe(200);
  });

  it(`limits checkout and portal sessions per person and hour`, async () => {
    const { user } = await subscriber('pro');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await call(user, 'POST', API.billingPortal)).statusCode);
    // The subscriber's checkout counted once.
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(statuses.at(-1)).toBe(429);
  });

  it('cancels the live subscription at Stripe before an account is deleted', async () => {
    const { user, sub } = await subscriber('pro');
    stand.subscriptions.set(sub.id, sub);
    const deleted = await call(user, 'DELETE', API.me, { current_password: user.password });
    expect(deleted.statusCode).toBe(204);
    expect(stand.calls).toContainEqual(
      expect.objectContaining({ method: 'DELETE', path: `/v1/subscriptions/${sub.id}` }),
    );
    expect(stand.subscriptions.get(sub.id)?.status).toBe('canceled');
    // Stripe unreachable (the stand-in stopped; the last test of this block): nothing is deleted.
    const { user: other, sub: unknownToStripe } = await subscriber('intermediate');
    stand.subscriptions.set(unknownToStripe.id, unknownToStripe);
    await stand.close();
    const refused = await call(other, 'DELETE', API.me, { current_password: other.password });
    expect([refused.statusCode, refused.json()]).toEqual([503, { detail: BILLING_MESSAGES.cancelBeforeDeleteFailed }]);
    expect((await planOf(other)).plan).toBe('intermediate');
  });
});

describe('the stand-in’s hosted Checkout page', () => {
  let t: TestApp;
  let stand: StripeStandIn;
  beforeAll(async () => {
    ({ t, stand } = await appListeningToStandIn());
  });
  afterAll(async () => {
    await t.close();
    await stand.close();
  });

  it('takes the payment: signed events reach the webhook, the browser goes back to the profile, the plan is Pro', async () => {
    const eve = await signedInUser(t.ctx);
    const { url } = (
      await t.app.inject({ method: 'POST', url: API.billingCheckout, payload: { plan: 'pro' }, headers: eve.headers })
    ).json();
    const page = await fetch(url);
    expect(await page.text()).toContain('Pro');
    const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('http://innerwave.test/profile?billing=success');
    expect(stand.events.map((e) => [e.event.type, e.status])).toEqual([
      ['checkout.session.completed', 200],
      ['customer.subscription.created', 200],
    ]);
    const plan = await t.app.inject({ method: 'GET', url: API.plan, headers: eve.headers });
    expect(plan.json()).toMatchObject({ plan: 'pro', billing: { status: 'active' } });
  });

  it('a Pro subscriber whose payment failed and who moves to Intermediate in the portal has Intermediate at once; back to Pro only once paid', async () => {
    const hal = await signedInUser(t.ctx);
    const ask = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: hal.headers });
    const planNow = async () => (await ask('GET', API.plan)).json();
    const { url } = (await ask('POST', API.billingCheckout, { plan: 'pro' })).json();
    expect((await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const portal = (await ask('POST', API.billingPortal)).json<{ url: string }>().url;
    const press = async (action: string, form: Record<string, string> = {}) =>
      expect(
        (await fetch(`${portal}/${action}`, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' }))
          .status,
      ).toBe(303);

    await press('fail');
    expect(await planNow()).toMatchObject({ plan: 'pro', billing: { status: 'past_due', past_due: true } });
    // Chose to pay less: no Pro for free while the card is retried.
    await press('change', { price: PRICES.intermediate });
    expect(await planNow()).toMatchObject({ plan: 'intermediate', billing: { status: 'past_due', past_due: true } });
    // Chose Pro again, still unpaid: it comes with the payment, not before.
    await press('change', { price: PRICES.pro });
    expect((await planNow()).plan).toBe('intermediate');
    await press('pay');
    expect(await planNow()).toMatchObject({ plan: 'pro', billing: { status: 'active', past_due: false } });
    expect(stand.events.slice(-2).map((e) => [e.event.type, e.status])).toEqual([
      ['invoice.paid', 200],
      ['customer.subscription.updated', 200],
    ]);
  });

  it('a Checkout whose first payment never went through (incomplete_expired) is offered no portal and takes no plan granted: nothing was paid', async () => {
    const ida = await signedInUser(t.ctx);
    const ask = (method: 'GET' | 'POST', url: string) => t.app.inject({ method, url, headers: ida.headers });
    // Staff granted her Intermediate; she tries Pro.
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const granted = await t.app.inject({
      method: 'PATCH',
      url: fillPath(ADMIN_API.user, { id: ida.id }),
      payload: { subscription_plan: 'intermediate' },
      headers: staff.headers,
    });
    expect(granted.statusCode).toBe(200);
    const { url } = (
      await t.app.inject({ method: 'POST', url: API.billingCheckout, payload: { plan: 'pro' }, headers: ida.headers })
    ).json<{ url: string }>();
    const session = stand.sessions.get(/cs_test_\w+/.exec(url)![0])!;
    const price = (session.line_items as Record<string, { price: string }>)['0']!.price;
    const sub = stand.subscription({
      customer: String(session.customer),
      price,
      status: 'incomplete',
      metadata: { user_id: String(ida.id) },
    });
    stand.subscriptions.set(sub.id, sub);
    await stand.sendEvent('checkout.session.completed', { ...session, payment_status: 'unpaid', subscription: sub.id });
    await stand.sendEvent('customer.subscription.created', sub, { created: 1_800_000_000 });
    expect((await ask('GET', API.plan)).json()).toMatchObject({
      plan: 'intermediate',
      billing: { status: 'incomplete' },
    });
    // Stripe gives the first payment 23 hours, then ends the subscription: nothing was ever paid.
    const expired = { ...sub, status: 'incomplete_expired' } as Stripe.Subscription;
    stand.subscriptions.set(sub.id, expired);
    await stand.sendEvent('customer.subscription.updated', expired, { created: 1_800_000_100 });
    expect((await ask('GET', API.plan)).json()).toMatchObject({
      plan: 'intermediate',
      billing: { status: 'incomplete_expired', renews_at: null, cancels_at: null, past_due: false, can_manage: false },
    });
    // The portal call still opens for the customer, and, as Stripe's, has no subscription to manage.
    const portal = await ask('POST', API.billingPortal);
    expect(portal.statusCode).toBe(200);
    expect(await (await fetch(portal.json<{ url: string }>().url)).text()).toContain('No live subscription.');
    // Checkout is open again.
    const again = await t.app.inject({
      method: 'POST',
      url: API.billingCheckout,
      payload: { plan: 'pro' },
      headers: ida.headers,
    });
    expect(again.statusCode).toBe(200);
  });

  it('takes one payment of two Checkout pages opened one after the other: no second subscription', async () => {
    const fay = await signedInUser(t.ctx);
    const open = async (plan: string) =>
      (await t.app.inject({ method: 'POST', url: API.billingCheckout, payload: { plan }, headers: fay.headers })).json<{
        url: string;
      }>().url;
    const intermediate = await open('intermediate');
    const pro = await open('pro');
    const sent = stand.events.length;
    const stale = await fetch(`${intermediate}/pay`, { method: 'POST', redirect: 'manual' });
    expect(stale.status).toBe(410);
    expect(stand.events.length).toBe(sent);
    expect((await fetch(`${pro}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const plan = await t.app.inject({ method: 'GET', url: API.plan, headers: fay.headers });
    expect(plan.json()).toMatchObject({ plan: 'pro', billing: { status: 'active' } });
  });

  it('cancels and refunds a subscription paid while the account was being deleted', async () => {
    const gil = await signedInUser(t.ctx);
    const { url } = (
      await t.app.inject({ method: 'POST', url: API.billingCheckout, payload: { plan: 'pro' }, headers: gil.headers })
    ).json();
    expect((await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const customer = String(stand.sessions.get(url.split('/').pop()!)?.customer);
    // While the deletion cancels what it listed, a page opened in another tab is paid: a new subscription.
    let startedMeanwhile: Stripe.Subscription | undefined;
    stand.onCall((call) => {
      if (call.method !== 'DELETE' || startedMeanwhile) return;
      startedMeanwhile = stand.startSubscription({
        customer,
        price: PRICES.intermediate,
        metadata: { user_id: String(gil.id) },
      });
    });
    try {
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: API.me,
        payload: { current_password: gil.password },
        headers: gil.headers,
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
    } finally {
      stand.onCall(undefined);
    }
    await stand.idle();
    expect(startedMeanwhile).toBeDefined();
    expect(stand.subscriptions.get(startedMeanwhile!.id)?.status).toBe('canceled');
    expect(
      [...stand.refunds.values()].filter((refund) => refund.metadata?.subscription === startedMeanwhile!.id),
    ).toMatchObject([{ amount: 3600, reason: 'requested_by_customer' }]);
    expect(
      [...stand.subscriptions.values()].filter((sub) => sub.customer === customer && sub.status !== 'canceled'),
    ).toEqual([]);
  });
});

describe('events late and out of order (the stand-in holds them)', () => {
  let t: TestApp;
  let stand: StripeStandIn;
  beforeAll(async () => {
    ({ t, stand } = await appListeningToStandIn());
  });
  afterAll(async () => {
    await t.close();
    await stand.close();
  });

  /** A second after the real clock's, for changes the stand-in makes within one second. */
  const later = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;
  /** The reads of a subscription the webhook made at Stripe so far. */
  const readsOf = (subscriptionId: string) =>
    stand.calls.filter((call) => call.method === 'GET' && call.path === `/v1/subscriptions/${subscriptionId}`).length;

  /** A person who paid for `plan` on the stand-in's Checkout (its events delivered), with their portal's buttons. */
  async function payingMember(plan: 'intermediate' | 'pro') {
    const user = await signedInUser(t.ctx);
    const ask = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: user.headers });
    const { url } = (await ask('POST', API.billingCheckout, { plan })).json<{ url: string }>();
    expect((await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const subscriptionId = String(stand.sessions.get(/cs_test_\w+/.exec(url)![0])!.subscription);
    const portal = (await ask('POST', API.billingPortal)).json<{ url: string }>().url;
    /** Presses a portal button; answers the events it made, held. */
    const press = async (action: string, form: Record<string, string> = {}) => {
      const from = stand.heldEvents().length;
      const pressed = await fetch(`${portal}/${action}`, {
        method: 'POST',
        body: new URLSearchParams(form),
        redirect: 'manual',
      });
      expect(pressed.status).toBe(303);
      return stand.heldEvents().slice(from);
    };
    const planNow = async () => (await ask('GET', API.plan)).json();
    const periodEnd = new Date(
      stand.subscriptions.get(subscriptionId)!.items.data[0]!.current_period_end * 1000,
    ).toISOString();
    return { user, subscriptionId, press, planNow, periodEnd };
  }
  /** Holds every event made by `act`, in one second of the stand-in's clock; answers them. */
  async function heldInOneSecond<T>(second: number, act: () => Promise<T>): Promise<T> {
    stand.holdEvents(true);
    stand.setTime(second);
    try {
      return await act();
    } finally {
      stand.holdEvents(false);
      stand.setTime(undefined);
    }
  }
  const ids = (...events: (Stripe.Event | undefined)[]) => events.map((event) => event!.id);
  const delivered = (sent: { status: number }[]) => expect(sent.map((one) => one.status)).toEqual(sent.map(() => 200));

  it('asks Stripe again when another event changed the row while it asked: that answer was stale, the second is applied', async () => {
    const { subscriptionId, press, planNow, periodEnd } = await payingMember('pro');
    // In one second: cancel, switch to Intermediate, keep. Stripe's answer to the next read is made between
    // the switch and "keep": it still cancels.
    const [cancelled, switched, kept] = await heldInOneSecond(later(100), async () => {
      const [cancel] = await press('cancel');
      const [change] = await press('change', { price: PRICES.intermediate });
      stand.staleRead(subscriptionId);
      const [keep] = await press('renew');
      return [cancel, change, keep];
    });
    delivered(await stand.releaseEvents(ids(cancelled)));
    expect(await planNow()).toMatchObject({ plan: 'pro', billing: { cancels_at: periodEnd } });
    const reads = readsOf(subscriptionId);
    // The switch ties with the cancellation and asks; while Stripe answers, "keep" lands (and asks too).
    const read = stand.hold('GET', `/v1/subscriptions/${subscriptionId}`);
    const switching = stand.releaseEvents(ids(switched));
    await read.reached;
    delivered(await stand.releaseEvents(ids(kept)));
    expect(await planNow()).toMatchObject({
      plan: 'intermediate',
      billing: { renews_at: periodEnd, cancels_at: null },
    });
    read.release();
    delivered(await switching);
    // The stale answer (Intermediate, cancelling) is not applied over "keep": the switch asked again.
    expect(await planNow()).toMatchObject({
      plan: 'intermediate',
      billing: { renews_at: periodEnd, cancels_at: null },
    });
    expect(readsOf(subscriptionId) - reads).toBe(3);
  });

  it('takes an update arriving after the deletion for old news, of the same second or an earlier one: the plan ends', async () => {
    for (const gap of [0, 1]) {
      const { user, press, planNow } = await payingMember('pro');
      const second = later(100);
      const [switched] = await heldInOneSecond(second, () => press('change', { price: PRICES.intermediate }));
      const [ended] = await heldInOneSecond(second + gap, () => press('end'));
      expect([switched!.type, ended!.type]).toEqual(['customer.subscription.updated', 'customer.subscription.deleted']);
      delivered(await stand.releaseEvents(ids(ended, switched)));
      expect(await planNow(), `${gap} s apart`).toMatchObject({ plan: 'basic', billing: { status: 'canceled' } });
      // Checkout is open again: nothing live is left.
      const again = await t.app.inject({
        method: 'POST',
        url: API.billingCheckout,
        payload: { plan: 'pro' },
        headers: user.headers,
      });
      expect(again.statusCode).toBe(200);
    }
  });

  it('takes a failed payment’s invoice arriving before its subscription’s news, and one paid again within its second, as Stripe has it', async () => {
    // The invoice first: past due, as the subscription's news then says too.
    const failing = await payingMember('intermediate');
    const [pastDue, failed] = await heldInOneSecond(later(100), () => failing.press('fail'));
    expect([pastDue!.type, failed!.type]).toEqual(['customer.subscription.updated', 'invoice.payment_failed']);
    delivered(await stand.releaseEvents(ids(failed)));
    expect(await failing.planNow()).toMatchObject({
      plan: 'intermediate',
      billing: { status: 'past_due', past_due: true },
    });
    delivered(await stand.releaseEvents(ids(pastDue)));
    expect(await failing.planNow()).toMatchObject({
      plan: 'intermediate',
      billing: { status: 'past_due', past_due: true },
    });

    // Failed and paid in one second, the "active again" delivered first: the failure is older news.
    const paying = await payingMember('pro');
    const events = await heldInOneSecond(later(100), async () => [
      ...(await paying.press('fail')),
      ...(await paying.press('pay')),
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'customer.subscription.updated',
      'invoice.payment_failed',
      'invoice.paid',
      'customer.subscription.updated',
    ]);
    const [wentPastDue, failedToo, paid, active] = events;
    delivered(await stand.releaseEvents(ids(active, failedToo, wentPastDue, paid)));
    expect(await paying.planNow()).toMatchObject({ plan: 'pro', billing: { status: 'active', past_due: false } });
    expect(readsOf(paying.subscriptionId)).toBe(2);
  });

  it('costs a first purchase no Stripe read when its "created" (incomplete) and "active" news share a second, in either order', async () => {
    for (const order of ['as made', 'the other way round']) {
      const user = await signedInUser(t.ctx);
      const { url } = (
        await t.app.inject({
          method: 'POST',
          url: API.billingCheckout,
          payload: { plan: 'pro' },
          headers: user.headers,
        })
      ).json<{ url: string }>();
      const session = stand.sessions.get(/cs_test_\w+/.exec(url)![0])!;
      // As Stripe's Checkout does: the subscription is created incomplete and made active once paid.
      const incomplete = stand.startSubscription({
        customer: String(session.customer),
        price: PRICES.pro,
        status: 'incomplete',
        metadata: { user_id: String(user.id) },
      });
      const active = { ...incomplete, status: 'active' } as Stripe.Subscription;
      stand.subscriptions.set(active.id, active);
      const made = await heldInOneSecond(later(100), async () => [
        (
          await stand.sendEvent('checkout.session.completed', {
            ...session,
            status: 'complete',
            subscription: active.id,
          })
        ).event,
        (await stand.sendEvent('customer.subscription.created', incomplete)).event,
        (await stand.sendEvent('customer.subscription.updated', active)).event,
      ]);
      delivered(await stand.releaseEvents(ids(...(order === 'as made' ? made : made.toReversed()))));
      const plan = await t.app.inject({ method: 'GET', url: API.plan, headers: user.headers });
      expect(plan.json(), order).toMatchObject({ plan: 'pro', billing: { status: 'active' } });
      expect(readsOf(active.id), order).toBe(0);
    }
  });
});

describe('two Checkouts paid at the same moment', () => {
  let t: TestApp;
  let stand: StripeStandIn;
  let webhook: string;
  const lines: string[] = [];
  beforeAll(async () => {
    stand = await startStripeStandIn({
      webhookSecret: SECRET,
      amounts: { [PRICES.intermediate]: 3600, [PRICES.pro]: 5600 },
    });
    t = await createTestApp(stripeEnv(stand.url), {
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    webhook = `http://127.0.0.1:${port}${API.billingWebhook}`;
  });
  afterAll(async () => {
    await t.close();
    await stand.close();
  });

  const planOf = async (user: SignedInUser) =>
    (await t.app.inject({ method: 'GET', url: API.plan, headers: user.headers })).json();
  /**
   * A person pays two Checkout pages, each before the other's events reach the app (they are held back):
   * both subscriptions are live at Stripe. Answers the held events: the sessions' then the subscriptions'.
   */
  /** Opens a Checkout for `plan` as `user` and pays it on the stand-in's page. */
  async function checkoutAndPay(user: SignedInUser, plan: string) {
    const opened = await t.app.inject({
      method: 'POST',
      url: API.billingCheckout,
      payload: { plan },
      headers: user.headers,
    });
    expect(opened.statusCode).toBe(200);
    expect((await fetch(`${opened.json().url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  }

  async function payTwice(user: SignedInUser) {
    stand.setWebhookUrl(undefined);
    const from = stand.events.length;
    for (const plan of ['intermediate', 'pro']) await checkoutAndPay(user, plan);
    const held = stand.events.slice(from).map((sent) => sent.event);
    expect(held.map((event) => event.type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'checkout.session.completed',
      'customer.subscription.created',
    ]);
    stand.setWebhookUrl(webhook);
    const [first, second] = [held[1]!, held[3]!].map((event) => event.data.object as Stripe.Subscription);
    return { sessions: [held[0]!, held[2]!], subscriptions: [held[1]!, held[3]!], first: first!, second: second! };
  }
  /** Sends an event as Stripe sends it again: the same id and time. */
  const resend = (event: Stripe.Event) =>
    stand.sendEvent(event.type, event.data.object, { id: event.id, created: event.created });
  /** Stripe is reached when the webhook asks about `subscriptionId`, and out of reach from the next call on. */
  const outageAfterAsking = (subscriptionId: string) => {
    let asked = false;
    stand.onCall((call) => {
      if (asked) stand.setOutage(true);
      if (call.method === 'GET' && call.path === `/v1/subscriptions/${subscriptionId}`) asked = true;
    });
  };
  const outageOver = () => {
    stand.onCall(undefined);
    stand.setOutage(false);
  };
  const liveAtStripe = (customer: string) =>
    [...stand.subscriptions.values()].filter((sub) => sub.customer === customer && sub.status !== 'canceled');
  const mailsTo = async (user: SignedInUser) => {
    await t.ctx.jobs.settled();
    return (await readOutbox(t.ctx.mailer.outboxDir!)).filter((mail) => mail.to.includes(user.email));
  };

  it('cancels the second subscription at Stripe and refunds it once; the plan is the kept one’s; replays change nothing', async () => {
    const gil = await signedInUser(t.ctx);
    const { sessions, subscriptions, first, second } = await payTwice(gil);
    const customer = first.customer as string;
    expect(liveAtStripe(customer)).toHaveLength(2);
    // Both sessions, then both subscriptions: the first subscription is followed, then the second replaces it.
    for (const event of [...sessions, ...subscriptions]) expect((await resend(event)).status).toBe(200);
    await stand.idle();

    expect(liveAtStripe(customer).map((sub) => sub.id)).toEqual([second.id]);
    const cancelled = stand.subscriptions.get(first.id)!;
    expect(cancelled.status).toBe('canceled');
    expect(cancelled.cancellation_details?.comment).toContain(second.id);
    const refunds = [...stand.refunds.values()];
    expect(refunds).toMatchObject([
      { amount: 3600, currency: 'usd', reason: 'duplicate', metadata: { subscription: first.id } },
    ]);
    const paidFirst = stand.invoices.get(first.latest_invoice as string)!.payments!.data[0]!;
    expect(refunds[0]!.payment_intent).toBe(paidFirst.payment.payment_intent);
    expect(stand.calls.find((c) => c.path === '/v1/refunds')?.idempotencyKey).toBe(
      `innerwave-duplicate-refund-${first.id}`,
    );
    // The cancelled subscription's own deletion reached the webhook and changed nothing.
    const deletion = stand.events.find(
      (sent) =>
        sent.event.type === 'customer.subscription.deleted' &&
        (sent.event.data.object as Stripe.Subscription).id === first.id,
    )!;
    expect(deletion.status).toBe(200);
    expect(await planOf(gil)).toMatchObject({ plan: 'pro', billing: { status: 'active' } });
    // Staff see it on the person's row.
    const staff = await signedInUser(t.ctx, { isStaff: true });
    const detail = await t.app.inject({
      method: 'GET',
      url: fillPath(ADMIN_API.user, { id: gil.id }),
      headers: staff.headers,
    });
    expect(detail.json().billing).toMatchObject({
      stripe_subscription_id: second.id,
      second_subscriptions: [{ subscription_id: first.id, refunded_amount: 3600, currency: 'usd', failure: null }],
    });
    expect(detail.json().billing.second_subscriptions[0].settled_at).not.toBeNull();

    const mails = await mailsTo(gil);
    expect(mails.map((mail) => mail.subject)).toEqual(['Your second Innerwave payment was refunded']);
    expect(mails[0]!.text).toContain('its payment of $36.00 was refunded in full');
    expect(mails[0]!.text).toContain('Your plan stays Pro');
    // The mail leads to the profile itself, not to the return from the portal (which asks for the plan again).
    expect(mails[0]!.links).toContain('http://innerwave.test/profile');
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => l.subscription === first.id);
    expect(logged).toMatchObject([
      {
        level: 40,
        userId: gil.id,
        msg: `billing: a second live subscription (${first.id}) of the same person, beside ${second.id} which is followed: cancelled at Stripe and its payment of $36.00 refunded in full (${refunds[0]!.id}); the person is told by e-mail`,
      },
    ]);

    // Stripe sends every event again (and the deletion): nothing more is cancelled, refunded or mailed.
    const calls = await stripeCallsSoFar(t, stand);
    for (const event of [...sessions, ...subscriptions, deletion.event]) {
      const again = await resend(event);
      expect(again.status).toBe(200);
    }
    await stand.idle();
    expect(stand.calls.length).toBe(calls);
    expect(stand.refunds.size).toBe(1);
    expect(liveAtStripe(customer).map((sub) => sub.id)).toEqual([second.id]);
    expect(await planOf(gil)).toMatchObject({ plan: 'pro', billing: { status: 'active' } });
    expect(await mailsTo(gil)).toHaveLength(1);
  });

  it('keeps one of two subscriptions whose events two workers apply at the same moment', async () => {
    const hal = await signedInUser(t.ctx);
    const { sessions, subscriptions } = await payTwice(hal);
    for (const event of sessions) expect((await resend(event)).status).toBe(200);
    const answers = await Promise.all(subscriptions.map(resend));
    expect(answers.map((sent) => sent.status)).toEqual([200, 200]);
    await stand.idle();
    const customer = (subscriptions[0]!.data.object as Stripe.Subscription).customer as string;
    const [kept] = liveAtStripe(customer);
    expect(liveAtStripe(customer)).toHaveLength(1);
    expect(
      [...stand.refunds.values()].filter((refund) => refund.metadata?.kept_subscription === kept!.id),
    ).toHaveLength(1);
    const plan = kept!.items.data[0]!.price.id === PRICES.pro ? 'pro' : 'intermediate';
    expect(await planOf(hal)).toMatchObject({ plan, billing: { status: 'active' } });
  });

  it('answers 503 while Stripe is out of reach, so Stripe sends the event again; its resend cancels and refunds', async () => {
    const ida = await signedInUser(t.ctx);
    const { sessions, subscriptions, first, second } = await payTwice(ida);
    for (const event of [...sessions, subscriptions[0]!]) expect((await resend(event)).status).toBe(200);
    // Out of reach when the webhook asks whether the second subscription is still live: nothing is applied.
    stand.setOutage(true);
    expect((await resend(subscriptions[1]!)).status).toBe(503);
    stand.setOutage(false);
    expect(await planOf(ida)).toMatchObject({ plan: 'intermediate' });
    // Reached for that, then out of reach to cancel and refund the first.
    outageAfterAsking(second.id);
    const refused = await resend(subscriptions[1]!);
    outageOver();
    expect(refused.status).toBe(503);
    // The event itself is applied (the plan is the kept subscription's); only Stripe's part is still to do.
    expect(await planOf(ida)).toMatchObject({ plan: 'pro' });
    expect(liveAtStripe(first.customer as string)).toHaveLength(2);
    expect(await mailsTo(ida)).toHaveLength(0);
    const again = await resend(subscriptions[1]!);
    expect(again.status).toBe(200);
    await stand.idle();
    expect(liveAtStripe(first.customer as string).map((sub) => sub.id)).toEqual([second.id]);
    expect([...stand.refunds.values()].filter((refund) => refund.metadata?.subscription === first.id)).toHaveLength(1);
    expect(await mailsTo(ida)).toHaveLength(1);
  });

  const deleteAccount = (user: SignedInUser) =>
    t.app.inject({
      method: 'DELETE',
      url: API.me,
      payload: { current_password: user.password },
      headers: user.headers,
    });

  it('cancels and refunds a second subscription still to settle when the account is deleted, and the kept one', async () => {
    const kim = await signedInUser(t.ctx);
    const { sessions, subscriptions, first, second } = await payTwice(kim);
    for (const event of [...sessions, subscriptions[0]!]) expect((await resend(event)).status).toBe(200);
    // The second subscription's event is applied, but Stripe is out of reach to cancel and refund the first.
    outageAfterAsking(second.id);
    expect((await resend(subscriptions[1]!)).status).toBe(503);
    outageOver();
    const customer = first.customer as string;
    expect(liveAtStripe(customer)).toHaveLength(2);
    // Before Stripe sends the event again, the person deletes their account.
    const deleted = await deleteAccount(kim);
    expect(deleted.statusCode, deleted.body).toBe(204);
    await stand.idle();
    expect(liveAtStripe(customer)).toEqual([]);
    expect([...stand.refunds.values()].filter((refund) => refund.metadata?.subscription === first.id)).toMatchObject([
      { amount: 3600, reason: 'duplicate' },
    ]);
    expect(stand.subscriptions.get(second.id)?.status).toBe('canceled');
    // Stripe's resend finds no account: nothing more happens.
    const calls = await stripeCallsSoFar(t, stand);
    expect((await resend(subscriptions[1]!)).status).toBe(200);
    expect(stand.calls.length).toBe(calls);
  });

  it('cancels a subscription Stripe has not told us of yet, and expires an open Checkout, when the account is deleted', async () => {
    const lu = await signedInUser(t.ctx);
    const { sessions, subscriptions, first } = await payTwice(lu);
    // Only the first subscription's events have arrived; the second's are still on their way.
    for (const event of [sessions[0]!, subscriptions[0]!]) expect((await resend(event)).status).toBe(200);
    const customer = first.customer as string;
    expect(liveAtStripe(customer)).toHaveLength(2);
    // A Checkout page of the person's still open at Stripe (another tab): it could start one more after the deletion.
    stand.sessions.set('cs_test_left_open', {
      id: 'cs_test_left_open',
      object: 'checkout.session',
      customer,
      status: 'open',
    });

    expect((await deleteAccount(lu)).statusCode).toBe(204);
    await stand.idle();
    expect(liveAtStripe(customer)).toEqual([]);
    expect(stand.sessions.get('cs_test_left_open')?.status).toBe('expired');
  });

  it('takes a late update of a subscription that has since ended for old news: the one bought after it is kept, not refunded', async () => {
    const mo = await signedInUser(t.ctx);
    stand.setWebhookUrl(webhook);
    const pay = async (plan: string) => {
      await checkoutAndPay(mo, plan);
      await stand.idle();
      return stand.events.at(-1)!.event.data.object as Stripe.Subscription;
    };
    const first = await pay('pro');
    const customer = first.customer as string;
    // An update of the first subscription whose delivery failed: Stripe sends it again later.
    const late = stand.signedEvent('customer.subscription.updated', first, {
      created: stand.events.at(-1)!.event.created,
    });
    // The person cancels it at once, and buys again later.
    const stripe = new Stripe('sk_test_billing', {
      host: '127.0.0.1',
      port: new URL(stand.url).port,
      protocol: 'http',
    });
    await stripe.subscriptions.cancel(first.id);
    await stand.idle();
    expect(await planOf(mo)).toMatchObject({ plan: 'basic', billing: { status: 'canceled' } });
    const second = await pay('intermediate');
    expect(await planOf(mo)).toMatchObject({ plan: 'intermediate', billing: { status: 'active' } });
    const calls = await stripeCallsSoFar(t, stand);
    expect(
      (await stand.sendEvent(late.event.type, first, { id: late.event.id, created: late.event.created })).status,
    ).toBe(200);
    await stand.idle();
    // The ended subscription's old news takes nothing from the one paid for now.
    expect(liveAtStripe(customer).map((sub) => sub.id)).toEqual([second.id]);
    expect([...stand.refunds.values()].filter((refund) => refund.metadata?.subscription === second.id)).toEqual([]);
    expect(stand.calls.slice(calls).filter((call) => call.method !== 'GET')).toEqual([]);
    expect(await planOf(mo)).toMatchObject({ plan: 'intermediate', billing: { status: 'active' } });
    expect(
      await t.ctx.database.db.select().from(duplicateSubscriptions).where(eq(duplicateSubscriptions.userId, mo.id)),
    ).toEqual([]);
  });

  it('takes a late completion of an old Checkout, then its subscription’s old "active" news, for old news: no plan for nothing', async () => {
    const ned = await signedInUser(t.ctx);
    const stripe = new Stripe('sk_test_billing', {
      host: '127.0.0.1',
      port: new URL(stand.url).port,
      protocol: 'http',
    });
    // The first Checkout's completion is not delivered (the app was down): Stripe sends it again later.
    stand.setWebhookUrl(undefined);
    const from = stand.events.length;
    await checkoutAndPay(ned, 'pro');
    const [firstCompleted, firstCreated] = stand.events.slice(from).map((sent) => sent.event);
    const first = firstCreated!.data.object as Stripe.Subscription;
    stand.setWebhookUrl(webhook);
    expect((await resend(firstCreated!)).status).toBe(200);
    expect(await planOf(ned)).toMatchObject({ plan: 'pro', billing: { status: 'active' } });
    // An update of that first subscription whose delivery failed too.
    const lateUpdate = stand.signedEvent('customer.subscription.updated', first, { created: firstCreated!.created });
    // The person cancels it; later buys Intermediate and cancels that as well.
    await stripe.subscriptions.cancel(first.id);
    await stand.idle();
    await checkoutAndPay(ned, 'intermediate');
    await stand.idle();
    const second = stand.events.at(-1)!.event.data.object as Stripe.Subscription;
    expect(await planOf(ned)).toMatchObject({ plan: 'intermediate', billing: { status: 'active' } });
    await stripe.subscriptions.cancel(second.id);
    await stand.idle();
    expect(await planOf(ned)).toMatchObject({ plan: 'basic', billing: { status: 'canceled' } });

    // Stripe now delivers the first Checkout's completion, then the first subscription's old update.
    expect((await resend(firstCompleted!)).status).toBe(200);
    expect((await resend(lateUpdate.event)).status).toBe(200);
    await stand.idle();
    expect(await planOf(ned)).toMatchObject({ plan: 'basic', billing: { status: 'canceled' } });
    const [account] = await t.ctx.database.db.select().from(billingAccounts).where(eq(billingAccounts.userId, ned.id));
    expect(account).toMatchObject({ stripeSubscriptionId: second.id, subscriptionStatus: 'canceled' });
  });

  it('leaves a subscription Stripe refuses to cancel to staff, answering 200 (a resend would be refused alike)', async () => {
    const jo = await signedInUser(t.ctx);
    const { sessions, subscriptions, first, second } = await payTwice(jo);
    // Once the second is known live, Stripe no longer knows the first (deleted in its dashboard, say): asking
    // again changes nothing.
    stand.onCall((call) => {
      if (call.path === `/v1/subscriptions/${second.id}`) stand.subscriptions.delete(first.id);
    });
    for (const event of [...sessions, ...subscriptions]) expect((await resend(event)).status).toBe(200);
    stand.onCall(undefined);
    const [recorded] = await t.ctx.database.db
      .select()
      .from(duplicateSubscriptions)
      .where(eq(duplicateSubscriptions.subscriptionId, first.id));
    expect(recorded).toMatchObject({ settledAt: null, failure: `No such subscription: '${first.id}'` });
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => l.subscription === first.id);
    expect(logged.at(-1)?.msg).toContain('still bills: Stripe refused to cancel or refund it');
    expect(logged.at(-1)?.msg).toContain('cancel and refund it at Stripe');
    // A resend does not ask Stripe again.
    const calls = await stripeCallsSoFar(t, stand);
    expect((await resend(subscriptions[1]!)).status).toBe(200);
    expect(stand.calls.length).toBe(calls);
  });
});

describe('an operator’s plan change', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({}, { logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
  });
  afterAll(() => t.close());

  it('is logged with who set which plan for whom', async () => {
    const staff = await signedInUser(t.ctx, { isStaff: true, email: 'ops.billing@example.com' });
    const member = await signedInUser(t.ctx, { email: 'member.billing@example.com' });
    const answer = await t.app.inject({
      method: 'PATCH',
      url: fillPath(ADMIN_API.user, { id: member.id }),
      payload: { subscription_plan: 'intermediate' },
      headers: staff.headers,
    });
    expect(answer.statusCode).toBe(200);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((l) => l.staffId === staff.id);
    expect(logged).toMatchObject({
      userId: member.id,
      from: 'basic',
      to: 'intermediate',
      msg: "operator override: ops.billing@example.com set member.billing@example.com's plan basic → intermediate (until the next Stripe event)",
    });
  });
});
