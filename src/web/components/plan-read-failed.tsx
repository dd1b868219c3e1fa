import type { ReactNode } from 'react';
import { ReadFailed, useTryAgain } from '@web/components/ui/query-state';
import type { PlanFeature } from '@shared/plans';
import { usePlan } from '@web/lib/plan';

/**
 * Stands, once on a screen, where the first of its controls or locks of the plan would be. When the plan could not be
 * read (and that control's `feature` is not every member's) it says so, with what waits on it (`detail`) and the
 * lists' busy "Try again"; otherwise it is `children`, what stands there (nothing while the plan is read, then the
 * control or its lock), which takes the keyboard from "Try again" once the plan is read. A screen without it would
 * lack a button for good, saying nothing (docs/decisions/132-a-plan-not-read-says-so-once-a-screen.md).
 */
export function PlanReadFailed({
  feature,
  detail,
  className,
  children,
}: {
  /** What the control there needs: one every member has waits on no read, and nothing is said. */
  feature: PlanFeature;
  detail: string;
  className?: string;
  children?: ReactNode;
}) {
  const { read, has } = usePlan();
  const tryAgain = useTryAgain({
    isPending: read.isPending,
    // A plan read once and failing when read again (a tab shown again) is still known: nothing to say.
    error: has(feature) === undefined ? read.error : null,
    onRetry: () => void read.refetch(),
  });
  return tryAgain.error ? (
    <ReadFailed tryAgain={tryAgain} what="your plan" detail={detail} className={className} />
  ) : (
    <>{children}</>
  );
}
