import type { FastifyInstance } from 'fastify';

/**
 * Fastify's own JSON parser (prototype-poisoning safe), except that an empty body is no body:
 * djoser clients POST logout with a JSON content type and nothing in it.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body.toString(), done);
  });
}
