import { asc, eq } from 'drizzle-orm';
import { subliminalSchema, userExportSchema, type UserExport } from '@shared/contract';
import type { Db } from '../db/client';
import { duplicateSubscriptions, ownTracks, removedOwnTracks, users, voiceRecordings } from '../db/schema';
import { billingAccountOf } from '../billing/service';
import { ApiError, serviceUnavailable, unauthorized } from '../http/errors';
import { pendingOf } from '../auth/email-change';
import { listOwnCategories } from '../own/service';
import { readPlayer } from '../own/player';
import { allSubliminals } from '../own/subliminals';
import { supportRequestsOf } from '../support/service';
import { listHistory, readOnboarding, readReminder } from '../guidance/practice';
import { startedPrograms } from '../guidance/programs';
import type { ProfileReader } from './service';

// Everything kept about a person, for GET /api/user/export/ (docs/product/accounts.md#downloading-ones-data).
// One reader per section of the contract's userExportSchema: a new kind of data is one more line here. The saved
// subliminals, which may be more than a worker can hold at once, are read and sent a few at a time.

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

type Sections = Omit<UserExport, 'exported_at' | 'saved_subliminals'>;
type Sources = { db: Db; readProfile: ProfileReader; publicUrl: string };
type Reader<K extends keyof Sections> = (sources: Sources, userId: number) => Promise<Sections[K]>;

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
  support_requests: ({ db }, userId) => supportRequestsOf(db, userId),
  own_music: async ({ db }, userId) => {
    const rows = await db
      .select()
      .from(ownTracks)
      .where(eq(ownTracks.userId, userId))
      .orderBy(asc(ownTracks.createdAt), asc(ownTracks.id));
    return rows.map((row) => ({ name: row.name, bytes: row.bytes, created_at: row.createdAt.toISOString() }));
  },
  deleted_own_music: async ({ db }, userId) => {
    const rows = await db
      .select()
      .from(removedOwnTracks)
      .where(eq(removedOwnTracks.userId, userId))
      .orderBy(asc(removedOwnTracks.removedAt), asc(removedOwnTracks.id));
    return rows.map((row) => ({ name: row.name, deleted_at: row.removedAt.toISOString() }));
  },
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
    listening_history: await listHistory(db, userId),
  }),
};

/** `value` as `JSON.stringify(value, null, 2)` writes it at `depth` levels in. */
const indented = (value: unknown, depth: number) =>
  JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);

/**
 * The person's data as the file they save: JSON laid out as `JSON.stringify(data, null, 2)` would, each section
 * checked against its schema in the contract as a response is. Everything but the saved subliminals is read before
 * the first piece (an account gone is a 401, not half a file); those follow in pieces, as they are read.
 */
export async function exportUserJson(sources: Sources, userId: number): Promise<AsyncGenerator<string>> {
  const shape = userExportSchema.shape;
  const entries = await Promise.all(
    Object.entries(SECTIONS).map(async ([key, read]) => [key, await read(sources, userId)] as const),
  );
  const sections: Record<string, unknown> = { exported_at: new Date().toISOString(), ...Object.fromEntries(entries) };
  return (async function* pieces() {
    let first = true;
    for (const key of Object.keys(shape) as (keyof UserExport)[]) {
      yield `${first ? '{\n' : ',\n'}  ${JSON.stringify(key)}: `;
      first = false;
      if (key !== 'saved_subliminals') {
        yield indented(shape[key].parse(sections[key]), 1);
        continue;
      }
      let none = true;
      for await (const page of allSubliminals(sources.db, userId, sources.publicUrl)) {
        const items = page.map((item) => `    ${indented(subliminalSchema.parse(item), 2)}`);
        yield (none ? '[\n' : ',\n') + items.join(',\n');
        none = false;
      }
      yield none ? '[]' : '\n  ]';
    }
    yield '\n}';
  })();
}

/** `innerwave-data-2026-11-23.json` */
export const exportFileName = (now = new Date()) => `innerwave-data-${now.toISOString().slice(0, 10)}.json`;
