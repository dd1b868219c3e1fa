import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorSchema, MESSAGES, NON_FIELD_ERRORS, serverErrorSchema, type ValidationError } from '@shared/contract';
import { isDatabaseUnavailable, isUserForeignKeyViolation } from '../db/errors';
import { sessionEnded } from '../auth/authenticate';
import { ApiError, clientErrorOf, notFound, serviceUnavailable } from './errors';

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
}

/** The value at a validation issue's path in what was validated (undefined where nothing was sent). */
function valueAt(input: unknown, path: readonly string[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Issues a value not sent at all raises: of its type, or of its choices (an enum's). */
const MISSING_VALUE_KEYWORDS = new Set(['invalid_type', 'invalid_value']);

/** Adds a message under a field's keys: a field holding both its own messages and its fields' keeps its own under `non_field_errors`, as DRF's nested serializers do. */
function addFieldError(errors: ValidationError, keys: readonly string[], message: string): void {
  const [field = NON_FIELD_ERRORS, ...rest] = keys;
  let node = errors[field];
  if (rest.length > 0) {
    if (node === undefined || Array.isArray(node)) node = errors[field] = node ? { [NON_FIELD_ERRORS]: node } : {};
    addFieldError(node, rest, message);
    return;
  }
  if (node !== undefined && !Array.isArray(node)) {
    addFieldError(node, [NON_FIELD_ERRORS], message);
    return;
  }
  const messages = (errors[field] = node ?? []);
  if (!messages.includes(message)) messages.push(message);
}

/**
 * Fastify validation issues (from the zod validator) in DRF's `{"field": ["message"]}` shape, a nested
 * object's errors under its field by name (`{"settings": {"flashSpeed": ["message"]}}`). A field
 * that was not sent at all is "This field is required.", as DRF says it, whatever a schema's own
 * message for a wrong value of that type ("Must be a valid boolean.") or its choices. The problems
 * of a list's items are the list's, each said once: ten bad ids are one "A valid integer is required.".
 */
export function toFieldErrors(issues: readonly ValidationIssue[], input?: unknown): ValidationError {
  const fields: ValidationError = {};
  for (const issue of issues) {
    const path = (issue.instancePath ?? '').split('/').filter((key) => key !== '');
    const missing =
      MISSING_VALUE_KEYWORDS.has(issue.keyword ?? '') && path.length > 0 && valueAt(input, path) === undefined;
    const message = missing ? MESSAGES.required : (issue.message ?? 'Invalid value.');
    // The keys down to the first list: what is wrong inside a list is said of the list.
    const listAt = path.findIndex((_, index) => Array.isArray(valueAt(input, path.slice(0, index))));
    addFieldError(fields, listAt === -1 ? path : path.slice(0, listAt), message);
  }
  return fields;
}

/** Every request gets an id of our own (never the client's), sent back as X-Request-Id and logged as reqId. */
export const requestIdOptions = { genReqId: () => randomUUID() } as const;

const MULTIPART = /^multipart\//i;

/** Connections told `Connection: close`: what the client still sends on them is not answered. */
const closingSockets = new WeakSet<Socket>();

/**
 * Sends an error body. Errors bypass the routes' response serializers (their bodies are checked by
 * the type of ApiError instead), so no route schema can turn a 4xx into a 500. When the request body
 * was not read to its end, or an upload was refused part-way (the parser leaves the socket paused),
 * the connection is closed after the answer so the next request on it does not hang.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (!request.raw.complete || MULTIPART.test(request.headers['content-type'] ?? '')) {
    reply.header('Connection', 'close');
    closingSockets.add(request.raw.socket);
  }
  return reply
    .code(error.statusCode)
    .headers(error.headers)
    .header('X-Request-Id', request.id)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(error.body);
}

/** The client's error for a failure it caused; undefined when the server itself failed. */
function clientError(error: FastifyError, request: FastifyRequest): ApiError | undefined {
  const known = clientErrorOf(error);
  if (known) return known;
  if (error.validation) {
    // A path parameter that does not parse names nothing that exists.
    if (error.validationContext === 'params') return notFound();
    const validated = error.validationContext === 'querystring' ? request.query : request.body;
    return new ApiError(400, toFieldErrors(error.validation, validated));
  }
  const status = error.statusCode ?? 500;
  if (status === 429) return new ApiError(429, { detail: error.message || MESSAGES.throttled });
  if (status >= 400 && status < 500) return new ApiError(status, { detail: error.message || MESSAGES.badRequest });
  return undefined;
}

/**
 * Answers a failure: the client's own error in the contract's shape, a 503 with Retry-After while the
 * database cannot be reached, or a 500 that names its log line.
 */
export function answerError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  retryAfterSeconds = 5,
): FastifyReply {
  const known = clientError(error, request);
  if (known) return sendError(request, reply, known);
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return sendError(request, reply, serviceUnavailable(retryAfterSeconds));
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(request, reply, new ApiError(500, { detail: MESSAGES.serverError, request_id: String(request.id) }));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (broken framing, oversized headers, a
 * request that took too long) get the contract's shape too, and their connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, MESSAGES.requestTimeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, MESSAGES.headersTooLarge]
        : [400, MESSAGES.badRequest];
  const body = JSON.stringify({ detail });
  if (socket.writable && !closingSockets.has(socket)) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * What every route may answer besides its own responses, so the published contract is complete: a
 * 400 can be a malformed body (`{"detail"}`) as well as field errors, and any call can fail with a 500.
 */
function declareErrorResponses(response: Record<string, unknown>): void {
  if (400 in response) response[400] = apiErrorSchema;
  response[500] = serverErrorSchema.describe('Server error; request_id names the log line');
}

/**
 * A write that names the signed-in account after the account was deleted (in the moments between the token
 * check and the write, or in another worker not yet told): answered as the token check now would, 401
 * token_not_valid, and only when the account is indeed gone, so no other failure hides behind it.
 */
async function accountGoneError(
  error: FastifyError,
  request: FastifyRequest,
  accountExists: (userId: number) => Promise<boolean>,
): Promise<ApiError | undefined> {
  const user = request.sessionUser;
  if (!user || !isUserForeignKeyViolation(error)) return undefined;
  const exists = await accountExists(user.id).catch(() => true);
  return exists ? undefined : sessionEnded();
}

/**
 * The one place that turns every failure into the contract's shapes; never a stack trace. With
 * `accountExists`, a write for an account deleted meanwhile is answered as its token now is (accountGoneError).
 */
export function registerErrorHandler(
  app: FastifyInstance,
  retryAfterSeconds: number,
  accountExists?: (userId: number) => Promise<boolean>,
): void {
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (response) declareErrorResponses(response);
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const gone = accountExists && (await accountGoneError(error, request, accountExists));
    return gone ? sendError(request, reply, gone) : answerError(error, request, reply, retryAfterSeconds);
  });
}
