// localStorage as the app uses it. A browser may refuse it (site data blocked, the private mode of an old Safari):
// every use then throws; or have it full: a write throws. What could not be written is kept in memory instead, for
// this tab until it closes or reloads, and read from there; nothing of the app fails for it
// (docs/product/accounts.md#session-in-the-browser).

/** Values the browser would not store, by key (null: removed here, whatever the browser still holds). */
const inMemory = new Map<string, string | null>();

export const browserStorage = {
  get(key: string): string | null {
    if (inMemory.has(key)) return inMemory.get(key) ?? null;
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  /** Stores `key`; false when the browser refused it and it is kept in memory, for this tab, instead. */
  set(key: string, value: string): boolean {
    try {
      window.localStorage.setItem(key, value);
      inMemory.delete(key);
      return true;
    } catch {
      inMemory.set(key, value);
      return false;
    }
  },
  /** Keeps `key` in memory only, for this tab: other tabs do not see it. */
  hold(key: string, value: string): void {
    inMemory.set(key, value);
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing was stored.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
      inMemory.delete(key);
    } catch {
      inMemory.set(key, null);
    }
  },
  /** Whether `key` is kept in memory only (the browser refused it). */
  heldInMemory(key: string): boolean {
    return inMemory.get(key) != null;
  },
  /** Removes everything but `kept`. */
  clear(kept: readonly string[]): void {
    const values = kept.map((key) => [key, browserStorage.get(key)] as const);
    inMemory.clear();
    try {
      window.localStorage.clear();
    } catch {
      // Nothing was stored.
    }
    for (const [key, value] of values) if (value !== null) browserStorage.set(key, value);
  },
};
