import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  detailErrorSchema,
  planRequiredErrorSchema,
  sharedCopySchema,
  sharedItemSchema,
  shareTokenParamsSchema,
} from '@shared/contract';
import type { AppContext } from '../context';
import { tooManyRequests } from '../http/errors';
import { userOf } from './route-kit';
import { copyShared, readShared } from './shares';

// What a share link opens (docs/product/api.md#saved-and-shared): anyone may read it, a signed-in
// person may copy it into their own account.

export const sharedRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const tags = ['saved and shared'];
  // Anyone may ask, so each client address is limited like the other calls open to anyone
  // (the sign-in calls' window and number, counted apart from them).
  const { windowSeconds, perAddress } = ctx.config.authRateLimit;
  const limit = app.createRateLimit({
    max: perAddress,
    timeWindow: windowSeconds * 1000,
    keyGenerator: (request) => `shared|${request.ip}`,
  });

  app.get(
    API.shared,
    {
      schema: {
        tags,
        summary: 'What a share link shows: the name and the texts (anyone; 404 once revoked)',
        params: shareTokenParamsSchema,
        response: { 200: sharedItemSchema, 404: detailErrorSchema, 429: detailErrorSchema },
      },
    },
    async (request, reply) => {
      const counted = await limit(request);
      if (!counted.isAllowed && counted.isExceeded) throw tooManyRequests(counted.ttlInSeconds);
      // Never kept by a browser or a proxy: a revoked link must stop working at once.
      return reply.header('Cache-Control', 'no-store').send(await readShared(db, request.params.token));
    },
  );
  app.post(
    API.sharedCopy,
    {
      onRequest: ctx.authenticate,
      schema: {
        tags,
        summary: 'Copy what a link shares into one’s own account (within the plan)',
        security: [{ bearerAuth: [] }],
        params: shareTokenParamsSchema,
        response: {
          201: sharedCopySchema,
          401: detailErrorSchema,
          403: planRequiredErrorSchema,
          404: detailErrorSchema,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await copyShared(db, userOf(request), request.params.token, ctx.config.publicUrl)),
  );
};
