import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@shared/contract';
import { forbidden, unauthorized } from '../http/errors';
import type { TokenService } from './tokens';
import { findLiveSession, type SessionLookup, type SessionUser } from './sessions';
import type { Db } from '../db/client';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate pre-handler on protected routes. */
    sessionUser: SessionUser | null;
  }
}

/** SimpleJWT's answer for a bearer that is not a live access token. */
const INVALID_BEARER = 'Given token not valid for any token type';

/** The answer to a token whose session or account is gone (deleted, say, while its request ran). */
export const sessionEnded = () => unauthorized(INVALID_BEARER, 'token_not_valid');

/** SimpleJWT's answer for an Authorization header of its type with other than one token after it. */
const BAD_AUTHORIZATION_HEADER = 'Authorization header must contain two space-delimited values';

/**
 * The bearer token of the Authorization header, read as SimpleJWT's JWTAuthentication reads it: no
 * header, an empty one or one of another type (`JWT …`, `Basic …`, `Token …`) carries no credentials
 * (undefined: "not provided", as DRF says when no authenticator applies); `Bearer` followed by other
 * than one value is refused as malformed. The type is matched in any case, as HTTP auth schemes are
 * (RFC 9110 §11.1; SimpleJWT compares it exactly). Tokens are never read from the query string.
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const parts = (request.headers.authorization ?? '').split(/[ \t]+/).filter(Boolean);
  if (parts[0]?.toLowerCase() !== 'bearer') return undefined;
  if (parts.length !== 2) throw unauthorized(BAD_AUTHORIZATION_HEADER, 'bad_authorization_header');
  return parts[1];
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
    const claims = await tokens.verify(token, 'access');
    const user = claims && (await sessions(claims.sessionId, claims.userId))?.user;
    if (!user) throw sessionEnded();
    if (options.staffOnly && !user.isStaff) throw forbidden();
    request.sessionUser = user;
  };
}

/** The signed-in user of a route that runs behind `createAuthenticate`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw unauthorized();
  return request.sessionUser;
}

/**
 * Asks the database again whether the request's staff member still may, as `authenticateStaff` asked
 * before the body: an upload is let in before it is read, and its account may be deactivated, lose
 * staff or be signed out everywhere while the file streams in (docs/product/api.md#admin). In the
 * transaction that keeps the file, it holds the session and account rows until that transaction ends.
 */
export async function assertStillStaff(db: Db, user: SessionUser): Promise<void> {
  const live = await findLiveSession(db, user.sessionId, { hold: true });
  if (!live || live.user.id !== user.id) throw sessionEnded();
  if (!live.user.isStaff) throw forbidden();
}
