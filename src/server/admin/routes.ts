import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMIN_API } from '@shared/contract';
import type { AppContext } from '../context';
import type { ContentStore } from './media-context';
import { registerApplicationRoutes } from './routes/applications';
import { registerJobRoutes } from './routes/jobs';
import { registerBackupRoutes } from './routes/backups';
import { registerAudioRoutes } from './routes/audio';
import { registerMessageRoutes } from './routes/messages';
import { registerProgramRoutes } from './routes/programs';
import { registerSupportRoutes } from './routes/support';
import { registerUserRoutes } from './routes/users';

// Staff-only administration (docs/product/api.md#admin). Every route answers 401 without a live token
// and 403 for a user who is not staff; the services are the same ones the admin CLI calls.

export const adminRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // The multipart content type; uploads are read by readUpload, within their own limits.
  await app.register(multipart);
  // onRequest, not preHandler: a stranger is refused before the body (an upload) is read or validated.
  app.addHook('onRequest', ctx.authenticateStaff);
  // A JSON body is asked about again once it is in (registerSessionCheckAfterBody); uploads ask as they keep their file.
  // Every change staff make here is content the workers keep in memory (support requests and jobs aside): each
  // of them drops it before the change is answered, so the next read anywhere sees it.
  app.addHook('onSend', async (request, reply, payload) => {
    const content = !request.url.startsWith(ADMIN_API.supportRequests) && !request.url.startsWith(ADMIN_API.jobs);
    if (content && request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
      await ctx.notices
        .publish({ kind: 'content-changed' })
        .catch((error: unknown) => request.log.error({ err: error }, 'content change not announced'));
    }
    return payload;
  });
  const store: ContentStore = { db: ctx.database.db, files: ctx.mediaFiles, mediaUrl: ctx.media.url };
  const db = ctx.database.db;
  const deps = { app, ctx, store, db };
  for (const register of [
    registerUserRoutes,
    registerMessageRoutes,
    registerAudioRoutes,
    registerApplicationRoutes,
    registerSupportRoutes,
    registerProgramRoutes,
    registerJobRoutes,
    registerBackupRoutes,
  ])
    register(deps);
};
