import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';

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
  if (pending) {
    return (
      <div className="flex h-11 items-center justify-center">
        <Spinner label={pendingLabel} />
      </div>
    );
  }
  return (
    <Button type="submit" className="w-full">
      {children}
    </Button>
  );
}
