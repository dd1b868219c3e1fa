import type { FastifyRequest } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

/** Whether the request sends a body (a length above zero, or one sent in chunks). */
export const hasBody = (request: FastifyRequest) =>
  Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
/** Whether its body is an upload (multipart), read by its route's handler rather than by Fastify. */
export const isUpload = (request: FastifyRequest) => /^multipart\//i.test(request.headers['content-type'] ?? '');
/** The body's length as its Content-Length declares it; undefined for one sent without (chunked). */
export const declaredLength = (request: FastifyRequest): number | undefined => {
  const header = request.headers['content-length'];
  return header === undefined ? undefined : Number(header);
};

/**
 * The body of a route that lets a text stored before decision 063 through as it is (its `attachValidation`): the
 * body as its schema read it, or, refused, the body checked again with `asStored`, the schema for what it writes
 * over (`typedText(stored)`), read only then. Passing now, that is the body; refused again, or with nothing stored
 * (`asStored` undefined), the refusal stands, with the issues of that check
 * (docs/decisions/133-an-undo-keeps-to-the-limits-an-old-name-updates-offline-reads-as-waiting.md).
 */
export async function bodyLettingStoredTextThrough<T>(
  request: FastifyRequest,
  asStored: () => Promise<ZodType<T> | undefined>,
): Promise<T> {
  const refusal = request.validationError;
  if (!refusal) return request.body as T;
  // A path parameter or a query refused is not the body's.
  if (refusal.validationContext !== 'body') throw refusal;
  const schema = await asStored();
  if (schema === undefined) throw refusal;
  const checked = validatorCompiler({ schema, method: request.method, url: request.url, httpPart: 'body' })(
    request.body,
  );
  if (typeof checked === 'object' && 'value' in checked) return checked.value as T;
  if (typeof checked === 'object' && 'error' in checked)
    refusal.validation = checked.error as typeof refusal.validation;
  throw refusal;
}
