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
