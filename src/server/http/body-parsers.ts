import type { FastifyInstance } from 'fastify';
import { MESSAGES, NON_FIELD_ERRORS } from '@shared/contract';
import { badRequest } from './errors';

/**
 * The first field (top-level name) of a parsed value holding a NUL character, or undefined.
 * PostgreSQL refuses 0x00 in text, so such input is answered as the client's error before any query.
 */
export function fieldWithNullCharacter(value: unknown, field = NON_FIELD_ERRORS, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? field : undefined;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (depth === 0 && key.includes('\0')) return NON_FIELD_ERRORS;
    const found = fieldWithNullCharacter(inner, depth === 0 && !Array.isArray(value) ? key : field, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Throws the DRF-shaped 400 for a NUL character anywhere in `values`. */
export function assertNoNullCharacters(values: unknown): void {
  const field = fieldWithNullCharacter(values);
  if (field) throw badRequest({ [field]: [MESSAGES.nullCharacters] });
}

/**
 * Request bodies: JSON only (Fastify's own prototype-poisoning-safe parser), except multipart on the
 * upload routes, which register it themselves. An empty JSON body is no body: djoser clients POST
 * logout with a JSON content type and nothing in it. text/plain is not parsed, so it is answered 415
 * like every other type a JSON call does not take.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'remove');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body.toString(), done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    // No body where a route takes one is an empty one, as in DRF: each required field is named.
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    try {
      assertNoNullCharacters(request.body);
      assertNoNullCharacters(request.query);
      assertNoNullCharacters(request.params);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
