import type { ComponentProps } from 'react';
import { clsx } from 'clsx';
import { FieldError, describedBy } from '@web/components/ui/input';

/** A labelled file input with its hint and error. */
export function FileField({
  id,
  label,
  hint,
  error,
  className,
  ...props
}: ComponentProps<'input'> & { id: string; label: string; hint?: string; error?: string | undefined }) {
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="file"
        {...describedBy(id, error, hint !== undefined)}
        // 44 px tall, as the text fields beside it (`.input`): at p-2 it stood 6 px taller than "Name" and "Version".
        className="h-11 rounded-xl border border-line bg-surface-raised px-1.5 py-[5px] text-sm file:mr-3 file:rounded-full file:border-0 file:bg-accent/15 file:px-4 file:py-1.5 file:text-sm file:font-medium file:text-fg aria-[invalid=true]:border-danger"
        {...props}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}
