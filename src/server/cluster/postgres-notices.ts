import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { throttledWarning, type WarningLog } from './throttled-warning';
import { acknowledgements, parseBusMessage, type BusMessage, type Notice, type NoticeBus } from './notices';

// Notices between servers over PostgreSQL LISTEN/NOTIFY, when there is no Redis: one connection of its
// own per server listens on a channel and sends on it. PostgreSQL delivers a NOTIFY to every listening
// connection (of the same database) but does not tell the sender who got it; the listening connections
// are named (application_name) once they listen, so the sender counts the others in the same statement
// and waits until each has applied the notice and acknowledged it on the channel (at most `ackTimeoutMs`),
// as over Redis (docs/decisions/014-redis-or-listen-notify-between-servers.md). A lost connection is opened
// again, every second until it succeeds.

export interface PostgresNoticeOptions {
  /** The LISTEN channel (one per deployment sharing a PostgreSQL server). */
  channel: string;
  log: WarningLog;
  /** How long a sender waits for the other servers' acknowledgements. */
  ackTimeoutMs?: number;
}

interface Ack {
  ack: number;
  to: string;
}

const RECONNECT_MS = 1000;

export function postgresNoticeBus(url: string, options: PostgresNoticeOptions): NoticeBus {
  const origin = randomUUID();
  const warn = throttledWarning(options.log, 'notices between servers unavailable (PostgreSQL LISTEN); retrying');
  let client: pg.Client | undefined;
  const listen = `LISTEN "${options.channel.replace(/"/g, '""')}"`;
  // What the senders count: the listening connections of every server.
  const applicationName = `innerwave LISTEN ${options.channel}`.slice(0, 63);
  const sent = acknowledgements(options.ackTimeoutMs ?? 1000);
  const notify = (text: string) => {
    if (!client) throw new Error('not connected to PostgreSQL');
    return client.query<{ listeners: string }>(
      `SELECT pg_notify($1, $2), (SELECT count(*) FROM pg_stat_activity
         WHERE application_name = $3 AND datname = current_database() AND pid <> pg_backend_pid()) AS listeners`,
      [options.channel, text, applicationName],
    );
  };
  let apply: (notice: Notice) => Promise<void> = async () => undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let listening = () => {};
  const ready = new Promise<void>((resolve) => (listening = resolve));

  const connect = async () => {
    retry = undefined;
    // Named as a listener only once it listens: a connection counted before its LISTEN would be waited
    // for (ackTimeoutMs) and miss the notice, as a server reconnecting did.
    const next = new pg.Client({ connectionString: url, application_name: 'innerwave connecting' });
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
      if (channel !== options.channel || !payload) return;
      const ack = parseAck(payload);
      if (ack) return void (ack.to === origin && sent.acknowledged(ack.ack));
      const message = parseBusMessage(payload);
      if (!message || message.origin === origin) return;
      apply(message.notice)
        .catch((error: unknown) => warn(error))
        .then(() => notify(JSON.stringify({ ack: message.id, to: message.origin } satisfies Ack)))
        .catch(() => undefined);
    });
    try {
      await next.connect();
      await next.query(listen);
      if (closed) return void next.end().catch(() => undefined);
      // Able to send (and hear acknowledgements) before the other servers count it.
      client = next;
      await next.query(`SELECT set_config('application_name', $1, false)`, [applicationName]);
      listening();
    } catch (error) {
      reconnect(error);
    }
  };
  void connect();

  return {
    send: (notice) =>
      sent.send(async (id) => {
        const { rows } = await notify(JSON.stringify({ origin, id, notice } satisfies BusMessage));
        return Number(rows[0]?.listeners ?? 0);
      }, warn),
    receive: (handler) => void (apply = handler),
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

function parseAck(text: string): Ack | undefined {
  try {
    const value = JSON.parse(text) as Partial<Ack> | null;
    return typeof value?.ack === 'number' && typeof value.to === 'string' ? (value as Ack) : undefined;
  } catch {
    return undefined;
  }
}
