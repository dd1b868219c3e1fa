import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { userExportSchema, type UserExport } from '@shared/contract';
import type { Db } from '../db/client';
import { exactTime, pagesOf, pastTimeKey, type TimeKey } from '../db/pages';
import { duplicateSubscriptions, ownTracks, removedOwnTracks, users, voiceRecordings } from '../db/schema';
import { billingAccountOf } from '../billing/service';
import { ApiError, serviceUnavailable, unauthorized } from '../http/errors';
import { pendingOf } from '../auth/email-change';
import { listOwnCategories } from '../own/service';
import { readPlayer } from '../own/player';
import { allSubliminals } from '../own/subliminals';
import { supportRequestPages } from '../support/service';
import { historyPages, readOnboarding, readReminder } from '../guidance/practice';
import { startedPrograms } from '../guidance/programs';
import type { ProfileReader } from './service';

// Everything kept about a person, for GET /api/user/export/ (docs/product/accounts.md#downloading-ones-data).
// One reader per section of the contract's userExportSchema: a new kind of data is one more line here. A list no
// plan bounds (or too large to hold at once) is read and sent a page at a time, after the first byte
// (docs/decisions/087-an-export-reads-its-long-lists-in-pages.md).

/**
 * Exports a worker sends at once: each holds about 75 MB of it at its peak however large the file
 * (bench:data-export), so a third would take a worker past the memory it may use under load.
 */
export const EXPORTS_AT_ONCE = 2;

export const EXPORT_UNDER_WAY_TEXT =
  'Your data is already being downloaded. Wait for that download to finish, then ask again.';

/** How long a client told the worker's exports are all under way waits before asking again. */
const EXPORTS_BUSY_RETRY_SECONDS = 30;

/**
 * The exports a worker is sending: one a person, EXPORTS_AT_ONCE in all. A person asking again while theirs is
 * on its way (another tab, a script) is refused with 429; anyone past the worker's share with 503 and Retry-After.
 */
export class ExportsUnderWay {
  private readonly people = new Set<number>();

  /** The release of the export's place, called once its answer has ended or broken off; or the refusal. */
  take(userId: number): (() => void) | ApiError {
    if (this.people.has(userId)) return new ApiError(429, { detail: EXPORT_UNDER_WAY_TEXT });
    if (this.people.size >= EXPORTS_AT_ONCE) return serviceUnavailable(EXPORTS_BUSY_RETRY_SECONDS);
    this.people.add(userId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.people.delete(userId);
    };
  }
}

/**
 * Rows of a list a data export reads at once: a session of history is a few hundred bytes and a support request at
 * most 5,000 characters, so a read is at most a few megabytes, and 100,000 sessions are 100 reads (bench:data-export).
 */
export const ROWS_PER_READ = 1000;

/** A list read and sent a page at a time as the socket takes the file. */
class Paged<Item> {
  constructor(readonly pages: AsyncIterable<Item[]>) {}
}
/** A section as its reader gives it: any of its lists may be Paged. */
type AsRead<T> = T extends (infer Item)[] ? T | Paged<Item> : T extends object ? { [K in keyof T]: AsRead<T[K]> } : T;

type Sections = Omit<UserExport, 'exported_at'>;
type Sources = { db: Db; readProfile: ProfileReader; publicUrl: string };
type Reader<K extends keyof Sections> = (sources: Sources, userId: number) => Promise<AsRead<Sections[K]>>;

const SECTIONS: { [K in keyof Sections]: Reader<K> } = {
  account: async ({ db }, userId) => {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw unauthorized();
    return {
      id: user.id,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      is_active: user.isActive,
      date_joined: user.createdAt.toISOString(),
      last_login: user.lastLogin?.toISOString() ?? null,
      pending_email_change: pendingOf(user),
    };
  },
  profile: ({ readProfile }, userId) => readProfile(userId),
  own_categories: ({ db }, userId) => listOwnCategories(db, userId),
  player: ({ db }, userId) => readPlayer(db, userId),
  saved_subliminals: async ({ db, publicUrl }, userId) => new Paged(allSubliminals(db, userId, publicUrl)),
  support_requests: async ({ db }, userId) => new Paged(supportRequestPages(db, userId, ROWS_PER_READ)),
  own_music: async ({ db }, userId) => {
    const rows = await db
      .select()
      .from(ownTracks)
      .where(eq(ownTracks.userId, userId))
      .orderBy(asc(ownTracks.createdAt), asc(ownTracks.id));
    return rows.map((row) => ({ name: row.name, bytes: row.bytes, created_at: row.createdAt.toISOString() }));
  },
  deleted_own_music: async ({ db }, userId) => new Paged(deletedTrackPages(db, userId)),
  voice_recordings: async ({ db }, userId) => {
    const rows = await db
      .select()
      .from(voiceRecordings)
      .where(eq(voiceRecordings.userId, userId))
      .orderBy(asc(voiceRecordings.createdAt), asc(voiceRecordings.id));
    return rows.map((row) => ({
      text: row.text,
      duration_ms: row.durationMs,
      bytes: row.bytes,
      created_at: row.createdAt.toISOString(),
    }));
  },
  billing: async ({ db }, userId) => {
    const account = await billingAccountOf(db, userId);
    const seconds = await db
      .select()
      .from(duplicateSubscriptions)
      .where(eq(duplicateSubscriptions.userId, userId))
      .orderBy(asc(duplicateSubscriptions.foundAt), asc(duplicateSubscriptions.subscriptionId));
    return {
      stripe_customer_id: account?.stripeCustomerId ?? null,
      subscription: account?.stripeSubscriptionId
        ? {
            id: account.stripeSubscriptionId,
            status: account.subscriptionStatus,
            price_id: account.subscriptionPriceId,
            current_period_end: account.currentPeriodEnd?.toISOString() ?? null,
            cancel_at_period_end: account.cancelAtPeriodEnd,
            cancel_at: account.cancelAt?.toISOString() ?? null,
          }
        : null,
      second_subscriptions: seconds.map((row) => ({
        id: row.subscriptionId,
        kept_subscription_id: row.keptSubscriptionId,
        found_at: row.foundAt.toISOString(),
        settled_at: row.settledAt?.toISOString() ?? null,
        refund_id: row.refundId,
        refunded_amount: row.refundedAmount,
        currency: row.currency,
      })),
    };
  },
  guidance: async ({ db }, userId) => ({
    onboarding: await readOnboarding(db, userId),
    reminder: await readReminder(db, userId),
    programs: await startedPrograms(db, userId),
    listening_history: new Paged(historyPages(db, userId, ROWS_PER_READ)),
  }),
};

/** The own tracks the person deleted, oldest deletion first: each upload deleted adds one, and no plan bounds them. */
async function* deletedTrackPages(db: Db, userId: number): AsyncGenerator<Sections['deleted_own_music']> {
  const pages = pagesOf(
    ROWS_PER_READ,
    (after: TimeKey | undefined, limit) =>
      db
        .select({ row: removedOwnTracks, at: exactTime(removedOwnTracks.removedAt) })
        .from(removedOwnTracks)
        .where(
          and(
            eq(removedOwnTracks.userId, userId),
            after && pastTimeKey(removedOwnTracks.removedAt, removedOwnTracks.id, after, 'asc'),
          ),
        )
        .orderBy(asc(removedOwnTracks.removedAt), asc(removedOwnTracks.id))
        .limit(limit),
    ({ row, at }) => ({ at, id: row.id }),
  );
  for await (const rows of pages)
    yield rows.map(({ row }) => ({ name: row.name, deleted_at: row.removedAt.toISOString() }));
}

/** `value` as `JSON.stringify(value, null, 2)` writes it at `depth` levels in. */
const indented = (value: unknown, depth: number) =>
  JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);

/** Whether `value` is Paged or an object with one in it, laid out key by key. */
const holdsPaged = (value: unknown): boolean =>
  value instanceof Paged ||
  (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).some(holdsPaged));

/**
 * `value` laid out as `JSON.stringify(value, null, 2)` writes it at `depth` levels in, checked against `schema` (an
 * object's keys in the schema's order, as parsing puts them): a Paged list item by item as its pages are read.
 */
async function* laidOut(schema: z.ZodType, value: unknown, depth: number): AsyncGenerator<string> {
  const [outer, inner] = ['  '.repeat(depth), '  '.repeat(depth + 1)];
  if (value instanceof Paged) {
    const item = (schema as z.ZodArray<z.ZodType>).element;
    let none = true;
    for await (const page of value.pages as AsyncIterable<unknown[]>) {
      yield (none ? '[\n' : ',\n') + page.map((entry) => inner + indented(item.parse(entry), depth + 1)).join(',\n');
      none = false;
    }
    yield none ? '[]' : `\n${outer}]`;
  } else if (holdsPaged(value)) {
    let first = true;
    for (const [key, field] of Object.entries((schema as z.ZodObject).shape)) {
      yield `${first ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `;
      first = false;
      yield* laidOut(field, (value as Record<string, unknown>)[key], depth + 1);
    }
    yield `\n${outer}}`;
  } else yield indented(schema.parse(value), depth);
}

/**
 * The person's data as the file they save: JSON laid out as `JSON.stringify(data, null, 2)` would, each part checked
 * against its schema in the contract as a response is. What is bounded is read before the first piece (an account
 * gone is a 401, not half a file); the Paged lists follow in pieces, as they are read.
 */
export async function exportUserJson(sources: Sources, userId: number): Promise<AsyncGenerator<string>> {
  const entries = await Promise.all(
    Object.entries(SECTIONS).map(async ([key, read]) => [key, await read(sources, userId)] as const),
  );
  return laidOut(userExportSchema, { exported_at: new Date().toISOString(), ...Object.fromEntries(entries) }, 0);
}

/** `innerwave-data-2026-11-23.json` */
export const exportFileName = (now = new Date()) => `innerwave-data-${now.toISOString().slice(0, 10)}.json`;
