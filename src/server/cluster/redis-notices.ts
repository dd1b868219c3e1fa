import { randomUUID } from 'node:crypto';
import { closeRedis, connectRedis } from './redis';
import { throttledWarning, type WarningLog } from './throttled-warning';
import { acknowledgements, parseBusMessage, type BusMessage, type Notice, type NoticeBus } from './notices';

// Notices between servers over Redis pub/sub. Each server subscribes to one channel of notices and one
// of acknowledgements addressed to it. A sender learns from PUBLISH how many subscribers got the notice,
// and waits until each other server has applied it and acknowledged (at most `ackTimeoutMs`): so a
// logout, once answered, is refused by every server that Redis could reach.

export interface RedisNoticeOptions {
  /** Keys and channels begin with it (several deployments may share one Redis). */
  prefix: string;
  log: WarningLog;
  /** How long a sender waits for the other servers' acknowledgements. */
  ackTimeoutMs?: number;
}

export function redisNoticeBus(url: string, options: RedisNoticeOptions): NoticeBus {
  const origin = randomUUID();
  const channel = `${options.prefix}notices`;
  const ackChannel = (server: string) => `${options.prefix}notice-acks:${server}`;
  const commands = connectRedis(url, options.log);
  // Subscribing waits for the connection; ioredis subscribes again after each reconnection.
  const subscriber = connectRedis(url, options.log, { queueWhileOffline: true });
  const warn = throttledWarning(options.log, 'a notice could not reach the other servers (Redis)');
  const sent = acknowledgements(options.ackTimeoutMs ?? 1000);
  let apply: (notice: Notice) => Promise<void> = async () => undefined;

  const ready = subscriber.subscribe(channel, ackChannel(origin)).then(
    () => undefined,
    (error: unknown) => warn(error),
  );
  subscriber.on('message', (from: string, text: string) => {
    if (from === ackChannel(origin)) return sent.acknowledged(Number(text));
    const message = from === channel ? parseBusMessage(text) : undefined;
    if (!message || message.origin === origin) return;
    apply(message.notice)
      .catch((error: unknown) => warn(error))
      .then(() => commands.publish(ackChannel(message.origin), String(message.id)))
      .catch(() => undefined);
  });

  return {
    send: (notice) =>
      sent.send(async (id) => {
        const receivers = await commands.publish(channel, JSON.stringify({ origin, id, notice } satisfies BusMessage));
        // This server's own subscriber is among the receivers (when it is connected).
        return receivers - (subscriber.status === 'ready' ? 1 : 0);
      }, warn),
    receive: (handler) => void (apply = handler),
    ready,
    async close() {
      await Promise.all([closeRedis(commands), closeRedis(subscriber)]);
    },
  };
}
