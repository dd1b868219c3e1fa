import type { ComponentProps, ReactNode } from 'react';
import { clsx } from 'clsx';
import { whileBusy } from './busy';

/**
 * What ties a control to its error (and hint): `aria-invalid` while it has one, and `aria-describedby`
 * naming the hint and the error under it. Every field of a form takes these, inputs, checkboxes and selects alike.
 */
export function describedBy(id: string, error: string | undefined, hint?: boolean) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined } as const;
}

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    // `.input` lives in styles.css (components layer), so a className passed here overrides it.
    <input className={clsx('input', className)} {...props} />
  );
}

/**
 * A field's error under it; the field points at it with aria-describedby `${id}-error` and is `aria-invalid`. It is
 * read with the field when the keyboard lands there: a refused submit puts it on the first such field
 * (`useFocusFirstError`, lib/form-field.ts), so the error is not announced as well. One that comes while the person
 * stays where they are (a character refused as it is typed, a picture refused as it is picked, a text changed
 * meanwhile) or that no field carries is `announce`d as it appears
 * (docs/decisions/071-a-form-speaks-once-and-sends-once.md).
 */
export function FieldError({
  id,
  error,
  announce = false,
}: {
  id: string;
  error: string | undefined;
  announce?: boolean;
}) {
  return error ? (
    <p id={`${id}-error`} role={announce ? 'alert' : undefined} className="text-sm text-danger">
      {error}
    </p>
  ) : null;
}

/** A labelled input with its error under it, tied to the input. */
export function Field({
  id,
  label,
  error,
  className,
  ...props
}: ComponentProps<'input'> & { id: string; label: string; error?: string | undefined }) {
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <Input id={id} {...describedBy(id, error)} {...props} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A labelled multi-line input with its error under it, tied to it. */
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
      <textarea id={id} rows={3} {...describedBy(id, error)} className="input h-auto py-2" {...props} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/**
 * A checkbox with its label beside it, an optional hint under it, and its error under that, tied to the checkbox as
 * a Field's is to its input. The label holds the checkbox, so a press anywhere on the row ticks it: 44 px tall on a
 * touch screen, where the 20 px box alone missed a finger (decision 086).
 */
export function CheckboxField({
  id,
  label,
  hint,
  error,
  className,
  busy = false,
  onClick,
  onChange,
  'aria-disabled': unavailable,
  ...props
}: Omit<ComponentProps<'input'>, 'type'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /**
   * Its call runs: the box keeps its tick and the keyboard, unavailable, and a click or Space changes nothing, as
   * `Button`'s `busy` (docs/decisions/119-a-lists-try-again-keeps-the-keyboard.md).
   */
  busy?: boolean;
}) {
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label
        htmlFor={id}
        className="flex cursor-pointer items-start gap-3 text-sm pointer-coarse:min-h-11 pointer-coarse:items-center"
      >
        {/* The 20 px box in the label's first 20 px line, on its middle: 2 px lower it sat off a row's middle line. */}
        <input
          id={id}
          type="checkbox"
          className={clsx('h-5 w-5 shrink-0 accent-accent', busy ? 'cursor-wait opacity-50' : 'cursor-pointer')}
          {...describedBy(id, error, hint !== undefined)}
          {...whileBusy(busy, onClick, unavailable)}
          // React reads a box's change from its click, before the click's handler can cancel it: not passed on.
          onChange={busy ? () => undefined : onChange}
          {...props}
        />
        <span>{label}</span>
      </label>
      {hint !== undefined ? (
        <p id={`${id}-hint`} className="pl-8 text-xs text-fg-muted">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}
