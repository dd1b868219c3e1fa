import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from '@shared/constants';
import { API } from '@shared/contract/paths';
import { profileSchema } from '@shared/contract/profile';
import { apiRequest, MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';

/**
 * Liberal in what it accepts from a djoser-style server: a plan in other capitals is that plan, and
 * a missing or unknown one ("", null, "platinum") is shown as Basic rather than failing the page.
 */
const planOfAnswer = z
  .unknown()
  .optional()
  .transform((value): SubscriptionPlan => {
    const plan = typeof value === 'string' ? value.trim().toLowerCase() : '';
    return SUBSCRIPTION_PLANS.find((known) => known === plan) ?? 'basic';
  });
export const profileAnswerSchema = profileSchema.extend({ subscription_plan: planOfAnswer });

export const profileQuery = () =>
  queryOptions({
    queryKey: ['profile'],
    refetchInterval: MEDIA_LINKS_REFETCH_MS,
    queryFn: ({ signal }) => apiRequest(API.profile, { schema: profileAnswerSchema, signal }),
  });
