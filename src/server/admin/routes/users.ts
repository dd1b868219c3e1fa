import { currentUser } from '../../auth/authenticate';
import {
  ADMIN_API,
  adminUserListSchema,
  adminUserQuerySchema,
  adminUserSchema,
  adminUserUpdateSchema,
  idParamsSchema,
} from '@shared/contract';
import { cancelUserEmailChange, getUser, listUsersFor, updateUser } from '../users-service';
import { errors, tags, type AdminRoutes } from './shared';
import { expireCheckoutsJob } from '../../billing/checkout-expiry';
import type { Tx } from '../../billing/service';

/** Users: list and search, read, change plan and activity, cancel a waiting change of e-mail address. */
export const registerUserRoutes: AdminRoutes = ({ app, ctx, db }) => {
  app.get(
    ADMIN_API.users,
    {
      schema: {
        tags,
        summary: 'One page of the users, newest first: search by e-mail or name, or only those needing attention',
        querystring: adminUserQuerySchema,
        response: { 200: adminUserListSchema, ...errors },
      },
    },
    async (request) => listUsersFor(db, request.query),
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
        description:
          "A plan set here is an operator's override, logged with who set it; for a user with a Stripe subscription it holds until Stripe's next event about that subscription. The person's open Stripe Checkout pages are expired afterwards, by a background job (retried while Stripe is out of reach; the answer does not wait for it).",
        params: idParamsSchema,
        body: adminUserUpdateSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => {
      const staff = currentUser(request);
      const before = request.body.subscription_plan === undefined ? undefined : await getUser(db, request.params.id);
      // The person's open Checkout pages are expired by a job queued with the plan: the answer does not
      // wait for Stripe (decision 066).
      const planSet = ctx.config.stripe
        ? (tx: Tx) => ctx.jobs.enqueue(tx, expireCheckoutsJob(request.params.id, 'plan-set'))
        : undefined;
      const user = await updateUser(db, request.params.id, request.body, { actingUserId: staff.id, planSet });
      if (before && before.subscription_plan !== user.subscription_plan)
        request.log.info(
          {
            staffId: staff.id,
            staffEmail: staff.email,
            userId: user.id,
            from: before.subscription_plan,
            to: user.subscription_plan,
            subscription: user.billing.status,
          },
          `operator override: ${staff.email} set ${user.email}'s plan ${before.subscription_plan} → ${user.subscription_plan} (until the next Stripe event)`,
        );
      await ctx.notices.publish({ kind: 'user-changed', userId: user.id });
      if (before && planSet) ctx.jobs.wake();
      return user;
    },
  );
  app.delete(
    ADMIN_API.userEmailChange,
    {
      schema: {
        tags,
        summary: "Cancel a user's waiting change of e-mail address: its links are refused from then on",
        description:
          "As the person's own DELETE /api/users/set_email/ does; nothing waiting is no error. Answers the user.",
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => {
      const staff = currentUser(request);
      const before = await getUser(db, request.params.id);
      const user = await cancelUserEmailChange(db, request.params.id);
      if (before.pending_email_change)
        request.log.info(
          { staffId: staff.id, staffEmail: staff.email, userId: user.id },
          `${staff.email} cancelled ${user.email}'s change of e-mail address to ${before.pending_email_change.new_email}`,
        );
      return user;
    },
  );
};
