import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { Check, X } from 'lucide-react';
import { typedTextRefusal, FIELD_BLANK, hasVisibleText } from '@shared/contract/plain';
import { Button } from '@web/components/ui/button';
import { CharacterCount, characterLimit } from '@web/components/ui/character-count';
import { FieldError, Input } from '@web/components/ui/input';

/** Said under the field when the text changed elsewhere while it was being edited here. */
export const changedMeanwhile = (now: string) =>
  `Changed meanwhile, in another tab or on another device: it now reads “${now}”. Save to put yours in its place, or Cancel to keep it.`;

/**
 * Text with an edit button that turns it into a small form; Escape cancels. A required text saved
 * empty is refused in the form's words (the server's), not dropped; an optional one shows
 * `placeholder` while empty and can be cleared. The form is at least 12 rem wide: in a row that wraps
 * while it is open (`has-[form]:flex-wrap`), the row's other buttons go under it on a phone.
 *
 * `onSave` hears the text the edit began from too, so a server can refuse an edit of something changed
 * meanwhile. Should the value change while the form is open (the list read again: another tab's save, or
 * the answer to such a refusal), the form keeps what was typed, says what it reads now, and a Save then
 * replaces that. Saved or cancelled, the keyboard goes back to the edit button, not to the top of the page.
 * A `typed` text (decision 063's) holding a direction control inside is refused at the field, in the server's words.
 */
export function InlineEdit({
  value,
  label,
  onSave,
  className,
  required = true,
  placeholder,
  max,
  typed = false,
  buttonUnderOnPhone = false,
  onCancel,
}: {
  value: string;
  label: string;
  onSave: (next: string, from: string) => Promise<unknown>;
  /** Told when the form is closed unsaved (Cancel or Escape), e.g. to take away what a refused save said. */
  onCancel?: () => void;
  className?: string;
  required?: boolean;
  placeholder?: string;
  /** The most characters the server takes: counted near it, and a longer text refused here, uncut. */
  max?: number;
  /**
   * A text a person types that the server reads with `typedText()` (docs/decisions/063-typed-text-shows-what-it-holds.md):
   * a direction control inside is said at the field as it is typed or pasted, and not sent.
   */
  typed?: boolean;
  /**
   * In a row whose buttons go under its text on a phone (staff's messages and category names): the edit button
   * goes with them, and the text takes the row's whole width rather than a column beside four buttons.
   */
  buttonUnderOnPhone?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  /** The text the edit began from, or the one it was told of since. */
  const [from, setFrom] = useState(value);
  /** The text being sent, while it is. */
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const [seen, setSeen] = useState(value);
  const id = useId();
  const editButton = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const field = useRef<HTMLInputElement>(null);
  /** Set when the form closes with the keyboard in it, so the edit button takes it back. */
  const refocus = useRef(false);
  const busy = sending !== null;
  const limit = max === undefined ? undefined : characterLimit(id, draft, max);
  const refused = typed ? typedTextRefusal(draft) : undefined;
  const shownError = refused ?? error;

  // A new value while the form is open, other than the text being saved: changed elsewhere meanwhile.
  if (value !== seen) {
    setSeen(value);
    if (editing && value !== from && value !== sending) {
      setFrom(value);
      setError(changedMeanwhile(value));
    }
  }

  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    editButton.current?.focus();
  }, [editing]);

  const open = () => {
    setDraft(value);
    setFrom(value);
    setError(undefined);
    setEditing(true);
  };
  const close = () => {
    const active = document.activeElement;
    refocus.current = active === null || active === document.body || form.current?.contains(active) === true;
    setError(undefined);
    setEditing(false);
  };
  const cancel = () => {
    close();
    onCancel?.();
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const next = draft.trim();
    if (next === from) return cancel();
    if (required && !hasVisibleText(next)) return setError(FIELD_BLANK);
    // Said under the field already; the keyboard stays there to put it right.
    if (refused || limit?.over) return field.current?.focus();
    setSending(next);
    try {
      await onSave(next, from);
      close();
    } catch {
      // The caller shows the error; keep the draft so it can be corrected, with the keyboard in it (Save, pressed,
      // was disabled meanwhile and let it go).
      if (document.activeElement === document.body) field.current?.focus();
    } finally {
      setSending(null);
    }
  }
  if (!editing) {
    return (
      // With buttonUnderOnPhone the box is no box on a phone (`contents`): the text and the button are the row's
      // own items, the text a line of its own and the button on the next with the row's others.
      <div className={clsx('flex min-w-0 items-center gap-1', buttonUnderOnPhone && 'max-sm:contents')}>
        {/* A long word wraps (or is cut, with `truncate`) inside the row instead of widening it. */}
        {/* dir="auto": a person's text keeps to its own box (docs/decisions/064-a-typed-text-shown-stays-in-its-own-box.md). */}
        <span
          dir="auto"
          className={clsx('min-w-0 wrap-anywhere', buttonUnderOnPhone && 'max-sm:basis-full', className)}
        >
          {value || placeholder}
        </span>
        {/* Its icon is drawn by CSS (icon-pencil): a long list has one of these a row. */}
        <Button
          ref={editButton}
          variant="ghost"
          size="icon"
          className="icon-pencil shrink-0"
          aria-label={`Edit ${label}`}
          title={`Edit ${label}`}
          onClick={open}
        />
      </div>
    );
  }
  return (
    <form
      ref={form}
      onSubmit={(event) => void submit(event)}
      // Escape cancels from the field and from its buttons alike.
      onKeyDown={(event) => event.key === 'Escape' && !busy && (event.preventDefault(), cancel())}
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
          aria-invalid={shownError || limit?.over ? true : undefined}
          aria-describedby={
            [shownError ? `${id}-error` : '', limit?.describedBy ?? ''].filter(Boolean).join(' ') || undefined
          }
          onChange={(event) => {
            setDraft(event.target.value);
            // What it reads now stays said until the edit is saved or cancelled.
            if (error === FIELD_BLANK) setError(undefined);
          }}
          className="h-9"
        />
        <Button type="submit" variant="ghost" size="icon" aria-label="Save" disabled={busy}>
          <Check aria-hidden className="h-4 w-4" />
        </Button>
        <Button type="button" variant="ghost" size="icon" aria-label="Cancel" disabled={busy} onClick={cancel}>
          <X aria-hidden className="h-4 w-4" />
        </Button>
      </div>
      <FieldError id={id} error={shownError} />
      {limit && max !== undefined ? <CharacterCount id={id} limit={limit} max={max} /> : null}
    </form>
  );
}
