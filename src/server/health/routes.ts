import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, healthDownSchema, healthOkSchema } from '@shared/contract';
import type { AppContext } from '../context';

const PING_TIMEOUT_MS = 2000;

export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get(
    API.health,
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check',
        response: { 200: healthOkSchema, 503: healthDownSchema },
      },
    },
    async (request, reply) => {
      try {
        await Promise.race([
          ctx.database.ping(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('database ping timed out')), PING_TIMEOUT_MS).unref(),
          ),
        ]);
        return reply.code(200).send({ status: 'ok', db: 'ok' });
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unavailable');
        return reply.code(503).send({ status: 'error', db: 'unavailable' });
      }
    },
  );
};
