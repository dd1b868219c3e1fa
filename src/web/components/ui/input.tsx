import type { ComponentProps } from 'react';
import { cn } from '@web/lib/cn';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'h-11 w-full rounded-xl border border-[var(--border)] bg-[var(--bg-elevated)] px-4 text-[var(--fg)] placeholder:text-[var(--fg-muted)] aria-[invalid=true]:border-[var(--danger)] disabled:opacity-70',
        className,
      )}
      {...props}
    />
  );
}

/** A labelled input with its error under it, announced and tied to the input. */
export function Field({
  id,
  label,
  error,
  className,
  ...props
}: ComponentProps<'input'> & { id: string; label: string; error?: string | undefined }) {
  const errorId = `${id}-error`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...props} />
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-[var(--danger)]">
          {error}
        </p>
      ) : null}
    </div>
  );
}
