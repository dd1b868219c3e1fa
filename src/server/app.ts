import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { MESSAGES } from '@shared/contract';
import type { AppContext } from './context';
import { registerErrorHandler } from './http/error-handler';
import { registerJsonParser } from './http/json-parser';
import { registerSecurity } from './http/security';
import { registerOpenApi } from './http/openapi';
import { readWebPages, registerWeb } from './http/web';
import { loggerOptions } from './http/logger';
import { healthRoutes } from './health/routes';
import { authRoutes } from './auth/routes';
import { adminRoutes } from './admin/routes';
import { contentRoutes } from './content/routes';
import { profileRoutes } from './profile/routes';
import { mediaRoutes } from './media/routes';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** The built SPA's folder; tests that need no web pages leave it out. */
  webDir?: string | undefined;
  /** Extra modules, registered after the product's own (tests use it for probe routes). */
  plugins?: FastifyPluginAsync[];
}

/** Builds the whole app (plugins, then modules) without listening, so tests can `inject`. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(ctx.config.logLevel),
    bodyLimit: 1024 * 1024,
    // Behind a load balancer, set trustProxy there; here the socket address is the client.
    trustProxy: false,
    return503OnClosing: true,
    // Errors before routing (a URL that is not valid percent-encoded UTF-8, e.g. /media/%c0%ae)
    // get the contract's shape too; such a path names no resource.
    frameworkErrors: (error, _request, reply: FastifyReply) =>
      error.code === 'FST_ERR_BAD_URL'
        ? reply.code(404).send({ detail: MESSAGES.notFound })
        : reply.code(error.statusCode ?? 400).send({ detail: error.message }),
  }).withTypeProvider<ZodTypeProvider>();

  app.decorateRequest('sessionUser', null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonParser(app);
  registerErrorHandler(app);

  const pages = options.webDir ? readWebPages(options.webDir) : undefined;
  await registerSecurity(app, pages ? [pages.index, pages.home ?? ''] : []);
  // Limits are opted into per route (login, signup, reset, activation).
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      detail: `${MESSAGES.throttled} Expected available in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  await registerOpenApi(app);

  await app.register(healthRoutes, ctx);
  await app.register(authRoutes, ctx);
  await app.register(adminRoutes, ctx);
  await app.register(contentRoutes, ctx);
  await app.register(profileRoutes, ctx);
  await app.register(mediaRoutes, ctx);
  for (const plugin of options.plugins ?? []) await app.register(plugin);

  await registerWeb(app, pages, options.webDir);
  return app;
}
