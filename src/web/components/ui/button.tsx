import { Slot } from '@radix-ui/react-slot';
import { clsx } from 'clsx';
import type { ComponentProps } from 'react';

// The looks live in styles.css (`.btn-*`, components layer), so a className passed here overrides them.
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

export type ButtonProps = ComponentProps<'button'> & { variant?: ButtonVariant; size?: ButtonSize; asChild?: boolean };

export function Button({ className, variant = 'primary', size = 'md', asChild, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return <Component className={clsx('btn', `btn-${variant}`, `btn-${size}`, className)} {...props} />;
}
