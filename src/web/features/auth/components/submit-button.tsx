import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { useHydrated } from '@web/lib/use-hydrated';

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
  // Disabled in the pre-rendered HTML: the browser must not send the form itself (a GET with the
  // password in the URL) before the script is there to send it.
  return (
    <Button type="submit" className="w-full" disabled={!hydrated}>
      {children}
    </Button>
  );
}
