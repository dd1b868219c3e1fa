import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Compass } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Button } from '@web/components/ui/button';
import { paths } from '@web/lib/paths';
import { guidanceKeys, onboardingQuery, saveOnboarding } from '../api/guidance';

/** Whether the onboarding is still to be offered: never answered and never skipped. */
export const onboardingPending = (onboarding: { completed_at: string | null; skipped: boolean } | undefined) =>
  onboarding !== undefined && onboarding.completed_at === null && !onboarding.skipped;

/**
 * A calm invitation at the top of portal pages after the first login (docs/product/screens.md#welcome),
 * until the onboarding is answered or skipped. It covers nothing: the page stays usable under it.
 */
export function OnboardingPrompt() {
  const query = useQuery(onboardingQuery());
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const skip = useMutation({
    mutationFn: () => saveOnboarding({ skipped: true }),
    onSuccess: (saved) => queryClient.setQueryData(guidanceKeys.onboarding, saved),
  });
  if (!onboardingPending(query.data) || pathname === paths.welcome || skip.isSuccess) return null;
  return (
    <section
      aria-label="Getting started"
      className="mx-auto mb-8 flex max-w-6xl flex-wrap items-center gap-4 rounded-3xl border border-line bg-surface-raised p-5"
    >
      <Compass aria-hidden className="h-6 w-6 shrink-0 text-link" />
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-semibold">New here? Tell us what you would like from Innerwave.</p>
        <p className="text-sm text-fg-muted">
          Three short questions, and we suggest where to start. Skip them if you prefer.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm">
          <Link to={paths.welcome}>Set up your practice</Link>
        </Button>
        <Button variant="ghost" size="sm" onClick={() => skip.mutate()} disabled={skip.isPending}>
          Not now
        </Button>
      </div>
    </section>
  );
}
