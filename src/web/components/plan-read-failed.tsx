import type { ReactNode } from 'react';
import { clsx } from 'clsx';
import { OfflineWait, ReadFailed, useTryAgain } from '@web/components/ui/query-state';
import { Button } from '@web/components/ui/button';
import type { PlanFeature } from '@shared/plans';
import { usePlan } from '@web/lib/plan';

/**
 * Stands where a control or lock of the plan would be. When the plan could not be read (and that control's `feature`
 * is not every member's) it says so, with what waits on it (`detail`) and the lists' busy "Try again"; otherwise it is
 * `children`, what stands there (nothing while the plan is read, then the control or its lock), which takes the
 * keyboard from "Try again" once the plan is read. A screen without it would lack a button for good, saying nothing.
 * The first such place on a screen says it as the lists' message ("Could not load your plan: …", an alert); a later
 * one far from it (a phone scrolls it away) is `brief`: one quiet line naming why its part waits, with its own "Try
 * again", so the failure is announced once (docs/decisions/132-a-plan-not-read-says-so-once-a-screen.md,
 * docs/decisions/140-a-part-far-from-the-plans-message-says-why-it-waits.md).
 */
export function PlanReadFailed({
  feature,
  detail,
  brief = false,
  className,
  children,
}: {
  /** What the control there needs: one every member has waits on no read, and nothing is said. */
  feature: PlanFeature;
  detail: string;
  brief?: boolean;
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
  if (!tryAgain.error) return <>{children}</>;
  return brief ? (
    <div data-read-failed className={clsx('flex flex-wrap items-center gap-3', className)}>
      {tryAgain.offline ? (
        <OfflineWait className="flex items-center gap-2 text-sm text-fg-muted" iconClassName="h-4 w-4" />
      ) : (
        <p className="text-sm text-fg-muted">{detail}</p>
      )}
      <Button variant="secondary" size="sm" {...tryAgain.button}>
        Try again
      </Button>
    </div>
  ) : (
    <ReadFailed tryAgain={tryAgain} what="your plan" detail={detail} className={className} />
  );
}
