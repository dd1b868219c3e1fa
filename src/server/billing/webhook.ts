import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import { BILLING_MESSAGES, MAX_DATABASE_ID } from '@shared/contract';
import { subscriptionEnded } from '@shared/contract/plain';
import type { SubscriptionPlan } from '@shared/constants';
import type { StripeConfig } from '../config';
import type { Db } from '../db/client';
import { billingAccounts, profiles, stripeEvents, users } from '../db/schema';
import { ApiError } from '../http/errors';
import { planOf } from '../own/service';
import type { JobQueue } from '../jobs/runner';
import { expireCheckoutsJob } from './checkout-expiry';
import { isDuplicateSubscription, recordDuplicateSubscription } from './duplicates';
import {
  billingAccountByCustomer,
  billingAccountOf,
  isLive,
  planFromSubscription,
  setPlan,
  subscriptionFields,
  type BillingAccount,
  type Tx,
} from './service';
import { asStripeError, callStripe } from './stripe-client';

// What a Stripe event changes (decisions §9): each event once (its id is stored in the same
// transaction as its effect), a subscription's older news never over its newer (the event's own
// `created` time against the last applied one), and an ended subscription never revived. The person's
// row is locked while an event is applied, so two workers applying two subscriptions' events take turns.

export interface EventOutcome {
  /** False when the event id was seen before: nothing was done. */
  processed: boolean;
  /** What happened, for the log line. */
  result: string;
  userId?: number;
  planChange?: { from: SubscriptionPlan; to: SubscriptionPlan };
  /** A job to expire the person's open Checkout pages was queued (a subscription became their live one). */
  checkoutsToExpire?: boolean;
}

/** What applying an event may use beyond the database: Stripe, to ask it; the job queue, to queue in the event's transaction. */
export interface EventDeps {
  client: Stripe;
  log: FastifyBaseLogger;
  jobs: Pick<JobQueue, 'enqueue'>;
}

const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
]);

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

// The shape of what we read of an event (a signed body is Stripe's, but its JSON is checked like any
// input): a malformed event is refused (400) and nothing is recorded. A well-formed event about someone
// or something we do not know is recorded and ignored, as any event we do not act on.

export const MALFORMED_EVENT = 'The webhook event is malformed.';

/** A non-empty string without NUL (PostgreSQL's text refuses it). */
const text = z
  .string()
  .min(1)
  .max(5000)
  .refine((value) => !value.includes('\u0000'));
/** Stripe's Unix times; within what a Date holds. */
const unixTime = z.number().int().min(0).max(253_402_300_799);
/** An id, or the object it names when expanded. */
const reference = z.union([text, z.looseObject({ id: text })]);
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

const OBJECT_SHAPES: Record<string, z.ZodType> = {
  'checkout.session.completed': z.looseObject({
    mode: optional(z.string()),
    client_reference_id: optional(z.string()),
    customer: optional(reference),
    subscription: optional(reference),
  }),
  'invoice.payment_failed': z.looseObject({
    customer: optional(reference),
    subscription: optional(reference),
    parent: optional(
      z.looseObject({ subscription_details: optional(z.looseObject({ subscription: optional(reference) })) }),
    ),
  }),
  ...Object.fromEntries(
    ['created', 'updated', 'deleted'].map((change) => [
      `customer.subscription.${change}`,
      z.looseObject({
        id: text,
        customer: reference,
        status: text,
        metadata: optional(z.record(z.string(), z.unknown())),
        items: optional(
          z.looseObject({
            data: z.array(
              z.looseObject({
                price: optional(z.looseObject({ id: text })),
                current_period_end: optional(unixTime),
              }),
            ),
          }),
        ),
        cancel_at_period_end: optional(z.boolean()),
        cancel_at: optional(unixTime),
      }),
    ]),
  ),
};

const envelope = z.looseObject({ id: text.max(255), type: text.max(255) });
const handledEnvelope = envelope.extend({ created: unixTime, data: z.looseObject({ object: z.looseObject({}) }) });

/** Why a verified body is not an event we can record, or undefined when it is. */
export function malformedEventReason(event: unknown): string | undefined {
  const base = envelope.safeParse(event);
  if (!base.success) return 'id and type must be non-empty strings';
  const shape = OBJECT_SHAPES[base.data.type];
  if (!shape) return undefined;
  const handled = handledEnvelope.safeParse(event);
  if (!handled.success) return 'created must be a time and data.object an object';
  const object = shape.safeParse(handled.data.data.object);
  return object.success ? undefined : `data.object is not a ${base.data.type.split('.').slice(0, -1).join('.')}`;
}

/** The user id an event names (a checkout's client_reference_id, a subscription's metadata): decimal digits only. */
export function userIdOf(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_DATABASE_ID ? id : null;
}

/**
 * Applies one verified event; a failure rolls everything back (the id too), so Stripe's retry redoes it.
 * A malformed event is refused (400) before anything is recorded.
 */
export async function processEvent(
  db: Db,
  event: Stripe.Event,
  prices: StripeConfig['prices'],
  deps?: EventDeps,
): Promise<EventOutcome> {
  const malformed = malformedEventReason(event);
  if (malformed) throw new ApiError(400, { detail: MALFORMED_EVENT });
  const endedSince = deps ? await endedAtStripeSince(db, event, deps) : false;
  // News of the followed subscription from the second of the news last applied, and saying otherwise, is
  // applied as Stripe has the subscription now: the transaction stops (storing nothing), Stripe is asked
  // outside it, and it runs again. A row changed meanwhile (another event) asks again.
  let asked: AskedNow | undefined;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await applyEvent(db, event, prices, { endedSince, jobs: deps?.jobs, asked, mayAsk: deps !== undefined });
    } catch (error) {
      if (!(error instanceof SameSecondNews) || !deps) throw error;
      // Events of this subscription keep landing as we ask: Stripe sends this one again later.
      if (attempt >= SAME_SECOND_ASKS) throw new ApiError(503, { detail: BILLING_MESSAGES.providerUnavailable });
      asked = { rowUpdatedAt: error.rowUpdatedAt, now: await subscriptionNow(deps, error.subscriptionId) };
    }
  }
}

/** How often one event asks Stripe for its subscription before it is answered 503 (Stripe sends it again). */
const SAME_SECOND_ASKS = 3;

/** The subscription as Stripe had it once the account's row was last read (`rowUpdatedAt`); null: Stripe knows none. */
interface AskedNow {
  rowUpdatedAt: number;
  now: Stripe.Subscription | null;
}

/** Thrown inside the event's transaction (rolling it back): the event ties with the last applied, ask Stripe. */
class SameSecondNews extends Error {
  constructor(
    readonly subscriptionId: string,
    readonly rowUpdatedAt: number,
  ) {
    super('same-second news of the followed subscription');
  }
}

/** The subscription as Stripe has it now; null when Stripe knows no such subscription. Out of reach: 503. */
async function subscriptionNow(deps: EventDeps, subscriptionId: string): Promise<Stripe.Subscription | null> {
  return callStripe(deps.log, 'subscriptions.retrieve', async () => {
    try {
      return await deps.client.subscriptions.retrieve(subscriptionId);
    } catch (error) {
      if ((await asStripeError(error))?.code === 'resource_missing') return null;
      throw error;
    }
  });
}

interface ApplyOptions {
  endedSince: boolean;
  jobs: EventDeps['jobs'] | undefined;
  /** Stripe's answer, once asked, about a subscription whose news tied with the last applied. */
  asked: AskedNow | undefined;
  /** Stripe may be asked (tests that apply events without a client apply ties as they say). */
  mayAsk: boolean;
}

async function applyEvent(
  db: Db,
  event: Stripe.Event,
  prices: StripeConfig['prices'],
  options: ApplyOptions,
): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    // A resent event still names its person: what is left to do at Stripe for them is tried again.
    if (!fresh) return { processed: false, result: 'duplicate', ...(await personOf(tx, event)) };
    if (!HANDLED.has(event.type)) return { processed: true, result: 'not handled' };
    const eventAt = new Date(event.created * 1000);
    const object = event.data.object as unknown;
    if (event.type === 'checkout.session.completed') return checkoutCompleted(tx, object as Stripe.Checkout.Session);
    if (event.type === 'invoice.payment_failed')
      return paymentFailed(tx, object as Stripe.Invoice, eventAt, prices, options);
    return subscriptionChanged(tx, object as Stripe.Subscription, eventAt, prices, options);
  });
}

/**
 * Whether a subscription event says live of a subscription other than the one followed that has ended at
 * Stripe since: the late news of a former subscription (its delivery failed and Stripe sent it again, or
 * it came out of order), which would otherwise pass for a second one bought at the same moment and have
 * the one paid for now cancelled and refunded. Only Stripe knows, as we keep the followed subscription
 * alone; asked before the transaction (no row waits on Stripe), and an ended subscription never revives.
 * Stripe out of reach: 503, nothing is recorded, and Stripe sends the event again.
 */
async function endedAtStripeSince(db: Db, event: Stripe.Event, deps: EventDeps) {
  if (!event.type.startsWith('customer.subscription.') || !HANDLED.has(event.type)) return false;
  const subscription = event.data.object as Stripe.Subscription;
  const customer = idOf(subscription.customer);
  if (!isLive(subscription.status) || !customer) return false;
  const row = await billingAccountByCustomer(db, customer);
  if (!row?.stripeSubscriptionId || row.stripeSubscriptionId === subscription.id) return false;
  // A resend of an event applied before does nothing: no need to ask.
  const [seen] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id));
  if (seen) return false;
  // Stripe has no such subscription: it bills nothing, and there is nothing to follow.
  const now = await subscriptionNow(deps, subscription.id);
  return now === null || subscriptionEnded(now.status);
}

/** The person whose customer a handled event names, if we know them. */
async function personOf(tx: Tx, event: Stripe.Event): Promise<{ userId?: number }> {
  if (!HANDLED.has(event.type)) return {};
  const customer = idOf((event.data.object as { customer?: string | { id: string } | null }).customer);
  const row = customer ? await billingAccountByCustomer(tx, customer) : undefined;
  return row ? { userId: row.userId } : {};
}

/**
 * Whether the account exists, holding it until the event's transaction ends: an event that makes the person's
 * billing row applies before a deletion of the account at the same moment, or finds the account gone and is recorded
 * as ignored (200: Stripe sends it no more), never a foreign-key violation (a 500 Stripe would retry for days). Taken
 * after any billing row of theirs, the profile's row before the user's, as deleting an account takes them (deleteUser):
 * in another order each waited for the other.
 */
async function holdAccount(tx: Tx, userId: number | null): Promise<boolean> {
  if (userId === null) return false;
  await tx.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.userId, userId)).for('update');
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('key share');
  return row !== undefined;
}

/** Checkout paid: the session names the person (client_reference_id), its customer and its subscription. */
async function checkoutCompleted(tx: Tx, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  const userId = userIdOf(session.client_reference_id);
  const customer = idOf(session.customer);
  const subscription = idOf(session.subscription);
  const ignored = { processed: true, result: 'ignored: not a subscription checkout of a known user' };
  if (session.mode !== 'subscription' || !customer || userId === null) return ignored;
  const row = await billingAccountOf(tx, userId, { lock: true });
  if (!row) {
    if (!(await holdAccount(tx, userId))) return ignored;
    await tx
      .insert(billingAccounts)
      .values({ userId, stripeCustomerId: customer, stripeSubscriptionId: subscription })
      .onConflictDoNothing();
    return { processed: true, result: 'customer and subscription remembered', userId };
  }
  if (row.stripeCustomerId !== customer)
    return { processed: true, result: 'ignored: the session’s customer is not the one kept', userId };
  // The session's subscription is followed only when none is yet (a first purchase). After one, its own
  // events decide: a new live one replaces an ended one once Stripe confirms it is live
  // (endedAtStripeSince). A completion can be an old Checkout's, sent again days later; followed, its ended
  // subscription would start afresh and take its own old "active" news for the latest.
  if (subscription && !row.stripeSubscriptionId) {
    await tx
      .update(billingAccounts)
      .set({
        stripeSubscriptionId: subscription,
        subscriptionStatus: null,
        subscriptionEventAt: null,
        updatedAt: new Date(),
      })
      .where(eq(billingAccounts.userId, userId));
    return { processed: true, result: 'subscription remembered', userId };
  }
  if (subscription && row.stripeSubscriptionId !== subscription)
    return { processed: true, result: 'ignored: another subscription is followed (its own events decide)', userId };
  return { processed: true, result: 'nothing new', userId };
}

/** The account a subscription event is about: by its customer, else by the user id put in its metadata at checkout. */
async function accountFor(tx: Tx, customer: string, metadata: Stripe.Metadata | null | undefined) {
  const found = await billingAccountByCustomer(tx, customer, { lock: true });
  if (found) return found;
  const userId = userIdOf(metadata?.user_id);
  if (userId === null || (await billingAccountOf(tx, userId)) || !(await holdAccount(tx, userId))) return undefined;
  await tx.insert(billingAccounts).values({ userId, stripeCustomerId: customer }).onConflictDoNothing();
  return billingAccountOf(tx, userId, { lock: true });
}

/** Why an event about `subscription` at `eventAt` must not change the account, or undefined when it may. */
function staleReason(row: BillingAccount, subscription: Stripe.Subscription, eventAt: Date): string | undefined {
  if (row.stripeSubscriptionId && row.stripeSubscriptionId !== subscription.id) {
    // Another subscription than the one followed: a new live one replaces it; an old one's end changes nothing.
    return isLive(subscription.status) ? undefined : 'ignored: about a subscription no longer followed';
  }
  if (subscriptionEnded(row.subscriptionStatus)) return 'ignored: the subscription has already ended';
  if (row.subscriptionEventAt && eventAt < row.subscriptionEventAt) return 'ignored: older than the last applied';
  // Events carry whole seconds, and Checkout's subscription is created incomplete and made active in the
  // same one: a subscription never returns to incomplete, so that news after any other is the older.
  if (subscription.status === 'incomplete' && row.subscriptionStatus && row.subscriptionStatus !== 'incomplete')
    return 'ignored: incomplete after it was not (older news of the same second)';
  return undefined;
}

/**
 * Whether news of the followed subscription comes from the same second as the last applied and says
 * otherwise: which of the two is the later, the events cannot tell.
 */
function tiesWithLastApplied(row: BillingAccount, subscription: Stripe.Subscription, eventAt: Date): boolean {
  if (row.stripeSubscriptionId !== subscription.id || row.subscriptionEventAt?.getTime() !== eventAt.getTime())
    return false;
  // A subscription leaves incomplete once and never returns: news that it has left it is the later, in Stripe's
  // own order, and a first purchase (created incomplete, made active in the same second) asks nothing
  // (docs/decisions/127-billing-news-late-and-out-of-order.md).
  if (row.subscriptionStatus === 'incomplete' && subscription.status !== 'incomplete') return false;
  const said = subscriptionFields(subscription);
  return (
    said.subscriptionStatus !== row.subscriptionStatus ||
    said.subscriptionPriceId !== row.subscriptionPriceId ||
    said.currentPeriodEnd?.getTime() !== row.currentPeriodEnd?.getTime() ||
    said.cancelAtPeriodEnd !== row.cancelAtPeriodEnd ||
    said.cancelAt?.getTime() !== row.cancelAt?.getTime()
  );
}

async function subscriptionChanged(
  tx: Tx,
  subscription: Stripe.Subscription,
  eventAt: Date,
  prices: StripeConfig['prices'],
  { endedSince, jobs, asked, mayAsk }: ApplyOptions,
): Promise<EventOutcome> {
  const customer = idOf(subscription.customer);
  const row = customer ? await accountFor(tx, customer, subscription.metadata) : undefined;
  if (!row) return { processed: true, result: 'ignored: unknown customer' };
  const userId = row.userId;
  // A second subscription already cancelled: none of its news (a late update, its deletion) is the person's.
  if (await isDuplicateSubscription(tx, subscription.id))
    return { processed: true, result: 'ignored: a second subscription, cancelled and refunded', userId };
  if (endedSince) return { processed: true, result: 'ignored: live in old news, ended at Stripe since', userId };
  const stale = staleReason(row, subscription, eventAt);
  if (stale) return { processed: true, result: stale, userId };
  // Events carry whole seconds: two changes in one (cancel, then keep) may come in either order, and
  // only Stripe knows which is the later. Asked only when the news says otherwise than the last applied.
  let sameSecond = false;
  if (mayAsk && tiesWithLastApplied(row, subscription, eventAt)) {
    if (asked?.rowUpdatedAt !== row.updatedAt.getTime())
      throw new SameSecondNews(subscription.id, row.updatedAt.getTime());
    // Stripe knowing no such subscription (never so for one it sent news of): the news is taken as it says.
    if (asked.now) {
      subscription = asked.now;
      sameSecond = true;
    }
  }
  // Two Checkouts paid at once (each before the other's events) make two live subscriptions: the one
  // whose news comes last is followed, and the one followed before is recorded, to be cancelled and
  // refunded at Stripe once this transaction is committed (duplicates.ts).
  const before = row.stripeSubscriptionId;
  const second =
    before && before !== subscription.id && isLive(row.subscriptionStatus) && isLive(subscription.status)
      ? before
      : undefined;
  if (second)
    await recordDuplicateSubscription(tx, { subscriptionId: second, userId, keptSubscriptionId: subscription.id });
  const fields = subscriptionFields(subscription);
  await tx
    .update(billingAccounts)
    .set({ ...fields, subscriptionEventAt: eventAt, updatedAt: new Date() })
    .where(eq(billingAccounts.userId, userId));
  const from = await planOf(tx, userId);
  const to = planFromSubscription(subscription.status, fields.subscriptionPriceId, prices, from);
  const result = `subscription ${subscription.status}${sameSecond ? ' (as Stripe has it now: news of the same second)' : ''}${second ? `; a second live one (${second}) to cancel and refund` : ''}`;
  // Live now and not before (the Customer Portal, Stripe's dashboard, a Checkout paid): any page the
  // person still has open would sell a second plan on top; it is expired once this is committed.
  const becameLive = isLive(subscription.status) && !(before === subscription.id && isLive(row.subscriptionStatus));
  if (becameLive && jobs) await jobs.enqueue(tx, expireCheckoutsJob(userId, 'subscription-live'));
  const applied = { processed: true, result, userId, ...(becameLive && jobs && { checkoutsToExpire: true }) };
  if (to === from) return applied;
  await setPlan(tx, userId, to);
  return { ...applied, planChange: { from, to } };
}

/** The subscription of an invoice, in the API versions before and after invoices' `parent`. */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const parent = idOf(invoice.parent?.subscription_details?.subscription);
  return parent ?? idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/** A renewal failed: the subscription is past due (Stripe retries); the plan stays and the person is warned. */
async function paymentFailed(
  tx: Tx,
  invoice: Stripe.Invoice,
  eventAt: Date,
  prices: StripeConfig['prices'],
  options: ApplyOptions,
): Promise<EventOutcome> {
  const customer = idOf(invoice.customer);
  const row = customer ? await billingAccountByCustomer(tx, customer, { lock: true }) : undefined;
  const subscription = subscriptionOfInvoice(invoice);
  if (!row || !subscription || row.stripeSubscriptionId !== subscription)
    return { processed: true, result: 'ignored: not the followed subscription' };
  if (row.subscriptionEventAt && eventAt < row.subscriptionEventAt)
    return { processed: true, result: 'ignored: older than the last applied', userId: row.userId };
  if (row.subscriptionStatus !== 'active' && row.subscriptionStatus !== 'trialing')
    return { processed: true, result: `nothing new (${row.subscriptionStatus ?? 'no status'})`, userId: row.userId };
  // A failure of the second of the news last applied may be older than it (paid again in that second): as a
  // subscription's news of one second, it is applied as Stripe has the subscription now (decision 127).
  if (options.mayAsk && row.subscriptionEventAt?.getTime() === eventAt.getTime()) {
    if (options.asked?.rowUpdatedAt !== row.updatedAt.getTime())
      throw new SameSecondNews(subscription, row.updatedAt.getTime());
    if (options.asked.now) return subscriptionChanged(tx, options.asked.now, eventAt, prices, options);
  }
  await tx
    .update(billingAccounts)
    .set({ subscriptionStatus: 'past_due', subscriptionEventAt: eventAt, updatedAt: new Date() })
    .where(eq(billingAccounts.userId, row.userId));
  return { processed: true, result: 'payment failed: past due', userId: row.userId };
}
