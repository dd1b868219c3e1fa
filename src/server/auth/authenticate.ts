import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@shared/contract';
import { forbidden, unauthorized } from '../http/errors';
import { hasBody, isUpload } from '../http/request-body';
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

/** Requests let in before their JSON body had arrived, each with whether it was let in as staff. */
const letInBeforeBody = new WeakMap<FastifyRequest, boolean>();

/** A pre-handler that admits live access tokens of active users and names the user on the request. */
export function createAuthenticate(
  sessions: SessionLookup,
  tokens: TokenService,
  options: { staffOnly?: boolean } = {},
): Authenticate {
  const staffOnly = options.staffOnly === true;
  return async (request) => {
    const token = bearerToken(request);
    if (token === undefined) throw unauthorized(MESSAGES.notAuthenticated);
    const claims = await tokens.verify(token, 'access');
    // A body already in as the session is asked is answered by this check; one still to come is asked about
    // again once it is in (registerSessionCheckAfterBody).
    const bodyToCome = !request.raw.complete && hasBody(request) && !isUpload(request);
    const user = claims && (await sessions(claims.sessionId, claims.userId))?.user;
    if (!user) throw sessionEnded();
    if (staffOnly && !user.isStaff) throw forbidden();
    request.sessionUser = user;
    if (bodyToCome) letInBeforeBody.set(request, staffOnly);
  };
}

/**
 * A JSON body may take up to the request timeout to arrive after `authenticate` let its request in (an
 * `onRequest` hook, so a stranger's body is never read): once it is in, before anything reads it, the
 * session and account are asked again, and a session ended, an account deactivated or deleted, or staff
 * lost meanwhile is answered as that check would have answered (docs/product/api.md). Asked of the
 * database (one read by key, no lock): the workers' cache of sessions misses what no notice brought (the
 * CLI, another server whose notice was lost) for its time limit. Uploads ask as they keep their file.
 */
export function registerSessionCheckAfterBody(app: FastifyInstance, db: Db): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const staffOnly = letInBeforeBody.get(request);
    if (staffOnly === undefined) {
      done();
      return;
    }
    assertSessionLive(db, currentUser(request), { staffOnly }).then(() => done(), done);
  });
}

/** The signed-in user of a route that runs behind `createAuthenticate`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw unauthorized();
  return request.sessionUser;
}

/**
 * Asks the database again whether the request's caller still may, as `authenticate` (or `authenticateStaff`)
 * asked before the body: an upload is let in before it is read, and its session may end (a logout in another
 * tab, a password reset, sign out everywhere), its account be deactivated or deleted, or staff lose their
 * role while the file streams in (docs/product/api.md). In the transaction that keeps the file, it holds
 * the session and account rows until that transaction ends.
 */
export const assertStillSignedIn = (db: Db, user: SessionUser, options: { staffOnly?: boolean } = {}) =>
  assertSessionLive(db, user, { staffOnly: options.staffOnly === true, hold: true });

async function assertSessionLive(
  db: Db,
  user: SessionUser,
  options: { staffOnly: boolean; hold?: boolean },
): Promise<void> {
  const live = await findLiveSession(db, user.sessionId, { hold: options.hold });
  if (!live || live.user.id !== user.id) throw sessionEnded();
  if (options.staffOnly && !live.user.isStaff) throw forbidden();
}
