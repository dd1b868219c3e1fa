import type { SubscriptionPlan } from '@shared/constants';
import { ownCategories, ownMessages, profiles } from '../db/schema';
import type { SignedInUser } from '../test/fixtures';
import type { TestApp } from '../test/test-app';

// Calls and plan changes for the tests of one's own things (not a test file itself).

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export function ownTestKit(app: () => TestApp) {
  /** A call as `user` (or anyone, when undefined), with a JSON body when one is given. */
  const call = (user: SignedInUser | undefined, method: Method, url: string, payload?: object) =>
    app().app.inject({ method, url, headers: user?.headers ?? {}, ...(payload !== undefined && { payload }) });

  /** Sets a user's plan as an operator would (billing does not exist yet). */
  const setPlan = async (user: SignedInUser, plan: SubscriptionPlan) => {
    await app()
      .database.db.insert(profiles)
      .values({ userId: user.id, subscriptionPlan: plan })
      .onConflictDoUpdate({ target: profiles.userId, set: { subscriptionPlan: plan } });
  };
  /** Fills a user's own messages up to `n` directly in one new category (the calls have their own tests). */
  const ownMessagesUpTo = async (user: SignedInUser, n: number) => {
    const { db } = app().database;
    const [category] = await db
      .insert(ownCategories)
      .values({ userId: user.id, name: 'Bulk' })
      .returning({ id: ownCategories.id });
    if (n > 0)
      await db.insert(ownMessages).values(
        Array.from({ length: n }, (_, i) => ({
          categoryId: category!.id,
          userId: user.id,
          messageText: `Message ${i}`,
        })),
      );
    return category!.id;
  };
  return { call, setPlan, ownMessagesUpTo };
}
