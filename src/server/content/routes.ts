import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  audioItemListSchema,
  desktopApplicationListSchema,
  detailErrorSchema,
  messageCategoryListSchema,
  type AudioKind,
} from '@shared/contract';
import type { AppContext } from '../context';
import { listAudioItems, listDesktopApplications, listMessageCategories } from './service';

const AUDIO_LISTS: ReadonlyArray<{ path: string; kind: AudioKind; summary: string }> = [
  { path: API.selfeggio, kind: 'selfeggio', summary: 'Solfeggio tracks' },
  { path: API.bonusAudio, kind: 'bonus', summary: 'Bonus tracks' },
  { path: API.customAudio, kind: 'custom', summary: 'Custom tracks' },
];

/** The portal's read-only content: message categories, the three audio libraries, desktop apps. */
export const contentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const security = [{ bearerAuth: [] }];

  app.get(
    API.messageCategories,
    {
      preHandler: ctx.authenticate,
      schema: { tags: ['content'], summary: 'Message categories with their messages', security, response: { 200: messageCategoryListSchema, 401: detailErrorSchema } },
    },
    async () => listMessageCategories(db),
  );

  for (const list of AUDIO_LISTS) {
    app.get(
      list.path,
      {
        preHandler: ctx.authenticate,
        schema: { tags: ['content'], summary: list.summary, security, response: { 200: audioItemListSchema, 401: detailErrorSchema } },
      },
      async () => listAudioItems(db, ctx.media, list.kind),
    );
  }

  app.get(
    API.desktopExecutables,
    {
      preHandler: ctx.authenticate,
      schema: { tags: ['content'], summary: 'Desktop applications to download', security, response: { 200: desktopApplicationListSchema, 401: detailErrorSchema } },
    },
    async () => listDesktopApplications(db, ctx.media),
  );
};
