import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@shared/contract';
import { forbidden, unauthorized } from '../http/errors';
import type { TokenService } from './tokens';
import type { SessionLookup, SessionUser } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate pre-handler on protected routes. */
    sessionUser: SessionUser | null;
  }
}

/** SimpleJWT's answer for a bearer that is not a live access token. */
const INVALID_BEARER = 'Given token not valid for any token type';

/** The bearer token of the Authorization header; tokens are never read from the query string. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

export type Authenticate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** A pre-handler that admits live access tokens of active users and names the user on the request. */
export function createAuthenticate(
  sessions: SessionLookup,
  tokens: TokenService,
  options: { staffOnly?: boolean } = {},
): Authenticate {
  return async (request) => {
    const token = bearerToken(request);
    if (token === undefined) throw unauthorized(MESSAGES.notAuthenticated);
    const claims = token ? await tokens.verify(token, 'access') : undefined;
    const user = claims && (await sessions(claims.sessionId, claims.userId))?.user;
    if (!user) throw unauthorized(INVALID_BEARER, 'token_not_valid');
    if (options.staffOnly && !user.isStaff) throw forbidden();
    request.sessionUser = user;
  };
}

/** The signed-in user of a route that runs behind `createAuthenticate`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw unauthorized();
  return request.sessionUser;
}
