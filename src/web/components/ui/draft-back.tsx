import { clsx } from 'clsx';

/** Said on a form whose text was given back from its draft (lib/form-draft.ts), until it is sent or cancelled. */
export const DRAFT_BACK = 'What you wrote before is back. It has not been sent yet.';

/** The line saying a form holds what the person typed before (a session that ended, a reload), not yet sent. */
export function DraftBack({ id, compact = false }: { id?: string; compact?: boolean }) {
  return (
    <p
      id={id}
      className={clsx('rounded-2xl border border-line bg-accent/10', compact ? 'px-3 py-1.5 text-xs' : 'p-3 text-sm')}
    >
      {DRAFT_BACK}
    </p>
  );
}
