import { describe, expect, it } from 'vitest';
import { LoadingCache } from './loading-cache';

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe('LoadingCache', () => {
  it('loads a key once for concurrent readers, and again after its time', async () => {
    let now = 0;
    const cache = new LoadingCache<string, number>({ ttlMs: 1000, maxEntries: 10, now: () => now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    now = 999;
    expect(await cache.get('a', load)).toBe(1);
    now = 1000;
    expect(await cache.get('a', load)).toBe(2);
  });

  it('does not keep a value whose entry was removed while it loaded (a change announced mid-read)', async () => {
    const cache = new LoadingCache<string, string>({ ttlMs: 60_000, maxEntries: 10 });
    const stale = deferred<string>();
    const first = cache.get('k', () => stale.promise);
    cache.delete('k');
    const fresh = cache.get('k', async () => 'new');
    stale.resolve('old');
    expect(await first).toBe('old');
    expect(await fresh).toBe('new');
    expect(await cache.get('k', async () => 'newer')).toBe('new');
  });

  it('forgets failed loads, evicts the oldest past its size, and removes by value', async () => {
    const cache = new LoadingCache<number, { owner: number } | null>({ ttlMs: 60_000, maxEntries: 2 });
    await expect(cache.get(1, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get(1, async () => ({ owner: 7 }))).toEqual({ owner: 7 });
    await cache.get(2, async () => ({ owner: 8 }));
    await cache.get(3, async () => null);
    // Key 1 was the oldest: loaded again.
    expect(await cache.get(1, async () => ({ owner: 9 }))).toEqual({ owner: 9 });

    const loading = deferred<{ owner: number }>();
    void cache.get(4, () => loading.promise);
    cache.deleteWhere((value) => value?.owner === 9);
    expect(await cache.get(1, async () => ({ owner: 10 }))).toEqual({ owner: 10 });
    // Still loading when the owner changed: its value is unknown, so it went too.
    expect(await cache.get(4, async () => ({ owner: 11 }))).toEqual({ owner: 11 });
    loading.resolve({ owner: 9 });
  });
});
