import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  API,
  detailErrorSchema,
  exportQuerySchema,
  planRequiredErrorSchema,
  PLAYLIST_BODY_BYTES,
  PLAYLIST_BODY_VALUES,
  savedSubliminalSchema,
  shareLinkSchema,
  subliminalListSchema,
  subliminalSchema,
  subliminalWriteSchema,
  subliminalWriteSchemaOf,
} from '@shared/contract';
import { bodyLettingStoredTextThrough } from '../http/request-body';
import type { AppContext } from '../context';
import { exportFile } from './export';
import { errors, routeKit, userOf, type ZodApp } from './route-kit';
import { assertFeature, listOwnCategories, type GatedFeature } from './service';
import { share, unshare, type ShareableKind } from './shares';
import * as saved from './subliminals';

// Saved subliminals, their share links and those of own categories, and the export of one's own
// messages (docs/product/api.md#saved-and-shared). Registered inside the own-content plugin, behind
// its sign-in. A call the plan lacks is refused before its body is read; reading, deleting and
// revoking a share stay open after a downgrade.

const planRequired = { 403: planRequiredErrorSchema };

export function savedAndSharedRoutes(app: ZodApp, ctx: AppContext): void {
  const { db } = ctx.database;
  const { publicUrl } = ctx.config;
  const { described, describedById, deleteById } = routeKit(app, db, 'saved and shared');
  /** Runs before validation: a plan without the feature hears so, whatever the body. */
  const requires = (feature: GatedFeature) => ({
    preValidation: async (request: FastifyRequest) => {
      await assertFeature(db, userOf(request), feature);
    },
  });

  app.get(
    API.subliminals,
    described('Saved subliminals, newest change first', {
      response: { 200: subliminalListSchema, 401: detailErrorSchema },
    }),
    async (request) => saved.listSubliminals(db, userOf(request)),
  );
  app.post(
    API.subliminals,
    {
      ...described('Save a subliminal (Intermediate and up; up to the plan’s number)', {
        body: subliminalWriteSchema,
        response: { 201: savedSubliminalSchema, ...planRequired, ...errors },
      }),
      ...requires('savedSubliminals'),
      bodyLimit: PLAYLIST_BODY_BYTES,
      config: { jsonValues: PLAYLIST_BODY_VALUES },
    },
    async (request, reply) =>
      reply.code(201).send(await saved.createSubliminal(db, userOf(request), request.body, publicUrl)),
  );
  app.get(
    API.subliminal,
    describedById('One saved subliminal', { response: { 200: subliminalSchema } }),
    async (request) => saved.getSubliminal(db, userOf(request), request.params.id, publicUrl),
  );
  app.put(
    API.subliminal,
    {
      ...describedById('Replace a saved subliminal’s name, messages and settings (Intermediate and up)', {
        body: subliminalWriteSchema,
        response: { 200: savedSubliminalSchema, ...planRequired },
      }),
      ...requires('savedSubliminals'),
      bodyLimit: PLAYLIST_BODY_BYTES,
      config: { jsonValues: PLAYLIST_BODY_VALUES },
      // A refused body reaches the handler, which checks it again against the name stored.
      attachValidation: true,
    },
    async (request) => {
      const user = userOf(request);
      const { id } = request.params;
      // An Update, its Undo or a change of the messages sends the name back as it is stored (decision 133).
      const body = await bodyLettingStoredTextThrough(request, async () => {
        const name = await saved.storedSubliminalName(db, user, id);
        return name === undefined ? undefined : subliminalWriteSchemaOf({ name });
      });
      return saved.replaceSubliminal(db, user, id, body, publicUrl);
    },
  );
  deleteById(API.subliminal, 'Delete a saved subliminal (also after a downgrade)', saved.deleteSubliminal);

  const shareRoutes = (path: string, kind: ShareableKind, feature: GatedFeature, what: string, who: string) => {
    app.post(
      path,
      {
        ...describedById(`Share ${what} by link (${who}): 201 with a new link, 200 with the live one`, {
          response: { 200: shareLinkSchema, 201: shareLinkSchema, ...planRequired },
        }),
        ...requires(feature),
      },
      async (request, reply) => {
        const { link, created } = await share(db, kind, userOf(request), request.params.id, publicUrl);
        return reply.code(created ? 201 : 200).send(link);
      },
    );
    deleteById(path, `Revoke the link of ${what} (also after a downgrade)`, (db, userId, id) =>
      unshare(db, kind, userId, id),
    );
  };
  shareRoutes(API.subliminalShare, 'subliminal', 'shareSubliminals', 'a saved subliminal', 'Intermediate and up');
  shareRoutes(API.myCategoryShare, 'messages', 'shareMessages', 'an own category', 'Pro');

  app.get(
    API.myMessagesExport,
    {
      ...described('Own messages as a TXT, CSV or JSON download (Pro)', {
        querystring: exportQuerySchema,
        response: {
          200: z.string().describe('The file: text/plain, text/csv or application/json, UTF-8'),
          ...planRequired,
          ...errors,
        },
      }),
      ...requires('exportMessages'),
    },
    async (request, reply) => {
      const categories = await listOwnCategories(db, userOf(request));
      const file = exportFile(
        categories.map((category) => ({ name: category.name, messages: category.messages.map((m) => m.message_text) })),
        request.query.format,
      );
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .header('Cache-Control', 'no-store')
        .send(file.body);
    },
  );
}
