import type { ComponentProps } from 'react';
import { clsx } from 'clsx';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    // `.input` lives in styles.css (components layer), so a className passed here overrides it.
    <input className={clsx('input', className)} {...props} />
  );
}

/** A field's error under it, announced; the field points at it with aria-describedby `${id}-error`. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} role="alert" className="text-sm text-danger">
      {error}
    </p>
  ) : null;
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
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...props}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A labelled multi-line input with its error under it, announced and tied to it. */
export function Textarea({
  id,
  label,
  error,
  className,
  ...props
}: ComponentProps<'textarea'> & { id: string; label: string; error?: string | undefined }) {
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="input h-auto py-2"
        {...props}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}
