import { z } from 'zod';
import { FIELD_BLANK } from './plain';

// Error bodies, shaped like Django REST framework's so a djoser client cannot tell the difference
// (docs/product/errors-and-limits.md#error-bodies).

/** `{"detail": "..."}`, optionally with a machine-readable code (SimpleJWT's `token_not_valid`). */
export const detailErrorSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
});
export type DetailError = z.infer<typeof detailErrorSchema>;

/**
 * `{"field": ["message", ...]}`; errors of the whole body go under `non_field_errors`, and a nested
 * object's under its field as the same shape, `{"settings": {"flashSpeed": ["message"]}}`
 * (docs/product/errors-and-limits.md#error-bodies).
 */
export type ValidationError = { [field: string]: string[] | ValidationError };
export const validationErrorSchema: z.ZodType<ValidationError> = z.record(
  z.string(),
  z.union([z.array(z.string()), z.lazy(() => validationErrorSchema)]),
);

export { NON_FIELD_ERRORS } from './plain';

export const MESSAGES = {
  required: 'This field is required.',
  blank: FIELD_BLANK,
  invalidEmail: 'Enter a valid email address.',
  notFound: 'Not found.',
  malformedJson: 'JSON parse error - the request body is not valid JSON.',
  jsonNotUtf8: 'JSON parse error - the request body is not valid UTF-8.',
  jsonTooDeep: 'JSON parse error - the request body nests more than 64 levels.',
  multipartNotUtf8: 'Multipart form parse error - the request body is not valid UTF-8.',
  prototypeKey: 'The request body may not have a key named "__proto__".',
  unsupportedMediaType: 'Unsupported media type in request.',
  jsonCharsetNotUtf8: 'Unsupported media type in request: a JSON body is read as UTF-8 (charset=utf-8, or no charset).',
  tooLarge: 'Request body is too large.',
  throttled: 'Request was throttled.',
  notAuthenticated: 'Authentication credentials were not provided.',
  permissionDenied: 'You do not have permission to perform this action.',
  badCredentials: 'No active account found with the given credentials',
  tokenNotValid: 'Token is invalid or expired',
  serverError: 'A server error occurred.',
  serviceUnavailable: 'Service temporarily unavailable, try again later.',
  badRequest: 'Bad request.',
  invalidContentLength: 'Invalid Content-Length.',
  fileTooLarge: 'The uploaded file is too large.',
  tooManyParts: 'Too many parts in the request.',
  expectedMultipart: 'Expected a multipart/form-data request.',
  malformedMultipart: 'Malformed multipart body.',
  nullCharacters: 'Null characters are not allowed.',
  requestTimeout: 'The request took too long to arrive.',
  headersTooLarge: 'Request headers are too large.',
} as const;

/** DRF's CharField refusing a lone surrogate (ProhibitSurrogateCharactersValidator): `U+D800`. */
/** Why a JSON body holding more values (array items, object members) than its call takes is refused unparsed. */
export const jsonTooManyValues = (most: number) =>
  `JSON parse error - the request body holds more than ${most.toLocaleString('en-US')} values (list items and object members), the most this call takes.`;

export const surrogateCharactersMessage = (codeUnit: number) =>
  `Surrogate characters are not allowed: U+${codeUnit.toString(16).toUpperCase()}.`;

/** The first lone surrogate's code unit in `text`, or undefined. */
function firstLoneSurrogate(text: string): number | undefined {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return unit;
  }
  return undefined;
}

/**
 * DRF's words for what `text` holds that the database cannot keep (a NUL, a lone surrogate), in the
 * order its CharField's validators run; none when it can be kept.
 */
export function unstorableTextMessages(text: string): string[] {
  const messages: string[] = [];
  if (text.includes('\0')) messages.push(MESSAGES.nullCharacters);
  const surrogate = firstLoneSurrogate(text);
  if (surrogate !== undefined) messages.push(surrogateCharactersMessage(surrogate));
  return messages;
}

/** A 5xx: no internals, only the id of the request's log line for a person reporting it. */
export const serverErrorSchema = z.object({
  detail: z.string(),
  request_id: z.string(),
});
export type ServerError = z.infer<typeof serverErrorSchema>;

/** Every error body the API can send. */
export const apiErrorSchema = z.union([detailErrorSchema, serverErrorSchema, validationErrorSchema]);
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
