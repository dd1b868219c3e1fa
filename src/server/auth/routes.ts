import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API,
  activationRequestSchema,
  currentUserSchema,
  detailErrorSchema,
  resetPasswordConfirmRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  signupResponseSchema,
  tokenCreateRequestSchema,
  tokenPairSchema,
  tokenRefreshRequestSchema,
  tokenRefreshResponseSchema,
  validationErrorSchema,
} from '@shared/contract';
import type { AppContext } from '../context';
import { createAccountTokens } from './account-tokens';
import {
  activate,
  confirmPasswordReset,
  currentUserRecord,
  login,
  refreshAccess,
  requestPasswordReset,
  signup,
} from './accounts';
import { currentUser } from './authenticate';
import { revokeSession } from './sessions';
import { createAuthRateLimits } from './rate-limits';

// The account calls, shaped like djoser + SimpleJWT (docs/product/accounts.md).

const noContent = z.null().describe('No content');
const throttled = { 429: detailErrorSchema.describe('Too many attempts; see Retry-After') };
const bearer = [{ bearerAuth: [] }];

export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const accountTokens = createAccountTokens(ctx.config.secretKey, {
    activation: ctx.config.tokens.activationTtlSeconds,
    reset: ctx.config.tokens.resetTtlSeconds,
  });
  const rateLimit = createAuthRateLimits(app, ctx.config.authRateLimit);
  // Mail still on its way is delivered before the process exits.
  app.addHook('onClose', async () => ctx.mailer.settled());

  app.post(
    API.signup,
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign up; the account stays inactive until the e-mailed link is opened',
        body: signupRequestSchema,
        response: { 201: signupResponseSchema, 400: validationErrorSchema, ...throttled },
      },
    },
    async (request, reply) => {
      await rateLimit(request, 'signup', request.body.email);
      return reply.code(201).send(await signup(ctx, accountTokens, request.body, request.log));
    },
  );

  app.post(
    API.tokenCreate,
    {
      schema: {
        tags: ['sessions'],
        summary: 'Log in: a new session and its token pair',
        body: tokenCreateRequestSchema,
        response: { 200: tokenPairSchema, 400: validationErrorSchema, 401: detailErrorSchema, ...throttled },
      },
    },
    async (request) => {
      await rateLimit(request, 'login', request.body.email);
      return login(ctx, request.body.email, request.body.password);
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
    {
      preHandler: ctx.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user',
        security: bearer,
        response: { 200: currentUserSchema, 401: detailErrorSchema },
      },
    },
    async (request) => currentUserRecord(ctx.database.db, currentUser(request).id),
  );

  app.post(
    API.logout,
    {
      preHandler: ctx.authenticate,
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
    {
      schema: {
        tags: ['accounts'],
        summary: 'Activate an account with the e-mailed uid and token',
        body: activationRequestSchema,
        response: { 204: noContent, 400: validationErrorSchema, 403: detailErrorSchema, ...throttled },
      },
    },
    async (request, reply) => {
      await rateLimit(request, 'activation', request.body.uid);
      await activate(ctx, accountTokens, request.body.uid, request.body.token);
      return reply.code(204).send(null);
    },
  );

  app.post(
    API.resetPassword,
    {
      schema: {
        tags: ['accounts'],
        summary: 'E-mail a password reset link (answers 204 whether or not the account exists)',
        body: resetPasswordRequestSchema,
        response: { 204: noContent, 400: validationErrorSchema, ...throttled },
      },
    },
    async (request, reply) => {
      await rateLimit(request, 'reset', request.body.email);
      requestPasswordReset(ctx, accountTokens, request.body.email, request.log);
      return reply.code(204).send(null);
    },
  );

  app.post(
    API.resetPasswordConfirm,
    {
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with the e-mailed uid and token; ends every session',
        body: resetPasswordConfirmRequestSchema,
        response: { 204: noContent, 400: validationErrorSchema, ...throttled },
      },
    },
    async (request, reply) => {
      await rateLimit(request, 'reset', request.body.uid);
      await confirmPasswordReset(ctx, accountTokens, request.body, request.log);
      return reply.code(204).send(null);
    },
  );
};
