import type { FastifyRequest } from 'fastify';

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
