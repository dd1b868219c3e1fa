import { describe, expect, it } from 'vitest';
import { historyWriteSchema } from '@shared/contract/guidance';
import {
  newRecordKey,
  PENDING_RECORD_MAX_AGE_MS,
  PENDING_RECORDS_MAX,
  PENDING_RECORDS_STORAGE_KEY,
  pendingRecords,
  type PendingRecord,
} from './pending-records';
import { sessionStore } from './session';

const NOW = Date.parse('2026-12-03T12:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;

function kept(userId: number, key: string, savedAt = NOW): PendingRecord {
  return {
    key,
    user_id: userId,
    entry: {
      kind: 'subliminal',
      ref: 'category:4',
      title: 'Confidence',
      seconds: 600,
      finished: false,
      started_at: new Date(savedAt - 600_000).toISOString(),
      record_key: key,
    },
    day: null,
    saved_at: savedAt,
  };
}

const keys = (records: PendingRecord[]) => records.map((record) => record.key);

describe('pending records', () => {
  it('are each person’s own: another person signed in here gets none of them', () => {
    pendingRecords.add(kept(7, 'a'), NOW);
    pendingRecords.add(kept(8, 'b'), NOW);
    pendingRecords.add(kept(7, 'c', NOW + 1), NOW + 1);
    expect(keys(pendingRecords.of(7, NOW + 1))).toEqual(['a', 'c']);
    expect(keys(pendingRecords.of(8, NOW + 1))).toEqual(['b']);
    expect(pendingRecords.of(9, NOW + 1)).toEqual([]);
    pendingRecords.forget(7, NOW + 1);
    expect(pendingRecords.of(7, NOW + 1)).toEqual([]);
    expect(keys(pendingRecords.of(8, NOW + 1))).toEqual(['b']);
  });

  it('outlast the sign-out that ended the session, which clears the rest of storage', () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    localStorage.setItem('playlist', '[1,2]');
    pendingRecords.add(kept(7, 'a'), NOW);
    sessionStore.clear();
    expect(localStorage.getItem('playlist')).toBeNull();
    expect(keys(pendingRecords.of(7, NOW))).toEqual(['a']);
  });

  it('go once taken out, and a record kept twice is kept once', () => {
    pendingRecords.add(kept(7, 'a'), NOW);
    pendingRecords.add(kept(7, 'a'), NOW);
    pendingRecords.add(kept(7, 'b'), NOW);
    expect(keys(pendingRecords.of(7, NOW))).toEqual(['a', 'b']);
    pendingRecords.remove('a', undefined, NOW);
    expect(keys(pendingRecords.of(7, NOW))).toEqual(['b']);
    pendingRecords.remove('b', undefined, NOW);
    expect(localStorage.getItem(PENDING_RECORDS_STORAGE_KEY)).toBeNull();
  });

  it('are dropped once older than 30 days', () => {
    expect(PENDING_RECORD_MAX_AGE_MS).toBe(30 * DAY_MS);
    pendingRecords.add(kept(7, 'old', NOW - 30 * DAY_MS), NOW);
    pendingRecords.add(kept(7, 'recent', NOW - 29 * DAY_MS), NOW);
    expect(keys(pendingRecords.of(7, NOW))).toEqual(['recent']);
    // Storage does not keep them either.
    pendingRecords.add(kept(7, 'new'), NOW);
    expect(localStorage.getItem(PENDING_RECORDS_STORAGE_KEY)).not.toContain('"old"');
  });

  it('are at most PENDING_RECORDS_MAX, the newest', () => {
    for (let i = 0; i < PENDING_RECORDS_MAX + 5; i++) pendingRecords.add(kept(7, `r${i}`, NOW + i), NOW + i);
    const left = keys(pendingRecords.of(7, NOW + PENDING_RECORDS_MAX + 5));
    expect(left).toHaveLength(PENDING_RECORDS_MAX);
    expect(left[0]).toBe('r5');
    expect(left.at(-1)).toBe(`r${PENDING_RECORDS_MAX + 4}`);
  });

  it('leave out what storage holds that is not a record, and survive storage that is not JSON', () => {
    localStorage.setItem(PENDING_RECORDS_STORAGE_KEY, JSON.stringify([{ key: 1 }, 'x', null, kept(7, 'a')]));
    expect(keys(pendingRecords.of(7, NOW))).toEqual(['a']);
    localStorage.setItem(PENDING_RECORDS_STORAGE_KEY, '{not json');
    expect(pendingRecords.of(7, NOW)).toEqual([]);
    pendingRecords.add(kept(7, 'b'), NOW);
    expect(keys(pendingRecords.of(7, NOW))).toEqual(['b']);
  });
});

describe('newRecordKey', () => {
  it('is a new version 4 UUID each time, one the server takes as a record_key', () => {
    const made = new Set(Array.from({ length: 50 }, newRecordKey));
    expect(made.size).toBe(50);
    for (const key of made) {
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(
        historyWriteSchema.safeParse({
          kind: 'music',
          title: 'x',
          seconds: 1,
          finished: false,
          started_at: new Date(NOW).toISOString(),
          record_key: key,
        }).success,
      ).toBe(true);
    }
  });
});
