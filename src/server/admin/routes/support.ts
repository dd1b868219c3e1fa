import {
  ADMIN_API,
  adminSupportQuerySchema,
  adminSupportRequestListSchema,
  adminSupportRequestSchema,
  adminSupportUpdateSchema,
  idParamsSchema,
} from '@shared/contract';
import { listSupportRequests, setSupportRequestHandled } from '../../support/service';
import { errors, tags, type AdminRoutes } from './shared';

/** Support requests: newest first (or only the open ones), marked handled or open again. */
export const registerSupportRoutes: AdminRoutes = ({ app, db }) => {
  app.get(
    ADMIN_API.supportRequests,
    {
      schema: {
        tags,
        summary: 'Support requests, newest first (open=true: only those not yet handled)',
        querystring: adminSupportQuerySchema,
        response: { 200: adminSupportRequestListSchema, ...errors },
      },
    },
    async (request) => listSupportRequests(db, request.query.open === 'true'),
  );
  app.patch(
    ADMIN_API.supportRequest,
    {
      schema: {
        tags,
        summary: 'Mark a support request handled, or open again',
        params: idParamsSchema,
        body: adminSupportUpdateSchema,
        response: { 200: adminSupportRequestSchema, ...errors },
      },
    },
    async (request) => setSupportRequestHandled(db, request.params.id, request.body.handled),
  );
};
