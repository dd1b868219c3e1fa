import { useSyncExternalStore } from 'react';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';

const noSubscription = () => () => {};

/**
 * Whether React runs the page: false in a pre-rendered page's HTML and while it hydrates, so its
 * form cannot be sent by the browser itself (a GET with the password in the URL) before the
 * script is there to send it.
 */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

/** The form's submit button; while the request runs a spinner takes its place. */
export function SubmitButton({
  pending,
  children,
  pendingLabel,
}: {
  pending: boolean;
  children: string;
  pendingLabel: string;
}) {
  const hydrated = useHydrated();
  if (pending) {
    return (
      <div className="flex h-11 items-center justify-center">
        <Spinner label={pendingLabel} />
      </div>
    );
  }
  return (
    <Button type="submit" className="w-full" disabled={!hydrated}>
      {children}
    </Button>
  );
}
