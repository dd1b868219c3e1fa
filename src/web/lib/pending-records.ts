import { useSyncExternalStore } from 'react';
import type { HistoryWrite } from '@shared/contract';
import { replacesRecord } from '@shared/contract/portal-plain';

// The records of sessions that ended in this browser and have not reached the server yet, each the
// person's whose session it was (docs/decisions/046-a-record-that-cannot-be-sent-waits-in-the-browser.md).
// A record is kept here before it is sent and taken out once the server has answered it: a sign-in
// ended from elsewhere (401), the network or the server down (5xx), or a tab closing before the answer
// came leave it here, to be sent again while the same person is signed in. Its `record_key` makes the
// server record it once, however many times it is sent.

/** Kept in localStorage, across sign-outs (lib/session.ts keeps it when it clears the rest). */
export const PENDING_RECORDS_STORAGE_KEY = 'innerwave.pending-records';
/** A record not sent within this long is dropped: the person has not signed in here since. */
export const PENDING_RECORD_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** At most this many records are kept, the newest: a browser offline for long drops the oldest. */
export const PENDING_RECORDS_MAX = 200;

export interface PendingRecord {
  /** The record's key, as its `entry.record_key` when it has one. */
  key: string;
  /** Whose session it was: sent only while this person is signed in here. */
  user_id: number;
  /** The history entry, or null when only a program day is to be marked done. */
  entry: (HistoryWrite & { record_key: string }) | null;
  /** A program day played to its end, marked done after the entry. */
  day: { slug: string; day: number } | null;
  /** When the session ended (ms since the epoch). */
  saved_at: number;
  /**
   * A send of it has failed (offline, the server down, the sign-in ended) and it waits: the practice
   * view says so. A record on its first way out is not waiting yet.
   */
  waiting?: boolean;
  /**
   * The server failed on this record (a 500) while it may take others: it waits on its own, not
   * holding the rest back, until `retry_at` (ms since the epoch); `failures` counts those answers in a row.
   */
  failures?: number;
  retry_at?: number;
}

function isPendingRecord(value: unknown): value is PendingRecord {
  if (!value || typeof value !== 'object') return false;
  const record = value as Partial<PendingRecord>;
  return (
    typeof record.key === 'string' &&
    typeof record.user_id === 'number' &&
    typeof record.saved_at === 'number' &&
    (record.entry === null || typeof record.entry === 'object') &&
    (record.day === null || typeof record.day === 'object')
  );
}

/** The records kept, young enough; what storage holds that is not a record is left out. */
function read(now: number): PendingRecord[] {
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(PENDING_RECORDS_STORAGE_KEY) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  return stored.filter(isPendingRecord).filter((record) => now - record.saved_at < PENDING_RECORD_MAX_AGE_MS);
}

const listeners = new Set<() => void>();
const publish = () => {
  for (const listener of listeners) listener();
};

function write(records: PendingRecord[]): void {
  try {
    if (records.length === 0) localStorage.removeItem(PENDING_RECORDS_STORAGE_KEY);
    else localStorage.setItem(PENDING_RECORDS_STORAGE_KEY, JSON.stringify(records));
  } catch {
    // Storage full or refused: the record goes out as before, only without a second chance.
  }
  publish();
}

if (typeof window !== 'undefined') {
  // Another tab of this browser kept, sent or dropped one.
  window.addEventListener('storage', (event) => {
    if (event.key === PENDING_RECORDS_STORAGE_KEY || event.key === RETRY_SCHEDULE_STORAGE_KEY || event.key === null)
      publish();
  });
}

export const pendingRecords = {
  /**
   * Keeps a record; the oldest go beyond PENDING_RECORDS_MAX. One of a session under way is replaced by the
   * next of it, longer, under the same key (decision 090): still waiting if it was.
   */
  add(record: PendingRecord, now = Date.now()): void {
    const records = read(now);
    const waiting = records.some((other) => other.key === record.key && other.waiting);
    const kept = records.filter((other) => other.key !== record.key);
    kept.push(waiting ? { ...record, waiting } : record);
    kept.sort((a, b) => a.saved_at - b.saved_at);
    write(kept.slice(-PENDING_RECORDS_MAX));
  },
  /** The person's records, oldest first; no one else's. */
  of(userId: number, now = Date.now()): PendingRecord[] {
    return read(now).filter((record) => record.user_id === userId);
  },
  /** The person's records that failed to go and wait (`waiting`). */
  waitingOf(userId: number, now = Date.now()): PendingRecord[] {
    return pendingRecords.of(userId, now).filter((record) => record.waiting === true);
  },
  /** A send of the record failed: it waits for the next chance. */
  markWaiting(key: string, now = Date.now()): void {
    const records = read(now);
    if (records.some((record) => record.key === key && !record.waiting))
      write(records.map((record) => (record.key === key ? { ...record, waiting: true } : record)));
  },
  /**
   * The server failed on this record alone: it waits, and is not tried again before the time
   * `delayAfter` gives for its failures in a row, while the others go on.
   */
  postpone(key: string, delayAfter: (failures: number) => number, now = Date.now()): void {
    write(
      read(now).map((record) => {
        if (record.key !== key) return record;
        const failures = (record.failures ?? 0) + 1;
        return { ...record, waiting: true, failures, retry_at: now + delayAfter(failures) };
      }),
    );
  },
  /**
   * The record has reached the server (or was refused for good). Given the entry `sent`, a longer one kept
   * meanwhile under its key (the session went on, decision 090) stays, to go in its turn.
   */
  remove(key: string, sent?: PendingRecord['entry'], now = Date.now()): void {
    const settled = (record: PendingRecord) =>
      record.key === key && !(sent && record.entry && replacesRecord(record.entry, sent));
    write(read(now).filter((record) => !settled(record)));
  },
  /** Forgets every record of a person (their account is deleted). */
  forget(userId: number, now = Date.now()): void {
    write(read(now).filter((record) => record.user_id !== userId));
  },
};

/**
 * When the browser's tabs next try the records that wait, shared through storage so that one tab tries
 * at a time and the waits grow across tabs (components/practice-recorder.ts). Cleared with the sign-in
 * (lib/session.ts keeps only the records): the next person signed in starts afresh.
 */
export const RETRY_SCHEDULE_STORAGE_KEY = 'innerwave.pending-records.retry';

export interface RetrySchedule {
  /** Tries in a row that sent nothing; the wait doubles with each. */
  failures: number;
  /** When the next try is due (ms since the epoch). */
  next_at: number;
  /** The server asked to wait (429 Retry-After): nothing is sent before `next_at`, whatever the reason. */
  hold: boolean;
}

export const retrySchedule = {
  get(): RetrySchedule | null {
    try {
      const stored = JSON.parse(localStorage.getItem(RETRY_SCHEDULE_STORAGE_KEY) ?? 'null') as Partial<RetrySchedule>;
      if (!stored || typeof stored.failures !== 'number' || typeof stored.next_at !== 'number') return null;
      return { failures: stored.failures, next_at: stored.next_at, hold: stored.hold === true };
    } catch {
      return null;
    }
  },
  set(schedule: RetrySchedule): void {
    try {
      localStorage.setItem(RETRY_SCHEDULE_STORAGE_KEY, JSON.stringify(schedule));
    } catch {
      // Storage refused: this tab still tries on its own timer.
    }
    publish();
  },
  clear(): void {
    try {
      if (localStorage.getItem(RETRY_SCHEDULE_STORAGE_KEY) === null) return;
      localStorage.removeItem(RETRY_SCHEDULE_STORAGE_KEY);
    } catch {
      return;
    }
    publish();
  },
};

/** Calls `listener` whenever the records kept or their schedule change, in this tab or another. */
export function subscribePendingRecords(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many of the person's records wait in this browser after a failed send (none while signed out). */
export function useWaitingRecordCount(userId: number | null): number {
  return useSyncExternalStore(
    subscribePendingRecords,
    () => (userId === null ? 0 : pendingRecords.waitingOf(userId).length),
    () => 0,
  );
}

/**
 * A version 4 UUID. `crypto.randomUUID` exists only on secure pages (HTTPS or localhost); an app served
 * over plain HTTP on a network still has `getRandomValues`.
 */
export function newRecordKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
