import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PLAN_FEATURES, PLAN_LIMITS, planIncludes, type PlanFeature } from '@shared/plans';
import {
  API,
  apiErrorSchema,
  detailErrorSchema,
  idParamsSchema,
  ownCategoryListSchema,
  ownCategorySchema,
  ownCategoryWriteSchema,
  ownMessageWriteSchema,
  planRequiredErrorSchema,
  planStateSchema,
  playerStateSchema,
  playerWriteSchema,
} from '@shared/contract';
import { currentUser } from '../auth/authenticate';
import type { AppContext } from '../context';
import * as own from './service';
import { readPlayer, savePlayer } from './player';

// A person's own content and plan (docs/product/api.md#own-content): own messages, the player kept
// for every device, and what the plan includes.

const tags = ['own content'];
const errors = { 400: apiErrorSchema, 401: detailErrorSchema, 404: detailErrorSchema };
const noContent = { 204: z.null().describe('Deleted') };

export const ownRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const security = [{ bearerAuth: [] }];
  /** A route's OpenAPI description: these calls share their tag and their bearer security. */
  const described = <S extends object>(summary: string, schema: S) => ({
    schema: { tags, summary, security, ...schema },
  });
  const userOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;
  // onRequest: a stranger is refused before the body is read or validated.
  app.addHook('onRequest', ctx.authenticate);

  app.get(
    API.plan,
    described('The plan: what it includes, its limits and their use', {
      response: { 200: planStateSchema, 401: detailErrorSchema },
    }),
    async (request) => {
      const userId = userOf(request);
      const plan = await own.planOf(db, userId);
      const features = Object.fromEntries(
        (Object.keys(PLAN_FEATURES) as PlanFeature[]).map((feature) => [feature, planIncludes(plan, feature)]),
      ) as Record<PlanFeature, boolean>;
      return { plan, features, limits: PLAN_LIMITS[plan], usage: await own.ownUsage(db, userId) };
    },
  );

  app.get(
    API.myCategories,
    described('Own categories with their messages', {
      response: { 200: ownCategoryListSchema, 401: detailErrorSchema },
    }),
    async (request) => own.listOwnCategories(db, userOf(request)),
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
    described('One own category', {
      params: idParamsSchema,
      response: { 200: ownCategorySchema, ...errors },
    }),
    async (request) => own.getOwnCategory(db, userOf(request), request.params.id),
  );
  app.patch(
    API.myCategory,
    described('Rename an own category', {
      params: idParamsSchema,
      body: ownCategoryWriteSchema,
      response: { 200: ownCategorySchema, ...errors },
    }),
    async (request) => own.renameOwnCategory(db, userOf(request), request.params.id, request.body.name),
  );
  app.delete(
    API.myCategory,
    described('Delete an own category and its messages', {
      params: idParamsSchema,
      response: { ...noContent, ...errors },
    }),
    async (request, reply) => {
      await own.deleteOwnCategory(db, userOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    API.myCategoryMessages,
    described('Add a message to an own category (up to the plan’s limit); answers the category', {
      params: idParamsSchema,
      body: ownMessageWriteSchema,
      response: { 201: ownCategorySchema, 403: planRequiredErrorSchema, ...errors },
    }),
    async (request, reply) =>
      reply.code(201).send(await own.addOwnMessage(db, userOf(request), request.params.id, request.body.message_text)),
  );
  app.patch(
    API.myMessage,
    described('Change an own message; answers its category', {
      params: idParamsSchema,
      body: ownMessageWriteSchema,
      response: { 200: ownCategorySchema, ...errors },
    }),
    async (request) => own.editOwnMessage(db, userOf(request), request.params.id, request.body.message_text),
  );
  app.delete(
    API.myMessage,
    described('Delete an own message', {
      params: idParamsSchema,
      response: { ...noContent, ...errors },
    }),
    async (request, reply) => {
      await own.deleteOwnMessage(db, userOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    API.player,
    described('The playlist and player settings as last saved', {
      response: { 200: playerStateSchema, 401: detailErrorSchema },
    }),
    async (request) => readPlayer(db, userOf(request)),
  );
  app.put(
    API.player,
    described('Save the playlist and player settings (the last save wins)', {
      body: playerWriteSchema,
      response: { 200: playerStateSchema, 400: apiErrorSchema, 401: detailErrorSchema },
    }),
    async (request) => savePlayer(db, userOf(request), request.body),
  );
};
