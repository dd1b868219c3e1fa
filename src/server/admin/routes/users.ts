import { currentUser } from '../../auth/authenticate';
import {
  ADMIN_API,
  adminUserListSchema,
  adminUserQuerySchema,
  adminUserSchema,
  adminUserUpdateSchema,
  idParamsSchema,
} from '@shared/contract';
import { getUser, listUsers, updateUser } from '../users-service';
import { errors, tags, type AdminRoutes } from './shared';

/** Users: list and search, read, change plan and activity. */
export const registerUserRoutes: AdminRoutes = ({ app, ctx, db }) => {
  app.get(
    ADMIN_API.users,
    {
      schema: {
        tags,
        summary: 'Search users by e-mail',
        querystring: adminUserQuerySchema,
        response: { 200: adminUserListSchema, ...errors },
      },
    },
    async (request) => listUsers(db, request.query.search),
  );
  app.get(
    ADMIN_API.user,
    { schema: { tags, summary: 'One user', params: idParamsSchema, response: { 200: adminUserSchema, ...errors } } },
    async (request) => getUser(db, request.params.id),
  );
  app.patch(
    ADMIN_API.user,
    {
      schema: {
        tags,
        summary: "Set a user's plan or activate/deactivate them",
        params: idParamsSchema,
        body: adminUserUpdateSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => {
      const user = await updateUser(db, request.params.id, request.body, currentUser(request).id);
      await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
      return user;
    },
  );
};
