import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailField } from '@shared/contract';
import { createTestApp, type TestApp } from '../test/test-app';
import { badRequest } from './errors';

// Probe routes exercise the real app's parsers and error handler.
const probe: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/probe/',
    { schema: { body: z.object({ email: emailField(), count: z.number().int() }) } },
    async (request) => ({
      received: request.body.email,
    }),
  );
  app.post(
    '/api/probe/worded/',
    {
      schema: {
        body: z.object({
          finished: z.boolean({ error: 'Must be a valid boolean.' }),
          started_at: z.iso.datetime({ offset: true, error: 'Enter a date and time as ISO 8601.' }),
          look: z.object({ size: z.number({ error: 'Pick a size.' }) }, { error: 'Pick a look.' }),
        }),
      },
    },
    async () => ({}),
  );
  app.post(
    '/api/probe/lists/',
    {
      schema: {
        body: z.object({
          ids: z.array(z.number().int()),
          items: z.array(z.object({ kind: z.enum(['a', 'b']), size: z.number() })),
        }),
      },
    },
    async () => ({}),
  );
  app.post('/api/probe/empty/', async (request, reply) =>
    reply.code(204).send(request.body === undefined ? undefined : 'unexpected'),
  );
  app.get('/api/probe/fields/', async () => {
    throw badRequest({ email: ['taken'] });
  });
  app.get('/api/probe/crash/', async () => {
    throw new Error('secret internal detail');
  });
};

describe('HTTP error shapes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { plugins: [probe] });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });

  it('accepts a valid body', async () => {
    const res = await post('/api/probe/', JSON.stringify({ email: 'a@example.com', count: 1 }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 'a@example.com' });
  });

  it('answers malformed JSON with 400 and a detail', async () => {
    const res = await post('/api/probe/', '{"email": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: expect.stringContaining('JSON parse error') });
  });

  it('answers schema violations with DRF field errors', async () => {
    const res = await post('/api/probe/', JSON.stringify({ email: 'not-an-email' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['Enter a valid email address.'], count: ['This field is required.'] });
  });

  it('words every check a schema leaves unworded as DRF does, never as the validation library', async () => {
    const res = await post('/api/probe/', JSON.stringify({ email: 'a@example.com', count: 'many' }));
    expect(res.json()).toEqual({ count: ['A valid number is required.'] });
    const nulls = await post('/api/probe/', JSON.stringify({ email: 'a@example.com', count: null }));
    expect(nulls.json()).toEqual({ count: ['This field may not be null.'] });
  });

  it.each([
    ['[1, 2]', 'list'],
    ['"text"', 'str'],
    ['12', 'int'],
  ])('puts errors of the whole body under non_field_errors: %s', async (payload, type) => {
    const res = await post('/api/probe/', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
  });

  it('refuses a body of JSON null as DRF does', async () => {
    const res = await post('/api/probe/', 'null');
    expect(res.json()).toEqual({ non_field_errors: ['This field may not be null.'] });
  });

  it('names each required field when a call that takes a body gets none', async () => {
    for (const res of [await post('/api/probe/', ''), await t.app.inject({ method: 'POST', url: '/api/probe/' })]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ email: ['This field is required.'], count: ['This field is required.'] });
    }
  });

  it('says a field not sent is required, whatever a schema words a wrong value as', async () => {
    const none = await post('/api/probe/worded/', '{}');
    expect(none.json()).toEqual({
      finished: ['This field is required.'],
      started_at: ['This field is required.'],
      look: ['This field is required.'],
    });
    const nested = await post('/api/probe/worded/', JSON.stringify({ look: {} }));
    expect(nested.json()).toMatchObject({ look: { size: ['This field is required.'] } });
    const wrong = await post(
      '/api/probe/worded/',
      JSON.stringify({ finished: 'yes', started_at: 'today', look: { size: 'big' } }),
    );
    expect(wrong.json()).toEqual({
      finished: ['Must be a valid boolean.'],
      started_at: ['Enter a date and time as ISO 8601.'],
      look: { size: ['Pick a size.'] },
    });
  });

  it("says each problem of a list's items once, and a choice not sent is required", async () => {
    const res = await post(
      '/api/probe/lists/',
      JSON.stringify({ ids: ['x', 'y', [1], 2.5], items: [{}, {}, { kind: 'c', size: 1 }] }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ids: ['A valid number is required.', 'A valid integer is required.'],
      items: ['This field is required.', '"c" is not a valid choice.'],
    });
  });

  it('treats an empty JSON body as no body', async () => {
    const res = await post('/api/probe/empty/', '');
    expect(res.statusCode).toBe(204);
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await post('/api/probe/', 'email=a', 'text/csv');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: expect.any(String) });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await post('/api/probe/', JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: expect.any(String) });
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist/' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('sends ApiError bodies as they are', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/probe/fields/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['taken'] });
  });

  it('hides internal errors behind a generic 500 that names its request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/probe/crash/' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internal detail');
    const requestId = res.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json()).toEqual({ detail: 'A server error occurred.', request_id: requestId });
  });

  it('gives every response its own request id', async () => {
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'chosen-by-client' } }),
      t.app.inject({ method: 'GET', url: '/api/health' }),
    ]);
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('sends security headers and no X-Powered-By', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    // An API answer allows nothing; the pages have their own policy (web.test.ts), and so do the API's docs.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['cache-control']).toBe('no-store');
    // Headers that only a document uses are not sent with data.
    expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(res.headers['x-xss-protection']).toBeUndefined();
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    // The docs page reaches no other host: Swagger UI's validator badge is off.
    expect(docs.headers['content-security-policy']).not.toMatch(/swagger\.io/);
    const initializer = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain('"validatorUrl":null');
    expect(docs.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('publishes the contract as OpenAPI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/health']).toBeDefined();
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });
});
