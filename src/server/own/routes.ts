import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PLAN_FEATURES, PLAN_LIMITS, planIncludes, type PlanFeature } from '@shared/plans';
import {
  API,
  apiErrorSchema,
  detailErrorSchema,
  ownCategoryListSchema,
  ownCategorySchema,
  ownCategoryWriteSchema,
  ownMessageEditSchema,
  ownMessageWriteSchema,
  ownCategoriesOrderSchema,
  ownMessagesOrderSchema,
  OWN_MESSAGES_ORDER_VALUES,
  planRequiredErrorSchema,
  planStateSchema,
  playerStateSchema,
  playerSaveSchema,
  PLAYLIST_BODY_BYTES,
  PLAYLIST_BODY_VALUES,
} from '@shared/contract';
import type { AppContext } from '../context';
import { billingAccountOf, billingState } from '../billing/service';
import * as own from './service';
import { readPlayer, savePlayer } from './player';
import { errors, routeKit, userOf } from './route-kit';
import { savedAndSharedRoutes } from './subliminal-routes';
import { ownMusicRoutes } from './music-routes';
import { ownVoiceRoutes } from './voice-routes';

// A person's own content and plan (docs/product/api.md#own-content): own messages, the player kept
// for every device, and what the plan includes; saved subliminals, shares and the export beside them.

export const ownRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const { publicUrl } = ctx.config;
  const { described, describedById, deleteById } = routeKit(app, db, 'own content');
  // onRequest: a stranger is refused before the body is read or validated.
  app.addHook('onRequest', ctx.authenticate);

  app.get(
    API.plan,
    described('The plan: what it includes, its limits and their use, and how it is paid for', {
      response: { 200: planStateSchema, 401: detailErrorSchema },
    }),
    async (request) => {
      const userId = userOf(request);
      const plan = await own.planOfSignedIn(db, userId);
      const features = Object.fromEntries(
        (Object.keys(PLAN_FEATURES) as PlanFeature[]).map((feature) => [feature, planIncludes(plan, feature)]),
      ) as Record<PlanFeature, boolean>;
      return {
        plan,
        features,
        limits: PLAN_LIMITS[plan],
        usage: await own.ownUsage(db, userId),
        billing: billingState(await billingAccountOf(db, userId), ctx.config.stripe !== undefined),
      };
    },
  );

  app.get(
    API.myCategories,
    described('Own categories with their messages', {
      response: { 200: ownCategoryListSchema, 401: detailErrorSchema },
    }),
    async (request) => own.listOwnCategories(db, userOf(request), publicUrl),
  );
  app.post(
    API.myCategories,
    described('Create an own category (up to the plan’s limit)', {
      body: ownCategoryWriteSchema,
      response: { 201: ownCategorySchema, 403: planRequiredErrorSchema, ...errors },
    }),
    async (request, reply) => reply.code(201).send(await own.createOwnCategory(db, userOf(request), request.body.name)),
  );
  app.get(
    API.myCategory,
    describedById('One own category', {
      response: { 200: ownCategorySchema },
    }),
    async (request) => own.getOwnCategory(db, userOf(request), request.params.id, publicUrl),
  );
  app.patch(
    API.myCategory,
    describedById('Rename an own category', {
      body: ownCategoryWriteSchema,
      response: { 200: ownCategorySchema },
    }),
    async (request) => own.renameOwnCategory(db, userOf(request), request.params.id, request.body.name, publicUrl),
  );
  app.put(
    API.myCategoriesOrder,
    described('Put the own categories in a new order (every id of them, once)', {
      body: ownCategoriesOrderSchema,
      response: { 200: ownCategoryListSchema, 409: detailErrorSchema, ...errors },
    }),
    async (request) => own.reorderOwnCategories(db, userOf(request), request.body.ids, publicUrl),
  );
  deleteById(API.myCategory, 'Delete an own category and its messages', own.deleteOwnCategory);
  app.post(
    API.myCategoryMessages,
    describedById('Add a message to an own category (up to the plan’s limit); answers the category', {
      body: ownMessageWriteSchema,
      response: { 201: ownCategorySchema, 403: planRequiredErrorSchema },
    }),
    async (request, reply) =>
      reply
        .code(201)
        .send(await own.addOwnMessage(db, userOf(request), request.params.id, request.body.message_text, publicUrl)),
  );
  app.put(
    API.myCategoryMessagesOrder,
    {
      ...describedById('Put the messages of an own category in a new order (every id of them, once)', {
        body: ownMessagesOrderSchema,
        response: { 200: ownCategorySchema, 409: detailErrorSchema },
      }),
      config: { jsonValues: OWN_MESSAGES_ORDER_VALUES },
    },
    async (request) => own.reorderOwnMessages(db, userOf(request), request.params.id, request.body.ids, publicUrl),
  );
  app.patch(
    API.myMessage,
    describedById(
      'Change an own message; answers its category (409 changed_meanwhile: it no longer reads previous_text)',
      {
        body: ownMessageEditSchema,
        response: { 200: ownCategorySchema, 409: detailErrorSchema },
      },
    ),
    async (request) =>
      own.editOwnMessage(
        db,
        userOf(request),
        request.params.id,
        request.body.message_text,
        publicUrl,
        request.body.previous_text,
      ),
  );
  deleteById(API.myMessage, 'Delete an own message', own.deleteOwnMessage);

  app.get(
    API.player,
    described('The playlist and player settings as last saved', {
      response: { 200: playerStateSchema, 401: detailErrorSchema },
    }),
    async (request) => readPlayer(db, userOf(request)),
  );
  app.put(
    API.player,
    {
      ...described('Save the playlist and player settings (the last save wins; a theme needs its plan)', {
        body: playerSaveSchema,
        response: { 200: playerStateSchema, 400: apiErrorSchema, 401: detailErrorSchema, 403: planRequiredErrorSchema },
      }),
      bodyLimit: PLAYLIST_BODY_BYTES,
      config: { jsonValues: PLAYLIST_BODY_VALUES },
    },
    async (request) => savePlayer(db, userOf(request), request.body),
  );

  savedAndSharedRoutes(app, ctx);
  await app.register(ownMusicRoutes, ctx);
  await app.register(ownVoiceRoutes, ctx);
};
