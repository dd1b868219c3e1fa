import { Slot } from '@radix-ui/react-slot';
import { clsx } from 'clsx';
import type { ComponentProps } from 'react';
import { whileBusy } from './busy';

// The looks live in styles.css (`.btn-*`, components layer), so a className passed here overrides them.
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

export type ButtonProps = ComponentProps<'button'> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  asChild?: boolean;
  /**
   * Its call runs: the button stays where it is with the keyboard on it, unavailable (aria-disabled, greyed, still
   * focusable: a disabled one drops the keyboard to the page's top), and a click on it, or Enter or Space, calls no
   * handler and sends no form (docs/decisions/107-the-program-editor-walked.md).
   */
  busy?: boolean;
};

export function Button({
  className,
  variant = 'primary',
  size = 'md',
  asChild,
  busy = false,
  onClick,
  'aria-disabled': unavailable,
  ...props
}: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return (
    <Component
      className={clsx('btn', `btn-${variant}`, `btn-${size}`, busy && 'cursor-wait', className)}
      {...whileBusy(busy, onClick, unavailable)}
      {...props}
    />
  );
}
