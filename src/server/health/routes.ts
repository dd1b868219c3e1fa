import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, healthDownSchema, healthOkSchema } from '@shared/contract';
import type { AppContext } from '../context';

const PING_TIMEOUT_MS = 2000;
/**
 * How long a database that answered counts as up. Load balancers poll health often, from several
 * places: within this window they get the last answer at once instead of queueing a query behind the
 * requests the database is busy with (a login storm), so health measures this server's own
 * responsiveness. A failed ping is never reused: the next check asks again.
 */
export const HEALTH_PING_FRESH_MS = 1000;
/**
 * A check that finds the last success older than this asks the database again in the background and
 * answers from that success: a server polled more often than the window never keeps a check waiting
 * for the database, yet every answer rests on a ping at most HEALTH_PING_FRESH_MS old.
 */
export const HEALTH_PING_REFRESH_MS = HEALTH_PING_FRESH_MS / 2;

/** The database ping as health uses it: one in flight at a time, a success reused for a short while. */
export function sharedPing(ping: () => Promise<void>, now: () => number = Date.now) {
  let inFlight: Promise<void> | undefined;
  let okAt = -Infinity;
  const ask = () =>
    Promise.race([
      ping(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('database ping timed out')), PING_TIMEOUT_MS).unref(),
      ),
    ])
      .then(
        () => void (okAt = now()),
        (error: unknown) => {
          // A failure, even one found ahead of time, ends the reuse of the last success.
          okAt = -Infinity;
          throw error;
        },
      )
      .finally(() => (inFlight = undefined));
  return (): Promise<void> => {
    const age = now() - okAt;
    if (age < HEALTH_PING_REFRESH_MS) return Promise.resolve();
    inFlight ??= ask();
    if (age < HEALTH_PING_FRESH_MS) {
      // Answered from the last success; the refresh's outcome is for the next check.
      inFlight.catch(() => undefined);
      return Promise.resolve();
    }
    return inFlight;
  };
}

export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const ping = sharedPing(() => ctx.database.ping());
  app.get(
    API.health,
    {
      schema: {
        tags: ['health'],
        summary: `Liveness and database check (a database that answered counts as up for ${HEALTH_PING_FRESH_MS} ms)`,
        response: { 200: healthOkSchema, 503: healthDownSchema },
      },
    },
    async (request, reply) => {
      try {
        await ping();
        return reply.code(200).send({ status: 'ok', db: 'ok' });
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unavailable');
        return reply.code(503).send({ status: 'error', db: 'unavailable' });
      }
    },
  );
};
