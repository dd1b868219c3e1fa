import { MESSAGES, NON_FIELD_ERRORS, type DetailError, type ValidationError } from '@shared/contract';

/** A failure with the status and body the client should see; the error handler sends it as is. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: DetailError | ValidationError,
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
