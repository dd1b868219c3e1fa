import { accountUid } from '@shared/contract/plain';
import { browserStorage } from './browser-storage';

// The address of an account signed up on this device, kept until its activation link is opened here, so that
// the login after it comes with the address filled in, in whichever tab the mail opened the link
// (docs/product/accounts.md#activation). It is known by the account's uid, which only that account's links carry:
// a link of another account (another person on a shared device) finds nothing. The link itself carries no address.

const STORAGE_KEY = 'innerwave.awaitedActivation';
/** An activation link lasts 3 days (docs/product/accounts.md#activation): after, nothing is kept for it. */
const KEEP_MS = 3 * 24 * 60 * 60 * 1000;
/** Sign-ups on one device kept at once, the newest: a shared device keeps a few, never a list that grows. */
const KEEP_AT_MOST = 5;

type Awaited = Record<string, { email: string; at: number }>;

function readAll(now: number): Awaited {
  try {
    const stored = JSON.parse(browserStorage.get(STORAGE_KEY) ?? 'null') as unknown;
    if (!stored || typeof stored !== 'object') return {};
    const kept: Awaited = {};
    for (const [uid, entry] of Object.entries(stored as Record<string, unknown>)) {
      const { email, at } = (entry ?? {}) as { email?: unknown; at?: unknown };
      if (typeof email === 'string' && email && typeof at === 'number' && at <= now && now - at <= KEEP_MS)
        kept[uid] = { email, at };
    }
    return kept;
  } catch {
    return {};
  }
}

function writeAll(entries: Awaited): void {
  const newest = Object.entries(entries)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, KEEP_AT_MOST);
  if (newest.length === 0) browserStorage.remove(STORAGE_KEY);
  else browserStorage.set(STORAGE_KEY, JSON.stringify(Object.fromEntries(newest)));
}

export const awaitedActivation = {
  /** After a sign-up: the account `id` (the sign-up's answer) waits for its link, sent to `email`. */
  remember(id: number, email: string, now = Date.now()): void {
    writeAll({ ...readAll(now), [accountUid(id)]: { email, at: now } });
  },
  /** The address the account of an activation link's `uid` signed up with on this device, or null. */
  addressOf(uid: string, now = Date.now()): string | null {
    const entries = readAll(now);
    return Object.hasOwn(entries, uid) ? entries[uid]!.email : null;
  },
  /** The account of `uid` is active: nothing more is kept for it. */
  forget(uid: string, now = Date.now()): void {
    const entries = readAll(now);
    delete entries[uid];
    writeAll(entries);
  },
};
