import type { FastifyError, FastifyInstance } from 'fastify';
import { MESSAGES, NON_FIELD_ERRORS, type ValidationError } from '@shared/contract';
import { ApiError } from './errors';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** Fastify validation issues (from the zod validator) in DRF's `{"field": ["message"]}` shape. */
export function toFieldErrors(issues: readonly ValidationIssue[]): ValidationError {
  const fields: ValidationError = {};
  for (const issue of issues) {
    const field = (issue.instancePath ?? '').replace(/^\//, '').split('/')[0] || NON_FIELD_ERRORS;
    (fields[field] ??= []).push(issue.message ?? 'Invalid value.');
  }
  return fields;
}

/** Fastify and plugin error codes that a client causes, with the status they deserve. */
const CLIENT_ERROR_CODES: Record<string, { status: number; detail: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, detail: MESSAGES.malformedJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, detail: MESSAGES.malformedJson },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, detail: MESSAGES.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, detail: 'Invalid Content-Length.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, detail: MESSAGES.tooLarge },
  FST_REQ_FILE_TOO_LARGE: { status: 413, detail: 'The uploaded file is too large.' },
  FST_FILES_LIMIT: { status: 413, detail: 'Too many files in the request.' },
  FST_FIELDS_LIMIT: { status: 413, detail: 'Too many fields in the request.' },
  FST_PARTS_LIMIT: { status: 413, detail: 'Too many parts in the request.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, detail: 'Expected a multipart/form-data request.' },
  FST_PROTO_VIOLATION: { status: 400, detail: 'Invalid field name.' },
};

/** One place that turns every failure into the contract's shapes; never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    if (error.validation) {
      return reply.code(400).send(toFieldErrors(error.validation));
    }
    const known = error.code ? CLIENT_ERROR_CODES[error.code] : undefined;
    if (known) {
      return reply.code(known.status).send({ detail: known.detail });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send({ detail: error.message || MESSAGES.throttled });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error.message || 'Bad request.' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: MESSAGES.serverError });
  });
}
