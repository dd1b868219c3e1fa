import type { PrimaryChannel } from './ipc';

/**
 * What one worker tells every other when it changes something they keep in memory: a session ended,
 * a user changed (sessions, profile), or the staff edited content
 * (docs/decisions/001-workers-share-state-through-the-primary.md).
 */
export type Notice =
  { kind: 'session-ended'; sessionId: string } | { kind: 'user-changed'; userId: number } | { kind: 'content-changed' };

export interface Notices {
  /** Resolves once every worker has applied the notice, so the next request anywhere sees the change. */
  publish(notice: Notice): Promise<void>;
  subscribe(handler: (notice: Notice) => void): void;
}

/** One process: handlers run at once. */
export function localNotices(): Notices {
  const handlers: Array<(notice: Notice) => void> = [];
  return {
    publish: async (notice) => {
      for (const handler of handlers) handler(notice);
    },
    subscribe: (handler) => void handlers.push(handler),
  };
}

/** Cluster workers: the primary relays each notice to every worker (this one included) and waits for them. */
export function clusterNotices(channel: PrimaryChannel): Notices {
  return {
    publish: (notice) => channel.call('notices.publish', notice),
    subscribe: (handler) => channel.onNotice((notice) => handler(notice as Notice)),
  };
}

/**
 * Carries notices to the other servers (docs/decisions/014-redis-or-listen-notify-between-servers.md):
 * Redis pub/sub (REDIS_URL), else PostgreSQL LISTEN/NOTIFY (DATABASE_URL). It never fails: a notice it
 * cannot carry is logged, and the other servers' copies then live out their time limits.
 */
export interface NoticeBus {
  /** Sends to every other server; resolves once the bus has carried it (Redis: once they applied it). */
  send(notice: Notice): Promise<void>;
  /** Applies the other servers' notices here; the bus acknowledges each when `apply` has resolved. */
  receive(apply: (notice: Notice) => Promise<void>): void;
  /** Resolves once this server listens (the server does not wait for it; tests do). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * This server's notices (`here`: its own processes) joined to the other servers' through `bus`: a notice
 * published here is applied here and sent to the others at once; one from another server is applied here.
 */
export function acrossServers(here: Notices, bus: NoticeBus): Notices {
  bus.receive((notice) => here.publish(notice));
  return {
    publish: async (notice) => {
      await Promise.all([here.publish(notice), bus.send(notice)]);
    },
    subscribe: (handler) => here.subscribe(handler),
  };
}

/** What crosses the bus: the notice, which server sent it, and its number there (for acknowledgements). */
export interface BusMessage {
  origin: string;
  id: number;
  notice: Notice;
}

const NOTICE_KINDS = new Set<string>(['session-ended', 'user-changed', 'content-changed']);

/** A message from the bus, or undefined when it is not one of ours. */
export function parseBusMessage(text: string): BusMessage | undefined {
  try {
    const message = JSON.parse(text) as Partial<BusMessage> | null;
    const notice = message?.notice as { kind?: unknown } | undefined;
    if (typeof message?.origin !== 'string' || typeof message.id !== 'number') return undefined;
    return typeof notice?.kind === 'string' && NOTICE_KINDS.has(notice.kind) ? (message as BusMessage) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sender's side of acknowledgements: `send` numbers a notice, hands it to `deliver` (which answers
 * how many other servers got it), and resolves once that many have acknowledged, or after `timeoutMs`.
 */
export function acknowledgements(timeoutMs: number) {
  const waiting = new Map<number, { acks: number; due?: number; done: () => void }>();
  let nextId = 1;
  return {
    send: (deliver: (id: number) => Promise<number>, onError: (error: unknown) => void) =>
      new Promise<void>((resolve) => {
        const id = nextId++;
        const entry: { acks: number; due?: number; done: () => void } = { acks: 0, done: () => undefined };
        const timer = setTimeout(() => entry.done(), timeoutMs);
        entry.done = () => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        };
        // Registered before delivery: an acknowledgement may overtake the delivery's own answer.
        waiting.set(id, entry);
        deliver(id).then(
          (others) => {
            entry.due = Math.max(0, others);
            if (entry.acks >= entry.due) entry.done();
          },
          (error: unknown) => {
            onError(error);
            entry.done();
          },
        );
      }),
    acknowledged(id: number) {
      const entry = waiting.get(id);
      if (!entry) return;
      entry.acks++;
      if (entry.due !== undefined && entry.acks >= entry.due) entry.done();
    },
  };
}
