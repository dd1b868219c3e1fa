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
import { createSupportRequest, supportRequestsInLastHour } from './service';

// The portal's support form (docs/product/api.md#support): stored, then mailed to SUPPORT_EMAIL with
// the sender as Reply-To, and to the sender too when they ask for a copy.

function tooManySupportRequests(freeInSeconds: number): ApiError {
  const seconds = Math.max(1, Math.ceil(freeInSeconds));
  const minutes = Math.ceil(seconds / 60);
  return new ApiError(
    429,
    {
      detail: `You have sent ${SUPPORT.requestsPerHour} support requests in the last hour. You can send another in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}; we have the ones you sent.`,
    },
    { 'Retry-After': String(seconds) },
  );
}

export const supportRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

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
      // Stored with its mails as jobs in one transaction: they are retried until delivered (or left for staff).
      // The hourly limit is counted in the same transaction, from the requests stored (it is about mail sent).
      const row = await db.transaction(async (tx) => {
        const recent = await supportRequestsInLastHour(tx as unknown as Db, sender.id);
        if (recent.sent >= SUPPORT.requestsPerHour) throw tooManySupportRequests(recent.freeInSeconds);
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
