import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PortalLayout } from '@web/components/layouts/portal-layout';
import { startPracticeRecorder } from '@web/components/practice-recorder';
import { OnboardingPrompt, useOnboardingSettling } from '@web/features/guidance/components/onboarding-prompt';

/**
 * The signed-in frame: the sound plays on across portal pages, with the mini-player under each; every
 * session that ends is recorded, and a new person is invited to the onboarding.
 */
export function Component() {
  const queryClient = useQueryClient();
  useEffect(() => startPracticeRecorder(queryClient), [queryClient]);
  const settling = useOnboardingSettling();
  return <PortalLayout notice={<OnboardingPrompt />} noticeSettling={settling} />;
}
