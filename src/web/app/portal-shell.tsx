import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PortalLayout } from '@web/components/layouts/portal-layout';
import { startPracticeRecorder } from '@web/components/practice-recorder';
import { OnboardingPrompt, useOnboardingSettling } from '@web/features/guidance/components/onboarding-prompt';
import { onboardingQuery } from '@web/features/guidance/api/guidance';
import { followPlanChanges, planQuery } from '@web/lib/plan';
import { isAdminPath } from '@web/lib/paths';
import type { PageQueries } from './page-data';

/**
 * Every portal page shows what the plan includes, and the shell waits for the onboarding invitation; staff's
 * admin pages, which it never goes above, do not ask for it.
 */
export const pageQueries: PageQueries = ({ pathname }) =>
  isAdminPath(pathname) ? [planQuery()] : [planQuery(), onboardingQuery()];

/**
 * The signed-in frame: the sound plays on across portal pages, with the mini-player under each; every
 * session that ends is recorded, a plan paid for in another tab opens here too, and a new person is invited
 * to the onboarding.
 */
export function Component() {
  const queryClient = useQueryClient();
  useEffect(() => startPracticeRecorder(queryClient), [queryClient]);
  useEffect(() => followPlanChanges(queryClient), [queryClient]);
  const settling = useOnboardingSettling();
  return <PortalLayout notice={<OnboardingPrompt />} noticeSettling={settling} />;
}
