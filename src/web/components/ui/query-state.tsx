import type { ReactNode } from 'react';
import { AlertTriangle, Inbox } from 'lucide-react';
import { ApiError } from '@web/lib/api-client';
import { Button } from './button';
import { Spinner } from './spinner';

/**
 * Loading, error (with retry) and empty states shared by the lists of the portal and the admin. A screen
 * of one thing read by its id or slug gives `notFound`, shown when the API answers 404: asking again
 * cannot find what is not there, so it says so and offers a way on instead of "Try again".
 */
export function QueryState({
  isPending,
  error,
  isEmpty,
  emptyText,
  onRetry,
  notFound,
  what = 'this list',
  children,
}: {
  isPending: boolean;
  error: Error | null;
  isEmpty: boolean;
  emptyText: string;
  onRetry: () => void;
  notFound?: ReactNode;
  /** What failed to load, as the error says it: "Could not load {what}: …". */
  what?: string;
  children: ReactNode;
}) {
  if (isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner waitsForServer label="Loading" />
      </div>
    );
  }
  if (notFound !== undefined && error instanceof ApiError && error.status === 404) return <>{notFound}</>;
  if (error) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-line p-8 text-center">
        <AlertTriangle aria-hidden className="h-6 w-6 text-danger" />
        <p>
          Could not load {what}: {error.message}
        </p>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  if (isEmpty) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-line p-8 text-center text-fg-muted">
        <Inbox aria-hidden className="h-6 w-6" />
        <p>{emptyText}</p>
      </div>
    );
  }
  return <>{children}</>;
}
