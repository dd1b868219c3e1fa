import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { Check, Pencil, X } from 'lucide-react';
import { FIELD_BLANK, hasVisibleText } from '@shared/contract/plain';
import { Button } from '@web/components/ui/button';
import { FieldError, Input } from '@web/components/ui/input';

/**
 * Text with an edit button that turns it into a small form; Escape cancels. A required text saved
 * empty is refused in the form's words (the server's), not dropped; an optional one shows
 * `placeholder` while empty and can be cleared. The form is at least 12 rem wide: in a row that wraps
 * while it is open (`has-[form]:flex-wrap`), the row's other buttons go under it on a phone.
 * Saved or cancelled, the keyboard goes back to the edit button, not to the top of the page.
 */
export function InlineEdit({
  value,
  label,
  onSave,
  className,
  required = true,
  placeholder,
}: {
  value: string;
  label: string;
  onSave: (next: string) => Promise<unknown>;
  className?: string;
  required?: boolean;
  placeholder?: string;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const id = useId();
  const editButton = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const field = useRef<HTMLInputElement>(null);
  /** Set when the form closes with the keyboard in it, so the edit button takes it back. */
  const refocus = useRef(false);

  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    editButton.current?.focus();
  }, [editing]);

  const open = () => {
    setDraft(value);
    setError(undefined);
    setEditing(true);
  };
  const close = () => {
    const active = document.activeElement;
    refocus.current = active === null || active === document.body || form.current?.contains(active) === true;
    setError(undefined);
    setEditing(false);
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const next = draft.trim();
    if (next === value) return close();
    if (required && !hasVisibleText(next)) return setError(FIELD_BLANK);
    setBusy(true);
    try {
      await onSave(next);
      close();
    } catch {
      // The caller shows the error; keep the draft so it can be corrected, with the keyboard in it (Save, pressed,
      // was disabled meanwhile and let it go).
      if (document.activeElement === document.body) field.current?.focus();
    } finally {
      setBusy(false);
    }
  }
  if (!editing) {
    return (
      <div className="flex min-w-0 items-center gap-1">
        {/* A long word wraps (or is cut, with `truncate`) inside the row instead of widening it. */}
        <span className={clsx('min-w-0 wrap-anywhere', className)}>{value || placeholder}</span>
        <Button
          ref={editButton}
          variant="ghost"
          size="icon"
          className="shrink-0"
          aria-label={`Edit ${label}`}
          title={`Edit ${label}`}
          onClick={open}
        >
          <Pencil aria-hidden className="h-4 w-4" />
        </Button>
      </div>
    );
  }
  return (
    <form
      ref={form}
      onSubmit={(event) => void submit(event)}
      // Escape cancels from the field and from its buttons alike.
      onKeyDown={(event) => event.key === 'Escape' && !busy && (event.preventDefault(), close())}
      className="flex min-w-0 flex-1 basis-48 flex-col gap-1"
    >
      <div className="flex min-w-0 items-center gap-1">
        <Input
          ref={field}
          aria-label={label}
          value={draft}
          placeholder={placeholder}
          autoFocus
          // Read-only rather than disabled while it is sent: a disabled field loses the keyboard.
          readOnly={busy}
          aria-busy={busy || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => (setDraft(event.target.value), setError(undefined))}
          className="h-9"
        />
        <Button type="submit" variant="ghost" size="icon" aria-label="Save" disabled={busy}>
          <Check aria-hidden className="h-4 w-4" />
        </Button>
        <Button type="button" variant="ghost" size="icon" aria-label="Cancel" disabled={busy} onClick={close}>
          <X aria-hidden className="h-4 w-4" />
        </Button>
      </div>
      <FieldError id={id} error={error} />
    </form>
  );
}
