import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SUPPORT } from '@shared/constants';
import {
  API,
  apiErrorSchema,
  detailErrorSchema,
  supportRequestReceiptSchema,
  supportRequestWriteSchema,
} from '@shared/contract';
import { currentUser } from '../auth/authenticate';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import type { Db } from '../db/client';
import { mailJob } from '../jobs/mail-kinds';
import { createSupportRequest } from './service';

// The portal's support form (docs/product/api.md#support): stored, then mailed to SUPPORT_EMAIL with
// the sender as Reply-To, and to the sender too when they ask for a copy.

const HOUR_MS = 60 * 60 * 1000;

export const supportRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  // Per person, counted only for requests that pass validation (the limit is about mail sent).
  const limit = app.createRateLimit({
    max: SUPPORT.requestsPerHour,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => `support|${currentUser(request).id}`,
  });

  app.post(
    API.support,
    {
      // onRequest: a stranger is refused before the body is read or validated.
      onRequest: ctx.authenticate,
      schema: {
        tags: ['support'],
        summary: 'Send a support request: stored, mailed to the support address (and a copy to the sender if asked)',
        description: `Requests of plans that include priority support are flagged and answered first. At most ${SUPPORT.requestsPerHour} per person per hour.`,
        security: [{ bearerAuth: [] }],
        body: supportRequestWriteSchema,
        response: {
          201: supportRequestReceiptSchema,
          400: apiErrorSchema,
          401: detailErrorSchema,
          429: detailErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const sender = currentUser(request);
      const counted = await limit(request);
      if (!counted.isAllowed && counted.isExceeded) {
        const minutes = Math.max(1, Math.ceil(counted.ttlInSeconds / 60));
        throw new ApiError(
          429,
          {
            detail: `You have sent ${SUPPORT.requestsPerHour} support requests in the last hour. You can send another in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}; we have the ones you sent.`,
          },
          { 'Retry-After': String(Math.max(1, Math.ceil(counted.ttlInSeconds))) },
        );
      }
      // Stored with its mails as jobs in one transaction: they are retried until delivered (or left for staff).
      const row = await db.transaction(async (tx) => {
        const stored = await createSupportRequest(tx as unknown as Db, sender, request.body);
        const payload = { requestId: stored.id };
        await ctx.jobs.enqueue(tx, mailJob({ kind: 'mail.support-request', payload }));
        if (request.body.send_copy) await ctx.jobs.enqueue(tx, mailJob({ kind: 'mail.support-copy', payload }));
        return stored;
      });
      ctx.jobs.wake();
      return reply.code(201).send({ id: row.id, created_at: row.createdAt.toISOString(), priority: row.priority });
    },
  );
};
