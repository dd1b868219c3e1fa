import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { toastFailure } from '@web/lib/change';
import type { GoalId, OnboardingWrite } from '@shared/contract';
import { planIncludes } from '@shared/plans';
import { QueryState } from '@web/components/ui/query-state';
import { paths, safeRedirectTarget } from '@web/lib/paths';
import { planQuery } from '@web/lib/plan';
import { guidanceKeys, onboardingQuery, programsQuery, saveOnboarding } from '../api/guidance';
import { suggestedProgram } from './hub-guidance';
import { answersOf, OnboardingForm } from './onboarding-form';
import { clearOnboardingDraft, readOnboardingDraft, writeOnboardingDraft } from '../lib/onboarding-draft';

// The first save's words say where the suggestions are from the page the toast shows on
// (docs/decisions/079-a-phone-shows-the-whole-text.md): the person is in the portal already.
export const ONBOARDING_TEXTS = {
  /** On the portal hub, where a first save goes: its "For you" section is under the page's title. */
  saved: 'Saved. Your suggestions are below, under For you.',
  /** On the page a first save goes back to (`?from=`, the profile's "Answer three questions"). */
  savedElsewhere: 'Saved. Your suggestions are under For you, on the portal’s first page.',
  showSuggestions: 'Show them',
  updated: 'Your answers are saved.',
  skipped: 'No problem. You can answer these any time from your profile.',
  failed: 'Your answers could not be saved. Please try again.',
};

/**
 * Whether the hub's "For you" suggests something for these goals: a program for one of them, or the
 * recommendations the plan includes (Pro). When it cannot be told, it is not promised (decision 108).
 */
async function hubSuggests(queryClient: QueryClient, goals: readonly GoalId[]): Promise<boolean> {
  try {
    const [plan, programs] = await Promise.all([
      queryClient.ensureQueryData(planQuery()),
      queryClient.ensureQueryData(programsQuery()),
    ]);
    return planIncludes(plan.plan, 'recommendations') || suggestedProgram(goals, programs) !== null;
  } catch {
    return false;
  }
}

/**
 * /welcome (docs/product/screens.md#welcome): the onboarding the first time, editing the answers
 * later (from the profile). Saving goes to the portal hub, which then suggests a program;
 * `?from=` (a same-site path) goes back there instead.
 */
export function OnboardingPage() {
  const query = useQuery(onboardingQuery());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const back = safeRedirectTarget(search.get('from'));
  const answered = query.data?.completed_at != null && !query.data.skipped;
  const mutation = useMutation({
    mutationFn: (answers: OnboardingWrite) => saveOnboarding(answers),
    onSuccess: async (saved) => {
      clearOnboardingDraft();
      queryClient.setQueryData(guidanceKeys.onboarding, saved);
      await queryClient.invalidateQueries({ queryKey: guidanceKeys.all });
      const next = back ?? (saved.skipped ? paths.subliminals : paths.portalHome);
      if (saved.skipped) toast.success(ONBOARDING_TEXTS.skipped);
      // A first save promises suggestions only where "For you" has one: a Basic or Intermediate person whose
      // goals no program serves (Creativity, say) finds none there.
      else if (answered || !(await hubSuggests(queryClient, saved.goals))) toast.success(ONBOARDING_TEXTS.updated);
      else if (next === paths.portalHome) toast.success(ONBOARDING_TEXTS.saved);
      else
        toast.success(ONBOARDING_TEXTS.savedElsewhere, {
          action: { label: ONBOARDING_TEXTS.showSuggestions, onClick: () => void navigate(paths.portalHome) },
        });
      void navigate(next);
    },
    onError: (error) => toastFailure(error, ONBOARDING_TEXTS.failed),
  });

  // Never the form without the answers saved (a failed read shows Try again): its Save would replace them
  // with blanks, no goals among them.
  return (
    <QueryState
      isPending={query.isPending}
      error={query.error}
      isEmpty={false}
      emptyText=""
      onRetry={() => void query.refetch()}
      what="your answers"
    >
      {query.data ? (
        <div className="rounded-3xl border border-line bg-surface-raised p-6 sm:p-8">
          <OnboardingForm
            initial={readOnboardingDraft() ?? { step: 0, answers: answersOf(query.data) }}
            stored={query.data.free_text}
            saving={mutation.isPending}
            skipping={mutation.isPending && mutation.variables.skipped === true}
            onChange={writeOnboardingDraft}
            onSave={(answers) => mutation.mutate(answers)}
            onSkip={answered ? undefined : () => mutation.mutate({ skipped: true })}
          />
        </div>
      ) : null}
    </QueryState>
  );
}
