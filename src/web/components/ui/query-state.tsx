import { useEffect, useState, type FocusEvent, type MouseEvent, type ReactNode } from 'react';
import { AlertTriangle, Inbox, WifiOff } from 'lucide-react';
import { clsx } from 'clsx';
import { ApiError } from '@web/lib/api-client';
import { keyboardToWhatReplacesOnceGone } from '@web/lib/keyboard-after-removal';
import { useOnline } from '@web/lib/online';
import { Button } from './button';
import { OFFLINE_WAIT_MESSAGE, Spinner } from './spinner';

/** The message box a "Try again" stands in: what takes its place gets the keyboard once it goes. */
const READ_FAILED = '[role="alert"], [data-read-failed]';

/**
 * A "Try again" that stays while its read runs. A query read again with nothing read before is pending again (TanStack
 * Query clears its error), so a page that showed its spinner then took the message and its button away, and the
 * keyboard fell to the page's top. Here the error pressed stays shown (`error`) and the button `busy` until the read
 * answers: failed again, the same button shows the new error with the keyboard still on it; read, what replaces the
 * message takes the keyboard, its first control or the page's heading
 * (docs/decisions/119-a-lists-try-again-keeps-the-keyboard.md). `button` is the button's props; its element must sit
 * in the message's box, `role="alert"` or (a quiet line) `data-read-failed`. While it waits with the browser offline (the read paused until the connection is
 * back, when it runs by itself), `offline` says so, and the message shows `OFFLINE_WAIT_MESSAGE` in its place
 * (docs/decisions/125-a-try-again-offline-says-so.md).
 */
export function useTryAgain({
  isPending,
  error,
  onRetry,
}: {
  isPending: boolean;
  error: Error | null;
  onRetry: () => void;
}): {
  error: Error | null;
  busy: boolean;
  offline: boolean;
  /** The props of the message's "Try again" button. */
  button: {
    onClick: (event: MouseEvent<HTMLElement>) => void;
    onFocus: (event: FocusEvent<HTMLElement>) => void;
    busy: boolean;
  };
} {
  const online = useOnline();
  const [pressed, setPressed] = useState<{ error: Error; handOver: () => void } | null>(null);
  // The hand-over of the press last answered, run once after the render that took the message away, if it did.
  const [answered, setAnswered] = useState<(() => void) | null>(null);
  // The error last shown with no press waiting, and the button that last had the keyboard: a read that starts by
  // itself (TanStack Query reads again once the browser is back online) with the keyboard on that button holds the
  // message as a press does and hands the keyboard over the same way, where it fell to the page's top with the button
  // (docs/decisions/131-a-hand-over-waits-for-the-answer.md).
  const [shown, setShown] = useState(error);
  const [focused, setFocused] = useState<HTMLElement | null>(null);
  if (!pressed && error !== shown) {
    setShown(error);
    // Read now, in the render before the message goes, while the button still has the keyboard.
    if (shown && !error && focused && document.activeElement === focused) {
      const handOver = keyboardToWhatReplacesOnceGone(focused, focused.closest(READ_FAILED));
      // Under way (nothing read before): held as a press. Answered (a list read before): handed over at once.
      if (isPending) setPressed({ error: shown, handOver });
      else setAnswered(() => handOver);
    }
  }
  // Answered once the query holds another error, or none and is no longer pending (only a read cancelled would put
  // the same error back, and the app cancels none).
  const waiting = pressed !== null && (isPending || error === pressed.error);
  if (pressed && !waiting) {
    setPressed(null);
    setShown(error);
    setAnswered(() => pressed.handOver);
  }
  useEffect(() => answered?.(), [answered]);
  return {
    error: waiting ? pressed.error : error,
    busy: waiting,
    offline: waiting && !online,
    button: {
      onClick(event) {
        if (!error) return;
        const control = event.currentTarget;
        // Where the message stands is read now, while it is on the page.
        setPressed({ error, handOver: keyboardToWhatReplacesOnceGone(control, control.closest(READ_FAILED)) });
        onRetry();
      },
      onFocus: (event) => setFocused(event.currentTarget),
      busy: waiting,
    },
  };
}

/**
 * What a Try again pressed offline says while it waits (docs/decisions/125-a-try-again-offline-says-so.md): the Wi-Fi-off
 * icon, muted, beside or over the words, and no red, since nothing failed
 * (docs/decisions/136-each-undo-keeps-its-own-toast-a-wait-offline-is-not-red.md). `className` lays the two out.
 */
export function OfflineWait({ className, iconClassName = 'h-6 w-6' }: { className?: string; iconClassName?: string }) {
  return (
    <div className={className}>
      <WifiOff aria-hidden className={clsx('shrink-0 text-fg-muted', iconClassName)} />
      <p>{OFFLINE_WAIT_MESSAGE}</p>
    </div>
  );
}

/**
 * A read that failed, as the lists say it: "Could not load {what}: …" (or, waiting offline, that it waits) with the
 * "Try again" of `useTryAgain`, busy while the read runs again. `detail`, under it, says what waits on the read.
 */
export function ReadFailed({
  tryAgain,
  what,
  detail,
  className,
}: {
  tryAgain: ReturnType<typeof useTryAgain>;
  what: string;
  detail?: ReactNode;
  className?: string;
}) {
  if (!tryAgain.error) return null;
  return (
    <div
      role="alert"
      className={clsx('flex flex-col items-center gap-3 rounded-2xl border border-line p-8 text-center', className)}
    >
      {tryAgain.offline ? (
        <OfflineWait className="contents" />
      ) : (
        <>
          <AlertTriangle aria-hidden className="h-6 w-6 text-danger" />
          <p>
            Could not load {what}: {tryAgain.error.message}
          </p>
        </>
      )}
      {detail ? <p className="text-sm text-fg-muted">{detail}</p> : null}
      <Button variant="secondary" size="sm" {...tryAgain.button}>
        Try again
      </Button>
    </div>
  );
}

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
  const tryAgain = useTryAgain({ isPending, error, onRetry });
  if (isPending && !tryAgain.busy) {
    return (
      <div className="flex justify-center py-12">
        <Spinner waitsForServer label="Loading" />
      </div>
    );
  }
  const shown = tryAgain.error;
  if (notFound !== undefined && shown instanceof ApiError && shown.status === 404) return <>{notFound}</>;
  if (shown) return <ReadFailed tryAgain={tryAgain} what={what} />;
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
