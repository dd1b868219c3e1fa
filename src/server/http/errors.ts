import { MESSAGES, NON_FIELD_ERRORS, type DetailError, type ServerError, type ValidationError } from '@shared/contract';

/** A failure with the status and body the client should see; the error handler sends it as is. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: DetailError | ServerError | ValidationError,
    readonly headers: Record<string, string> = {},
  ) {
    super('detail' in body && typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
    this.name = 'ApiError';
  }
}

export const badRequest = (fields: ValidationError) => new ApiError(400, fields);
export const nonFieldError = (message: string) => new ApiError(400, { [NON_FIELD_ERRORS]: [message] });
export const unauthorized = (detail: string = MESSAGES.notAuthenticated, code?: string) =>
  new ApiError(401, code ? { detail, code } : { detail }, { 'WWW-Authenticate': 'Bearer realm="api"' });
export const forbidden = (detail: string = MESSAGES.permissionDenied) => new ApiError(403, { detail });
export const notFound = (detail: string = MESSAGES.notFound) => new ApiError(404, { detail });
export const payloadTooLarge = (detail: string = MESSAGES.tooLarge) => new ApiError(413, { detail });
export const unsupportedMediaType = (detail: string = MESSAGES.unsupportedMediaType) => new ApiError(415, { detail });
export const tooManyRequests = (retryAfterSeconds: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError(
    429,
    { detail: `${MESSAGES.throttled} Expected available in ${seconds} seconds.` },
    { 'Retry-After': String(seconds) },
  );
};

/** The service cannot answer now (overloaded, or its database unreachable); the client may retry. */
export const serviceUnavailable = (retryAfterSeconds: number) =>
  new ApiError(
    503,
    { detail: MESSAGES.serviceUnavailable },
    { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );

/**
 * Errors that Fastify, its plugins and the multipart parser raise for something the client sent,
 * by code, with the answer they deserve. The one table of client errors on the server.
 */
const CLIENT_ERRORS_BY_CODE: Record<string, () => ApiError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiError(400, { detail: MESSAGES.malformedJson }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApiError(400, { detail: MESSAGES.malformedJson }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => unsupportedMediaType(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError(400, { detail: MESSAGES.invalidContentLength }),
  FST_ERR_CTP_BODY_TOO_LARGE: () => payloadTooLarge(),
  FST_ERR_CTP_INVALID_TYPE: () => new ApiError(400, { detail: MESSAGES.badRequest }),
  FST_ERR_BAD_URL: () => notFound(),
  // A path parameter longer than the router takes (maxParamLength) names nothing; Fastify's 414 echoed the path.
  FST_ERR_MAX_PARAM_LENGTH: () => notFound(),
  FST_ERR_ASYNC_CONSTRAINT: () => notFound(),
  FST_REQ_FILE_TOO_LARGE: () => payloadTooLarge(MESSAGES.fileTooLarge),
  FST_FILES_LIMIT: () => payloadTooLarge(MESSAGES.tooManyParts),
  FST_FIELDS_LIMIT: () => payloadTooLarge(MESSAGES.tooManyParts),
  FST_PARTS_LIMIT: () => payloadTooLarge(MESSAGES.tooManyParts),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () => unsupportedMediaType(MESSAGES.expectedMultipart),
  FST_PROTO_VIOLATION: () => nonFieldError(MESSAGES.malformedMultipart),
  FST_MP_PREMATURE_CLOSE: () => nonFieldError(MESSAGES.malformedMultipart),
  FST_INVALID_JSON_FIELD_ERROR: () => nonFieldError(MESSAGES.malformedMultipart),
};

/** busboy (under @fastify/multipart) reports a broken body with a plain Error and no code. */
const MULTIPART_PARSE_FAILURE =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|.* terminated early due to unexpected end of multipart data)$/;

/** The client error a thrown value stands for, or undefined when the server itself failed. */
export function clientErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const known = typeof code === 'string' ? CLIENT_ERRORS_BY_CODE[code] : undefined;
  if (known) return known();
  if (code === undefined && MULTIPART_PARSE_FAILURE.test(error.message)) {
    return nonFieldError(MESSAGES.malformedMultipart);
  }
  return undefined;
}
