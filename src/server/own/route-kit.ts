import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema, detailErrorSchema, idParamsSchema } from '@shared/contract';
import { currentUser } from '../auth/authenticate';
import type { Db } from '../db/client';

// What the signed-in calls on one's own things share: their OpenAPI description (a tag, bearer
// security, the errors of a call on a row by id) and the delete of a row by id.

export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export const errors = { 400: apiErrorSchema, 401: detailErrorSchema, 404: detailErrorSchema };
export const noContent = { 204: z.null().describe('Deleted') };
export const userOf = (request: FastifyRequest) => currentUser(request).id;

export function routeKit(app: ZodApp, db: Db, tag: string) {
  const security = [{ bearerAuth: [] }];
  /** A route's OpenAPI description: these calls share their tag and their bearer security. */
  const described = <S extends object>(summary: string, schema: S) => ({
    schema: { tags: [tag], summary, security, ...schema },
  });
  /** The description of a call on one of the person's rows by its id (404 when not theirs). */
  const describedById = <S extends { response: object }>(summary: string, schema: S) =>
    described(summary, { ...schema, params: idParamsSchema, response: { ...schema.response, ...errors } });
  /** Deletes one of the person's rows by its id: 204, or 404 when there is no such row of theirs. */
  const deleteById = (
    path: string,
    summary: string,
    remove: (db: Db, userId: number, id: number, log: FastifyBaseLogger) => Promise<void>,
  ) =>
    app.delete(path, describedById(summary, { response: noContent }), async (request, reply) => {
      await remove(db, userOf(request), request.params.id, request.log);
      return reply.code(204).send(null);
    });
  return { described, describedById, deleteById };
}
