import { queryOptions } from '@tanstack/react-query';
import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from '@shared/constants';
import type { Profile } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest, fromQuery, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { SESSION } from '@web/lib/session-keys';

/**
 * Liberal in what it accepts from a djoser-style server: a plan in other capitals is that plan, and
 * a missing or unknown one ("", null, "platinum") is shown as Basic rather than failing the page.
 */
function knownPlan(value: unknown): SubscriptionPlan {
  const plan = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return SUBSCRIPTION_PLANS.find((known) => known === plan) ?? 'basic';
}

/** A profile as the server answered it, with its plan read liberally (above). */
export const withKnownPlan = (answer: Profile): Profile => ({
  ...answer,
  subscription_plan: knownPlan(answer.subscription_plan),
});

export const profileQuery = () =>
  queryOptions({
    queryKey: ['profile'],
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    // Unlike other reads, asked again whenever its tab shows again, fresh or not: a name, address or picture
    // changed in another tab or on another device shows when the person comes back to this one.
    refetchOnWindowFocus: 'always',
    queryFn: async (context) => withKnownPlan(await apiRequest<Profile>(API.profile, fromQuery(context))),
  });

/**
 * Tells the person's other tabs that the profile changed here (a new picture or names, a picture removed):
 * the storage event reaches them, and they read it again (profile-view.tsx).
 */
export function announceProfileSaved(): void {
  try {
    localStorage.setItem(SESSION.storageKeys.profileSaved, String(Date.now()));
  } catch {
    // Storage refused (private mode): the other tabs read the profile again when they show.
  }
}
