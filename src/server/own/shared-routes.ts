import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  detailErrorSchema,
  planRequiredErrorSchema,
  sharedCopyRequestSchema,
  sharedCopySchema,
  sharedItemSchema,
  SHARED_PAGE,
  SHARE_TOKEN_PATTERN,
  shareTokenParamsSchema,
  type ServedShared,
} from '@shared/contract';
import type { AppContext } from '../context';
import { clientOf } from '../http/client-address';
import { ApiError, tooManyRequests } from '../http/errors';
import { sendDocument, type SharedPage } from '../http/web';
import { userOf } from './route-kit';
import { copyShared, readShared } from './shares';

// What a share link opens (docs/product/api.md#saved-and-shared): anyone may read it, a signed-in
// person may copy it into their own account. With the web build's share page renderer (`sharedPage`),
// the link's own page `/s/{token}` comes filled with it
// (docs/decisions/024-the-server-fills-the-share-page.md).

export const sharedRoutes: FastifyPluginAsyncZod<AppContext & { sharedPage?: SharedPage | undefined }> = async (
  app,
  { sharedPage, ...ctx },
) => {
  const { db } = ctx.database;
  const tags = ['saved and shared'];
  // Anyone may ask, so each client address is limited like the other calls open to anyone
  // (the sign-in calls' window and number, counted apart from them); the share page's reads count here too.
  const { windowSeconds, perAddress } = ctx.config.authRateLimit;
  const limit = app.createRateLimit({
    max: perAddress,
    timeWindow: windowSeconds * 1000,
    keyGenerator: (request) => `shared|${clientOf(request.ip)}`,
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
        body: sharedCopyRequestSchema,
        response: {
          200: sharedCopySchema,
          201: sharedCopySchema,
          401: detailErrorSchema,
          403: planRequiredErrorSchema,
          404: detailErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { copy, created } = await copyShared(
        db,
        userOf(request),
        request.params.token,
        ctx.config.publicUrl,
        request.body?.copy_key,
      );
      return reply.code(created ? 201 : 200).send(copy);
    },
  );

  if (!sharedPage) return;
  /**
   * What the link shares, read as the API reads it and counted against the same limit (the page and
   * the API together allow no more reads): undefined when the page is to read it itself (over the
   * limit, the database failing, the server overloaded), where it shows the API's answer.
   */
  const serve = async (request: FastifyRequest, token: string): Promise<ServedShared | undefined> => {
    if (!SHARE_TOKEN_PATTERN.test(token)) return { status: 'gone' };
    if (request.overloaded) return undefined;
    const counted = await limit(request);
    if (!counted.isAllowed && counted.isExceeded) return undefined;
    try {
      return { status: 'ready', item: await readShared(db, token) };
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) return { status: 'gone' };
      request.log.warn({ err: error }, 'the share page could not read its link: sending the loading page');
      return undefined;
    }
  };
  // A page, not an API call: no schema (a token that cannot exist is a link not found, not a 400).
  // Its form with a trailing slash is redirected here, as every page's other form (registerWeb).
  const sendSharePage = async (request: FastifyRequest, reply: FastifyReply) => {
    const { token } = request.params as { token: string };
    const served = await serve(request, token);
    let html: string | undefined;
    try {
      html = served && sharedPage.fill(served, request.url.split('?')[0] ?? '/');
    } catch (error) {
      request.log.error({ err: error }, 'the share page could not be filled: sending the loading page');
    }
    if (!served || html === undefined) return reply.sendFile(sharedPage.loadingFile);
    return sendDocument(request, reply, served.status === 'gone' ? 404 : 200, html);
  };
  app.get(SHARED_PAGE, { schema: { hide: true } }, sendSharePage);
};
