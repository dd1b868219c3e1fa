import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { throttledWarning, type WarningLog } from './redis';
import { parseBusMessage, type BusMessage, type Notice, type NoticeBus } from './notices';

// Notices between servers over PostgreSQL LISTEN/NOTIFY, when there is no Redis: one connection of its
// own per server listens on a channel and sends on it. PostgreSQL delivers a NOTIFY to every listening
// connection as soon as it is sent (outside a transaction), but tells the sender nothing of who got
// it: a sender does not wait, and the other servers apply the notice a few milliseconds after the
// publisher's answer (docs/decisions/014-redis-or-listen-notify-between-servers.md). A lost connection
// is opened again, every second until it succeeds.

export interface PostgresNoticeOptions {
  /** The LISTEN channel (one per deployment sharing a PostgreSQL server). */
  channel: string;
  log: WarningLog;
}

const RECONNECT_MS = 1000;

export function postgresNoticeBus(url: string, options: PostgresNoticeOptions): NoticeBus {
  const origin = randomUUID();
  const warn = throttledWarning(options.log, 'notices between servers unavailable (PostgreSQL LISTEN); retrying');
  const listen = `LISTEN "${options.channel.replace(/"/g, '""')}"`;
  let client: pg.Client | undefined;
  let apply: (notice: Notice) => Promise<void> = async () => undefined;
  let nextId = 1;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let listening = () => {};
  const ready = new Promise<void>((resolve) => (listening = resolve));

  const connect = async () => {
    retry = undefined;
    const next = new pg.Client({ connectionString: url, application_name: `innerwave LISTEN ${options.channel}` });
    let lost = false;
    const reconnect = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (error) warn(error);
      if (client === next) client = undefined;
      next.end().catch(() => undefined);
      if (!closed && !retry) retry = setTimeout(() => void connect(), RECONNECT_MS);
    };
    next.on('error', reconnect);
    next.on('end', () => reconnect());
    next.on('notification', ({ channel, payload }) => {
      const message = channel === options.channel && payload ? parseBusMessage(payload) : undefined;
      if (message && message.origin !== origin) apply(message.notice).catch((error: unknown) => warn(error));
    });
    try {
      await next.connect();
      await next.query(listen);
      if (closed) return void next.end().catch(() => undefined);
      client = next;
      listening();
    } catch (error) {
      reconnect(error);
    }
  };
  void connect();

  return {
    async send(notice) {
      const message: BusMessage = { origin, id: nextId++, notice };
      if (!client) return warn(new Error('not connected'));
      await client
        .query('SELECT pg_notify($1, $2)', [options.channel, JSON.stringify(message)])
        .then(() => undefined, warn);
    },
    receive: (handler) => void (apply = handler),
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
