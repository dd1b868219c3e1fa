import { LoaderCircle, WifiOff } from 'lucide-react';
import { clsx } from 'clsx';
import { useOnline } from '@web/lib/online';

/** What a spinner waiting for the server's answer says while the browser is offline, its read paused until then. */
export const OFFLINE_WAIT_MESSAGE = 'You seem to be offline. This loads by itself once you are back online.';

/**
 * A spinner with a name for screen readers. One that `waitsForServer` (a page's or a list's data) says, while the
 * browser is offline, that it waits for the connection, rather than turning with no word until it is back.
 */
export function Spinner({
  label = 'Loading',
  className,
  waitsForServer = false,
}: {
  label?: string;
  className?: string;
  waitsForServer?: boolean;
}) {
  const online = useOnline();
  if (waitsForServer && !online)
    return (
      <p role="status" className={clsx('flex items-center justify-center gap-2 text-center text-fg-muted', className)}>
        <WifiOff aria-hidden className="h-5 w-5 shrink-0" />
        {OFFLINE_WAIT_MESSAGE}
      </p>
    );
  return (
    <span role="status" className={clsx('inline-flex items-center justify-center', className)}>
      <LoaderCircle aria-hidden className="h-6 w-6 animate-spin text-link" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
