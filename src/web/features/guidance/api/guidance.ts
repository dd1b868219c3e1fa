import { queryOptions } from '@tanstack/react-query';

import type { OnboardingWrite, Reminder } from '@shared/contract';
import {
  onboardingSchema,
  practiceSchema,
  programListSchema,
  programSchema,
  recommendationsSchema,
  reminderSchema,
} from '@shared/contract/guidance';
import { API, fillPath } from '@shared/contract/paths';
import { apiRequest } from '@web/lib/api-client';

// The guidance calls (docs/product/api.md#guidance). Every key starts with 'guidance', so a recorded
// session (components/practice-recorder.ts) reloads all of them at once.

export const guidanceKeys = {
  all: ['guidance'] as const,
  onboarding: ['guidance', 'onboarding'] as const,
  programs: ['guidance', 'programs'] as const,
  program: (slug: string) => ['guidance', 'programs', slug] as const,
  practice: ['guidance', 'practice'] as const,
  recommendations: ['guidance', 'recommendations'] as const,
};

export const onboardingQuery = () =>
  queryOptions({
    queryKey: guidanceKeys.onboarding,
    queryFn: ({ signal }) => apiRequest(API.onboarding, { schema: onboardingSchema, signal }),
  });

export const saveOnboarding = (answers: OnboardingWrite) =>
  apiRequest(API.onboarding, { method: 'PUT', body: answers, schema: onboardingSchema });

export const programsQuery = () =>
  queryOptions({
    queryKey: guidanceKeys.programs,
    queryFn: ({ signal }) => apiRequest(API.programs, { schema: programListSchema, signal }),
  });

export const programQuery = (slug: string) =>
  queryOptions({
    queryKey: guidanceKeys.program(slug),
    queryFn: ({ signal }) => apiRequest(fillPath(API.program, { slug }), { schema: programSchema, signal }),
  });

export const resetProgress = (slug: string) =>
  apiRequest(fillPath(API.programProgress, { slug }), { method: 'DELETE' });

export const practiceQuery = () =>
  queryOptions({
    queryKey: guidanceKeys.practice,
    queryFn: ({ signal }) => apiRequest(API.practice, { schema: practiceSchema, signal }),
  });

export const deleteHistory = () => apiRequest(API.history, { method: 'DELETE' });

export const saveReminder = (reminder: Reminder) =>
  apiRequest(API.reminders, { method: 'PUT', body: reminder, schema: reminderSchema });

/** Pro only: other plans get 403 (the hub shows the teaser instead of asking). */
export const recommendationsQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: guidanceKeys.recommendations,
    enabled,
    queryFn: ({ signal }) => apiRequest(API.recommendations, { schema: recommendationsSchema, signal }),
  });
