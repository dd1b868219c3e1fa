/**
 * Values loaded once and kept for a while: concurrent misses share one load, the oldest entries go first
 * past `maxEntries`, and an entry removed while it loads is not put back by its load (so a change
 * announced during a read is never hidden by that read's result). The TTL bounds how long a change
 * made where no notice reaches (another machine, a CLI) can stay unseen.
 */
export class LoadingCache<K, V> {
  private readonly entries = new Map<K, { value: Promise<V>; settled?: { value: V }; loadedAt: number }>();

  constructor(private readonly options: { ttlMs: number; maxEntries: number; now?: () => number }) {}

  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = (this.options.now ?? Date.now)();
    const hit = this.entries.get(key);
    if (hit && now - hit.loadedAt < this.options.ttlMs) return hit.value;
    if (hit) this.entries.delete(key);
    const entry: { value: Promise<V>; settled?: { value: V }; loadedAt: number } = { value: load(), loadedAt: now };
    entry.value.then(
      (value) => (entry.settled = { value }),
      () => this.entries.get(key) === entry && this.entries.delete(key),
    );
    this.entries.set(key, entry);
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    return entry.value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Removes the entries whose loaded value matches, and every entry still loading (its value is unknown). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries)
      if (!entry.settled || matches(entry.settled.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
