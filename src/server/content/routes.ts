import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  AUDIO_KINDS,
  AUDIO_LIBRARIES,
  audioItemListSchema,
  audioLibraryStateSchema,
  desktopApplicationListSchema,
  detailErrorSchema,
  messageCategoryListSchema,
} from '@shared/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AudioKind } from '@shared/contract';
import type { AppContext } from '../context';
import { LoadingCache } from '../cache/loading-cache';
import { jsonBody, sendJsonBody, type JsonBody } from '../http/json-body';
import { audioLibraryPreparing } from '../jobs/seed-audio-job';
import { listAudioItems, listDesktopApplications, listMessageCategories } from './service';

/** The portal's read-only content: message categories, the three audio libraries, desktop apps. */
export const contentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const security = [{ bearerAuth: [] }];
  // Content changes only when staff edit it: each list is serialised once and kept until they do
  // (a notice clears it in every worker). Audio URLs are signed for hours, so a minute-old list is fine.
  const lists = new LoadingCache<string, JsonBody>({ ttlMs: 60_000, maxEntries: 16 });
  ctx.notices.subscribe((notice) => notice.kind === 'content-changed' && lists.clear());
  const cached = (key: string, load: () => Promise<unknown>) => async (request: FastifyRequest, reply: FastifyReply) =>
    sendJsonBody(request, reply, await lists.get(key, async () => jsonBody(await load())));
  // While the seeded library is built (the first start), a list grows track by track: it is read anew
  // each time rather than kept for a minute. Whether it is still built is asked at most every few seconds.
  const preparing = new LoadingCache<'preparing', boolean>({ ttlMs: 3_000, maxEntries: 1 });
  const libraryPreparing = () => preparing.get('preparing', () => audioLibraryPreparing(db));
  const audioList = (kind: AudioKind) => {
    const send = cached(kind, () => listAudioItems(db, ctx.media, kind));
    return async (request: FastifyRequest, reply: FastifyReply) => {
      if (await libraryPreparing()) lists.delete(kind);
      return send(request, reply);
    };
  };

  app.get(
    API.messageCategories,
    {
      preHandler: ctx.authenticate,
      schema: {
        tags: ['content'],
        summary: 'Message categories with their messages',
        security,
        response: { 200: messageCategoryListSchema, 401: detailErrorSchema },
      },
    },
    cached('categories', () => listMessageCategories(db)),
  );

  for (const kind of AUDIO_KINDS) {
    const list = { kind, path: AUDIO_LIBRARIES[kind].path, summary: `${AUDIO_LIBRARIES[kind].title} tracks` };
    app.get(
      list.path,
      {
        preHandler: ctx.authenticate,
        schema: {
          tags: ['content'],
          summary: list.summary,
          security,
          response: { 200: audioItemListSchema, 401: detailErrorSchema },
        },
      },
      audioList(list.kind),
    );
  }

  app.get(
    API.audioLibrary,
    {
      preHandler: ctx.authenticate,
      schema: {
        tags: ['content'],
        summary: 'Whether the audio libraries are still being prepared',
        security,
        response: { 200: audioLibraryStateSchema, 401: detailErrorSchema },
      },
    },
    async () => ({ preparing: await libraryPreparing() }),
  );

  app.get(
    API.desktopExecutables,
    {
      preHandler: ctx.authenticate,
      schema: {
        tags: ['content'],
        summary: 'Desktop applications to download',
        security,
        response: { 200: desktopApplicationListSchema, 401: detailErrorSchema },
      },
    },
    cached('applications', () => listDesktopApplications(db, ctx.media)),
  );
};
