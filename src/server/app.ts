import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { applyDrfMessages } from '@shared/contract/drf-messages';
import type { AppContext } from './context';
import { answerClientError, answerError, registerErrorHandler, requestIdOptions } from './http/error-handler';
import { tooManyRequests } from './http/errors';
import { registerBodyParsers } from './http/body-parsers';
import { applyServerLimits, registerRequestLimits, serverLimitOptions } from './http/limits';
import { trackHandlers } from './http/shutdown';
import { registerSecurity, securityHeadersByUrl } from './http/security';
import { registerOpenApi } from './http/openapi';
import { registerRobotsTag } from './http/crawlers';
import { loadSharedPage, readWebPages, registerWeb, routedUrl } from './http/web';
import { loggerOptions, logRequests } from './http/logger';
import { healthRoutes } from './health/routes';
import { authRoutes } from './auth/routes';
import { accountExists } from './auth/accounts';
import { registerSessionCheckAfterBody } from './auth/authenticate';
import { adminRoutes } from './admin/routes';
import { contentRoutes } from './content/routes';
import { profileRoutes } from './profile/routes';
import { ownRoutes } from './own/routes';
import { sharedRoutes } from './own/shared-routes';
import { mediaRoutes } from './media/routes';
import { mediaOrigins } from './media/storage';
import { supportRoutes } from './support/routes';
import { billingRoutes } from './billing/routes';
import { guidancePages, guidanceRoutes } from './guidance/routes';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** The built SPA's folder; tests that need no web pages leave it out. */
  webDir?: string | undefined;
  /** The web build's server renderers (dist/render): the share page is filled when it holds one. */
  renderDir?: string | undefined;
  /** Extra modules, registered after the product's own (tests use it for probe routes). */
  plugins?: FastifyPluginAsync[];
}

/** Builds the whole app (plugins, then modules) without listening, so tests can `inject`. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  applyDrfMessages();
  const pages = options.webDir ? readWebPages(options.webDir) : undefined;
  const securityHeaders = securityHeadersByUrl(
    pages ? pages.documents : [],
    ctx.config.http.hstsMaxAgeSeconds,
    mediaOrigins(ctx.config.s3),
  );
  const app = Fastify({
    logger: options.logger ?? loggerOptions(ctx.config.logLevel),
    // Its two lines per request give way to ours (logRequests): one.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    ...serverLimitOptions(ctx.config.http),
    return503OnClosing: true,
    ...requestIdOptions,
    // A page's path that does not decode is routed as the browser reads it; errors before routing
    // (an API or media path that does not decode, e.g. /media/%c0%ae) get the contract's shape too.
    rewriteUrl: routedUrl,
    // A parameter longer than this never reaches its route; each route's parameter schema says what it
    // takes, and a page's (a share link's token) gets its page. Node bounds the whole URL (16 KB of headers).
    routerOptions: { maxParamLength: 16 * 1024 },
    frameworkErrors: (error, request, reply) =>
      answerError(error, request, reply.headers(securityHeaders(request.url))),
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.decorateRequest('sessionUser', null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  logRequests(app);
  // The first check once a body is in: a session ended while it arrived is answered before what the body holds.
  registerSessionCheckAfterBody(app, ctx.database.db);
  registerBodyParsers(app);
  registerErrorHandler(app, ctx.config.overload.retryAfterSeconds, (userId) => accountExists(ctx.database.db, userId));
  trackHandlers(app);
  // Jobs this process runs (a single process; in a cluster the primary's) log as the app does, and
  // finish or are given back when it closes.
  ctx.jobs.useLog?.(app.log);
  app.addHook('onClose', () => ctx.jobs.stop());
  applyServerLimits(app, ctx.config.http);
  await registerRequestLimits(app, ctx.config, ctx.database);

  const sharedPage =
    pages && options.webDir && options.renderDir
      ? await loadSharedPage(pages, options.webDir, options.renderDir, app.log)
      : undefined;
  registerSecurity(app, securityHeaders);
  if (pages) registerRobotsTag(app);
  // Limits are opted into per route (login, signup, reset, activation).
  await app.register(rateLimit, {
    global: false,
    store: ctx.rateLimits.store,
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl / 1000),
  });
  await registerOpenApi(app);

  await app.register(healthRoutes, ctx);
  await app.register(authRoutes, ctx);
  await app.register(adminRoutes, ctx);
  await app.register(contentRoutes, ctx);
  await app.register(profileRoutes, ctx);
  await app.register(ownRoutes, ctx);
  await app.register(sharedRoutes, { ...ctx, sharedPage });
  await app.register(mediaRoutes, ctx);
  await app.register(supportRoutes, ctx);
  await app.register(billingRoutes, ctx);
  await app.register(guidanceRoutes, ctx);
  await app.register(guidancePages, { ...ctx, pages });
  for (const plugin of options.plugins ?? []) await app.register(plugin);

  await registerWeb(app, pages, ctx.config.publicUrl, options.webDir);
  return app;
}
