import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API,
  SESSIONS_ENDED_HEADER,
  activationRequestSchema,
  currentUserSchema,
  deleteAccountRequestSchema,
  detailErrorSchema,
  emailChangeStatusSchema,
  otherSessionsSchema,
  resendActivationRequestSchema,
  resetPasswordCheckRequestSchema,
  resetPasswordConfirmRequestSchema,
  resetPasswordRequestSchema,
  setEmailConfirmRequestSchema,
  setEmailRequestSchema,
  setPasswordRequestSchema,
  signOutOthersRequestSchema,
  signOutOthersResponseSchema,
  signupRequestSchema,
  signupResponseSchema,
  tokenCreateRequestSchema,
  tokenPairSchema,
  tokenRefreshRequestSchema,
  tokenRefreshResponseSchema,
  validationErrorSchema,
} from '@shared/contract';
import type { AppContext } from '../context';
import { tooManyRequests } from '../http/errors';
import { createAccountTokens } from './account-tokens';
import {
  activate,
  confirmPasswordReset,
  currentUserRecord,
  login,
  refreshAccess,
  requestPasswordReset,
  resetLinkAccount,
  signup,
} from './accounts';
import { currentUser } from './authenticate';
import { otherLiveSessions, revokeSession } from './sessions';
import { createAuthRateLimits, type LimitedAction } from './rate-limits';
import { cancelEmailChange } from './email-change';
import {
  addressToResend,
  changePassword,
  confirmEmailChange,
  deleteOwnAccount,
  pendingEmailChange,
  requestEmailChange,
  resendActivation,
  resendEmailChange,
  signOutOtherSessions,
} from './self-service';

// The account calls, shaped like djoser + SimpleJWT (docs/product/accounts.md).

const noContent = z.null().describe('No content');
const throttled = { 429: detailErrorSchema.describe('Too many attempts; see Retry-After') };
const bearer = [{ bearerAuth: [] }];
/** The answers of a call that does something and says nothing: 204, or why not. */
const done = { 204: noContent, 400: validationErrorSchema, ...throttled };
/** A route's OpenAPI description: its tags (the account calls unless told), summary and shapes. */
const described = <S extends object>(summary: string, schema: S, tags = ['accounts']) => ({
  schema: { tags, summary, ...schema },
});

/**
 * The largest body an account call takes: its fields are an e-mail, names, a password of at most 4,096
 * characters (even \u-escaped, 24 KiB) and tokens. Most are open to anyone, and parsing a megabyte of
 * JSON made of many small arrays holds a worker's event loop for a quarter of a second, so they refuse
 * more than this (413) before reading it, where other calls take the app's 1 MiB.
 */
export const ACCOUNT_CALL_BODY_LIMIT = 64 * 1024;

export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= ACCOUNT_CALL_BODY_LIMIT;
  });
  const accountTokens = createAccountTokens(ctx.config.secretKey, {
    activation: ctx.config.tokens.activationTtlSeconds,
    reset: ctx.config.tokens.resetTtlSeconds,
  });
  const rateLimits = createAuthRateLimits(app, ctx.rateLimits, ctx.config.authRateLimit);
  /**
   * A call anyone may make about an account, then 204: by its e-mail address (`email`, its attempt counted
   * first, and its mail sent only while the address may get one) or by an e-mailed link (`link`: its uid, whose account counts only links refused).
   */
  function accountAction<B extends z.ZodType>(
    path: string,
    summary: string,
    body: B,
    action: LimitedAction,
    limit: { email: (body: z.output<B>) => string } | { link: (body: z.output<B>) => string },
    act: (body: z.output<B>, log: FastifyBaseLogger) => unknown,
  ) {
    app.post(path, described(summary, { body, response: done }), async (request, reply) => {
      const parsed = request.body as z.output<B>;
      if ('link' in limit)
        await rateLimits.checkLink(request, action, limit.link(parsed), async () => act(parsed, request.log));
      // Past the mails an address may get in a window the answer is the same, as djoser's: the person has the
      // links those mails carried, and no one learns whether the account exists.
      else if ((await rateLimits.countMail(request, action, limit.email(parsed))).send) await act(parsed, request.log);
      return reply.code(204).send(null);
    });
  }
  /** An account call of the person signed in: their bearer token first, then the body (onRequest: a stranger's is never read). */
  const signedIn = <S extends object>(summary: string, schema: S) => ({
    onRequest: ctx.authenticate,
    ...described(summary, { security: bearer, ...schema }),
  });

  app.post(
    API.signup,
    described('Sign up; the account stays inactive until the e-mailed link is opened', {
      body: signupRequestSchema,
      response: { 201: signupResponseSchema, 400: validationErrorSchema, ...throttled },
    }),
    async (request, reply) => {
      await rateLimits.count(request, 'signup', request.body.email);
      return reply.code(201).send(await signup(ctx, request.body));
    },
  );

  app.post(
    API.tokenCreate,
    described(
      'Log in: a new session and its token pair',
      {
        body: tokenCreateRequestSchema,
        response: { 200: tokenPairSchema, 400: validationErrorSchema, 401: detailErrorSchema, ...throttled },
      },
      ['sessions'],
    ),
    async (request) => {
      const { email, password } = request.body;
      await rateLimits.count(request, 'login', email);
      // Only failures count toward the account's lock: someone signing in on several devices is no attacker.
      return login(ctx, email, password, () => rateLimits.refund(request, 'login', email));
    },
  );

  app.post(
    API.tokenRefresh,
    {
      schema: {
        tags: ['sessions'],
        summary: "A new access token for the session's refresh token",
        body: tokenRefreshRequestSchema,
        response: { 200: tokenRefreshResponseSchema, 400: validationErrorSchema, 401: detailErrorSchema },
      },
    },
    async (request) => ({ access: await refreshAccess(ctx, request.body.refresh) }),
  );

  app.get(
    API.me,
    signedIn('The signed-in user', {
      response: { 200: currentUserSchema, 401: detailErrorSchema },
    }),
    async (request) => currentUserRecord(ctx.database.db, currentUser(request).id),
  );

  app.post(
    API.logout,
    {
      onRequest: ctx.authenticate,
      schema: {
        tags: ['sessions'],
        summary: "Log out: ends this session's tokens at once",
        security: bearer,
        response: { 204: noContent, 401: detailErrorSchema },
      },
    },
    async (request, reply) => {
      const { sessionId } = currentUser(request);
      await revokeSession(ctx.database.db, sessionId);
      await ctx.notices.publish({ kind: 'session-ended', sessionId });
      return reply.code(204).send(null);
    },
  );

  app.post(
    API.activation,
    described('Activate an account with the e-mailed uid and token', {
      body: activationRequestSchema,
      response: { ...done, 403: detailErrorSchema },
    }),
    async (request, reply) => {
      const { uid, token } = request.body;
      await rateLimits.checkLink(request, 'activation', uid, () => activate(ctx, accountTokens, uid, token));
      return reply.code(204).send(null);
    },
  );

  accountAction(
    API.resetPassword,
    'E-mail a password reset link (answers 204 whether or not the account exists)',
    resetPasswordRequestSchema,
    'reset',
    { email: (body) => body.email },
    (body) => requestPasswordReset(ctx, body.email),
  );

  accountAction(
    API.resetPasswordConfirm,
    'Set a new password with the e-mailed uid and token; ends every session',
    resetPasswordConfirmRequestSchema,
    'reset',
    { link: (body) => body.uid },
    (body) => confirmPasswordReset(ctx, accountTokens, body),
  );

  // Asked when the link's page opens, so a dead link says so before anyone types (docs/decisions/145-…). It reads
  // the link and changes nothing; it answers only what the confirm would, and spends the confirm's attempts.
  accountAction(
    API.resetPasswordCheck,
    'Whether a password reset link still works (204), or why not (400, as the confirm); changes nothing',
    resetPasswordCheckRequestSchema,
    'reset',
    { link: (body) => body.uid },
    (body) => resetLinkAccount(ctx.database.db, accountTokens, body.uid, body.token),
  );

  accountAction(
    API.resendActivation,
    'E-mail a new activation link to an account not yet active (answers 204 either way)',
    resendActivationRequestSchema,
    'resend',
    { email: (body) => body.email },
    (body) => resendActivation(ctx, body.email, body.redirect),
  );

  // The calls below check the current password: limited per account, so a stolen session cannot
  // guess it faster than the login could.
  const checksPassword = (request: Parameters<typeof currentUser>[0]) =>
    rateLimits.count(request, 'current-password', `user:${currentUser(request).id}`);
  // As at login, only wrong guesses count toward the account: an attempt is given back once its password
  // is proven right, whatever else then refuses the change.
  const passwordWasRight = (request: Parameters<typeof currentUser>[0]) => () =>
    rateLimits.refund(request, 'current-password', `user:${currentUser(request).id}`);

  app.post(
    API.setPassword,
    signedIn('Change the password (the current one required); ends every other session', {
      body: setPasswordRequestSchema,
      response: { ...done, 401: detailErrorSchema },
    }),
    async (request, reply) => {
      await checksPassword(request);
      const { id, sessionId } = currentUser(request);
      const ended = await changePassword(ctx, { userId: id, sessionId }, request.body, passwordWasRight(request));
      return reply.header(SESSIONS_ENDED_HEADER, String(ended)).code(204).send(null);
    },
  );

  app.get(
    API.sessions,
    {
      onRequest: ctx.authenticate,
      schema: {
        tags: ['sessions'],
        summary: 'How many other sessions of the account are live, and when the newest signed in',
        security: bearer,
        response: { 200: otherSessionsSchema, 401: detailErrorSchema },
      },
    },
    async (request) => {
      const { id, sessionId } = currentUser(request);
      const others = await otherLiveSessions(ctx.database.db, id, sessionId);
      return { count: others.count, latest_sign_in: others.latestSignIn?.toISOString() ?? null };
    },
  );

  app.post(
    API.logoutOthers,
    {
      onRequest: ctx.authenticate,
      schema: {
        tags: ['sessions'],
        summary: 'Sign out everywhere else (the current password required): ends every other session at once',
        security: bearer,
        body: signOutOthersRequestSchema,
        response: {
          200: signOutOthersResponseSchema,
          400: validationErrorSchema,
          401: detailErrorSchema,
          ...throttled,
        },
      },
    },
    async (request) => {
      await checksPassword(request);
      const { id, sessionId } = currentUser(request);
      const current = { userId: id, sessionId };
      const ended = await signOutOtherSessions(ctx, current, request.body.current_password, passwordWasRight(request));
      return { ended };
    },
  );

  app.post(
    API.setEmail,
    signedIn('Ask to change the e-mail address: a confirmation link goes to the new address', {
      body: setEmailRequestSchema,
      response: { ...done, 401: detailErrorSchema },
    }),
    async (request, reply) => {
      await checksPassword(request);
      // Each request mails a stranger's address too: limited per address asked for as well.
      const mail = await rateLimits.countMail(request, 'email-change', request.body.new_email);
      if (!mail.send) throw tooManyRequests(mail.retryAfterSeconds);
      await requestEmailChange(ctx, currentUser(request), request.body, passwordWasRight(request));
      return reply.code(204).send(null);
    },
  );

  // The change waiting for its link (docs/decisions/061-…): shown on the profile, sent again, or taken back.
  app.get(
    API.setEmail,
    signedIn('The change of e-mail address waiting for its link to be opened, if any', {
      response: { 200: emailChangeStatusSchema, 401: detailErrorSchema },
    }),
    async (request) => ({ pending: await pendingEmailChange(ctx.database.db, currentUser(request).id) }),
  );

  app.post(
    API.setEmailResend,
    signedIn('Mail a new link for the waiting change of e-mail address; earlier links of it keep working', {
      response: { ...done, 401: detailErrorSchema },
    }),
    async (request, reply) => {
      const newEmail = await addressToResend(ctx.database.db, currentUser(request).id);
      // Limited with the requests to the same address: each mails a stranger's address too.
      await rateLimits.count(request, 'email-change', newEmail);
      await resendEmailChange(ctx, currentUser(request).id, newEmail);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    API.setEmail,
    signedIn('Cancel the waiting change of e-mail address: its links are refused from then on', {
      response: { 204: noContent, 401: detailErrorSchema },
    }),
    async (request, reply) => {
      await cancelEmailChange(ctx.database.db, currentUser(request).id);
      return reply.code(204).send(null);
    },
  );

  accountAction(
    API.setEmailConfirm,
    'Confirm a new e-mail address with the e-mailed uid and token; the old address is told',
    setEmailConfirmRequestSchema,
    'activation',
    { link: (body) => body.uid },
    (body) => confirmEmailChange(ctx, accountTokens, body),
  );

  app.delete(
    API.me,
    signedIn('Delete the account (the current password required): its data and files are removed', {
      body: deleteAccountRequestSchema,
      response: { ...done, 401: detailErrorSchema },
    }),
    async (request, reply) => {
      await checksPassword(request);
      const { current_password } = request.body;
      await deleteOwnAccount(ctx, currentUser(request), current_password, passwordWasRight(request), request.log);
      return reply.code(204).send(null);
    },
  );
};
