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
import { expireCheckoutsAfterPlanSet } from '../../billing/plan-set-by-staff';

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
          "A plan set here is an operator's override, logged with who set it; for a user with a Stripe subscription it holds until Stripe's next event about that subscription. The person's open Stripe Checkout pages are expired (Stripe out of reach is logged; the plan is set all the same).",
        params: idParamsSchema,
        body: adminUserUpdateSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => {
      const staff = currentUser(request);
      const before = request.body.subscription_plan === undefined ? undefined : await getUser(db, request.params.id);
      const user = await updateUser(db, request.params.id, request.body, staff.id);
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
      if (before)
        await expireCheckoutsAfterPlanSet(db, ctx.config.stripe, user.id, {
          expired: (customer, pages) =>
            request.log.info(
              { staffId: staff.id, userId: user.id, customer, pages },
              `billing: ${pages} open Checkout page(s) expired after staff set the plan`,
            ),
          failed: (customer, error, stripeType) =>
            request.log.error(
              { err: error, staffId: staff.id, userId: user.id, customer, stripeType },
              `billing: the open Checkout pages of customer ${customer} could not be expired after staff set the plan: expire them at Stripe`,
            ),
        });
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
