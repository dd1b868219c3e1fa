import { queryOptions } from '@tanstack/react-query';

import type {
  Onboarding,
  OnboardingWrite,
  PlanState,
  Practice,
  Program,
  ProgramSummary,
  Recommendations,
  Reminder,
} from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { planIncludes } from '@shared/plans';
import { apiRequest, fromQuery } from '@web/lib/api-client';
import type { InitialQuery } from '@web/lib/early-reads';
import { planQuery } from '@web/lib/plan';

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
    queryFn: (context) => apiRequest<Onboarding>(API.onboarding, fromQuery(context)),
  });

export const saveOnboarding = (answers: OnboardingWrite) =>
  apiRequest<Onboarding>(API.onboarding, { method: 'PUT', body: answers });

export const programsQuery = () =>
  queryOptions({
    queryKey: guidanceKeys.programs,
    queryFn: (context) => apiRequest<ProgramSummary[]>(API.programs, fromQuery(context)),
  });

export const programQuery = (slug: string) =>
  queryOptions({
    queryKey: guidanceKeys.program(slug),
    queryFn: (context) => apiRequest<Program>(fillPath(API.program, { slug }), fromQuery(context)),
  });

export const resetProgress = (slug: string) =>
  apiRequest(fillPath(API.programProgress, { slug }), { method: 'DELETE' });

export const practiceQuery = () =>
  queryOptions({
    queryKey: guidanceKeys.practice,
    queryFn: (context) => apiRequest<Practice>(API.practice, fromQuery(context)),
  });

export const deleteHistory = () => apiRequest(API.history, { method: 'DELETE' });

export const saveReminder = (reminder: Reminder) =>
  apiRequest<Reminder>(API.reminders, { method: 'PUT', body: reminder });

/** Pro only: other plans get 403 (the hub shows the teaser instead of asking). */
export const recommendationsQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: guidanceKeys.recommendations,
    enabled,
    queryFn: (context) => apiRequest<Recommendations>(API.recommendations, fromQuery(context)),
  });

/**
 * What the hub's part for the person (components/hub-guidance.tsx) reads in its first render: the onboarding, the
 * programs, the practice and the plan, then the recommendations when the plan includes them. The portal home's
 * route names them, and its pre-rendered page asks for them beside the app's code (lib/early-reads.ts).
 */
export const hubGuidanceQueries = (): InitialQuery[] => [
  onboardingQuery(),
  programsQuery(),
  practiceQuery(),
  {
    ...planQuery(),
    next: (state: PlanState) => (planIncludes(state.plan, 'recommendations') ? [recommendationsQuery(true)] : []),
  },
];
