import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API } from '@shared/contract';
import { PRODUCT_NAME } from '@shared/constants';

/** Publishes the contract: JSON at /api/openapi.json, a readable page at /api/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${PRODUCT_NAME} API`,
        description: 'Accounts, sessions, profile and portal content. Error bodies follow Django REST framework.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: createJsonSchemaTransform({ skipList: [API.openapi, `${API.docs}/*`, API.docs] }),
    transformObject: createJsonSchemaTransformObject({}),
  });
  // Swagger UI's validator badge sends the whole contract to validator.swagger.io and loads an image from
  // there: the page is on the app's origin, so it reaches no other host (the badge is off, and so is the host
  // in the page's policy). Its policy, which replaces the pages', lets nothing frame it, as theirs does.
  await app.register(swaggerUi, {
    routePrefix: API.docs,
    uiConfig: { validatorUrl: null },
    staticCSP: true,
    transformStaticCSP: (policy) =>
      policy.replace(/ validator\.swagger\.io/g, '').replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'"),
  });
  app.get(API.openapi, { schema: { hide: true } }, async () => app.swagger());
}
