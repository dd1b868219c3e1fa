import { ADMIN_API, adminJobListSchema, adminJobQuerySchema, adminJobSchema, idParamsSchema } from '@shared/contract';
import { jobOverview, parseStatuses, retryFailedJob } from '../jobs-service';
import { errors, tags, type AdminRoutes } from './shared';

/** The job queue: counts and the newest jobs (of some statuses); a failed or dead one retried. */
export const registerJobRoutes: AdminRoutes = ({ app, ctx, db }) => {
  app.get(
    ADMIN_API.jobs,
    {
      schema: {
        tags,
        summary: 'Background jobs: counts by status and the newest jobs (status=failed,dead: only those)',
        querystring: adminJobQuerySchema,
        response: { 200: adminJobListSchema, ...errors },
      },
    },
    async (request) => jobOverview(db, parseStatuses(request.query.status)),
  );
  app.post(
    ADMIN_API.jobRetry,
    {
      schema: {
        tags,
        summary: 'Run a failed or dead job again now, with all its attempts',
        params: idParamsSchema,
        response: { 200: adminJobSchema, ...errors },
      },
    },
    async (request) => {
      const job = await retryFailedJob(db, request.params.id);
      ctx.jobs.wake();
      return job;
    },
  );
};
