// Installed as navigator.locks (jsdom has none) by a test of what the tabs of a browser do together;
// it stays until the test deletes it: Reflect.deleteProperty(navigator, 'locks').

/**
 * The browser's Web Locks across its tabs, in one page: requests of one name are granted in order, any
 * number of shared ones together, an exclusive one alone; each is held until its callback's promise settles.
 * This tab's calls reach the browser `lagMs` late, in order (a page's first call binds its connection); those of
 * `otherTab`, another tab's, at once. Returns the modes held of each name (`held`: of the lock a tab holds while
 * it has sessions to record).
 */
export function fakeLocks({ lagMs = 0 }: { lagMs?: number } = {}) {
  type Request = { mode: LockMode; grant(): void };
  const heldByName = new Map<string, LockMode[]>();
  const queues = new Map<string, Request[]>();
  const heldOf = (name: string) => heldByName.get(name) ?? heldByName.set(name, []).get(name)!;
  const queueOf = (name: string) => queues.get(name) ?? queues.set(name, []).get(name)!;
  function next(name: string) {
    const held = heldOf(name);
    const queue = queueOf(name);
    const grantable = (mode: LockMode) => (mode === 'shared' ? held.every((m) => m === 'shared') : held.length === 0);
    while (queue[0] && grantable(queue[0].mode)) queue.shift()!.grant();
  }
  /** A tab's lock manager: what it asks reaches the browser `lagMs` later, each call after the one before. */
  const managerOf = (lag: number) => {
    let line: Promise<unknown> = Promise.resolve();
    const delivered = <T>(call: () => Promise<T> | T): Promise<T> => {
      if (lag === 0) return Promise.resolve(call());
      line = line.then(() => new Promise((resolve) => setTimeout(resolve, lag)));
      return line.then(call);
    };
    return {
      request(name: string, ...args: [LockOptions, () => unknown] | [() => unknown]): Promise<unknown> {
        return delivered(() => requested(name, ...args));
      },
      query: () =>
        delivered(() => ({
          held: [...heldByName].flatMap(([name, modes]) => modes.map((mode) => ({ name, mode }))),
          pending: [...queues].flatMap(([name, queue]) => queue.map(({ mode }) => ({ name, mode }))),
        })),
    };
  };
  function requested(name: string, ...args: [LockOptions, () => unknown] | [() => unknown]): Promise<unknown> {
    const [options, callback] = args.length === 2 ? args : [{}, args[0]];
    const mode = options.mode ?? 'exclusive';
    const queue = queueOf(name);
    // Given up before it reached the browser.
    if (options.signal?.aborted) return Promise.reject(new DOMException('aborted', 'AbortError'));
    return new Promise((resolve, reject) => {
      const request: Request = {
        mode,
        grant() {
          const held = heldOf(name);
          held.push(mode);
          void Promise.resolve(callback())
            .then(resolve, reject)
            .finally(() => {
              held.splice(held.indexOf(mode), 1);
              next(name);
            });
        },
      };
      options.signal?.addEventListener('abort', () => {
        if (!queue.includes(request)) return;
        queue.splice(queue.indexOf(request), 1);
        reject(new DOMException('aborted', 'AbortError'));
      });
      queue.push(request);
      next(name);
    });
  }
  Object.defineProperty(navigator, 'locks', { value: managerOf(lagMs), configurable: true });
  return { held: heldOf('innerwave.unrecorded-sessions'), heldOf, otherTab: managerOf(0) };
}
