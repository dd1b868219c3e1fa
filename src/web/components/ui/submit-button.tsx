import type { ReactNode } from 'react';
import { clsx } from 'clsx';
import { LoaderCircle } from 'lucide-react';
import { useHydrated } from '@web/lib/use-hydrated';
import { Button, type ButtonProps } from './button';

/**
 * A form's submit button. While its request runs it stays in place, as wide as it was and with the keyboard on it:
 * a spinner covers its text, it is busy (Button's `busy`: aria-disabled, still focusable) and a click on it or Enter
 * in a field sends nothing more, the form's one field included (docs/decisions/071-a-form-speaks-once-and-sends-once.md).
 */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
  className,
  disabled,
  ...props
}: Omit<ButtonProps, 'type' | 'children' | 'busy'> & {
  pending: boolean;
  /** Said to a screen reader while the request runs ("Sending the link"). */
  pendingLabel: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <>
      <Button
        type="submit"
        // Disabled in a pre-rendered page's HTML: the browser must not send the form itself (a GET with the
        // password in the URL) before the script is there to send it.
        disabled={disabled || !hydrated}
        // Enter in a field clicks the form's submit button: a busy button cancels that click, so nothing is sent again.
        busy={pending}
        className={clsx('relative', className)}
        {...props}
      >
        {/* Hidden but kept, the text holds the button's width and name while the spinner turns over it. */}
        <span className={clsx('inline-flex items-center gap-2', pending && 'opacity-0')}>{children}</span>
        {pending ? <LoaderCircle aria-hidden className="absolute inset-0 m-auto h-5 w-5 animate-spin" /> : null}
      </Button>
      {/* Outside the button, whose content a screen reader reads as its name only. */}
      <span role="status" className="sr-only">
        {pending ? pendingLabel : ''}
      </span>
    </>
  );
}
