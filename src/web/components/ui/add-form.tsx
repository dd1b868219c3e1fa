import { useId, useRef, useState, type FormEvent } from 'react';
import { Plus } from 'lucide-react';
import { typedTextRefusal } from '@shared/contract/plain';
import { dropDraft, keepDraft, keptDraft } from '@web/lib/form-draft';
import { Button } from './button';
import { CharacterCount, characterLimit } from './character-count';
import { DraftBack } from './draft-back';
import { FieldError, Input } from './input';

/** The text of an AddForm's draft, if it is one. */
const textOf = (kept: Record<string, unknown>) => (typeof kept.text === 'string' ? kept.text : null);

/**
 * One field and its button (Add, unless told); the text stays when adding fails (the caller reports why). The
 * keyboard stays in the field, so the next one is typed at once, as a list is written. A `typed` text (decision
 * 063's) holding a direction control inside is refused at the field, in the server's words, and not sent. With
 * `draft` (a name, unique to the form and what it adds to) the text is kept as it is typed (lib/form-draft.ts) and
 * given back, so said, should the session end before it is added.
 */
export function AddForm({
  label,
  action,
  placeholder,
  submitText = 'Add',
  max,
  typed = false,
  draft,
  onAdd,
}: {
  label: string;
  /** The button's visible text; "Add" (with a plus) unless told. */
  submitText?: string;
  /** The button's accessible name: one "Add" per category would be ambiguous to a screen reader. */
  action: string;
  placeholder: string;
  /** The most characters the server takes: counted near it, and a longer text refused here, uncut. */
  max?: number;
  /** A text the server reads with `typedText()` (docs/decisions/063-typed-text-shows-what-it-holds.md). */
  typed?: boolean;
  /** The name its draft is kept under, for a text worth keeping (docs/decisions/068-forms-that-keep-what-was-typed.md). */
  draft?: string;
  onAdd: (text: string) => Promise<unknown>;
}) {
  const [kept] = useState(() => (draft === undefined ? null : keptDraft(draft, textOf)));
  const [text, setText] = useState(kept ?? '');
  const [fromDraft, setFromDraft] = useState(kept !== null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  const limit = max === undefined ? undefined : characterLimit(id, text, max);
  const refused = typed ? typedTextRefusal(text) : undefined;
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !text.trim()) return;
    // Said under the field already; the keyboard stays there to put it right.
    if (refused || limit?.over) return field.current?.focus();
    setBusy(true);
    try {
      await onAdd(text.trim());
      setText('');
      if (draft !== undefined) dropDraft(draft);
      setFromDraft(false);
      // Add, pressed, kept the keyboard while it waited (busy) and is unavailable now with the field empty: the
      // keyboard goes back to the field, where the next one is typed.
      if (document.activeElement === addButton.current) field.current?.focus();
    } catch {
      // Reported by the caller; the text stays for another try, the keyboard where it was.
    } finally {
      setBusy(false);
      if (document.activeElement === document.body) field.current?.focus();
    }
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-1">
      <div className="flex gap-2">
        <Input
          ref={field}
          aria-label={label}
          placeholder={placeholder}
          value={text}
          // Read-only rather than disabled while it is sent: a disabled field loses the keyboard.
          readOnly={busy}
          aria-busy={busy || undefined}
          aria-invalid={refused || limit?.over ? true : undefined}
          aria-describedby={
            [fromDraft ? `${id}-draft` : '', refused ? `${id}-error` : '', limit?.describedBy ?? '']
              .filter(Boolean)
              .join(' ') || undefined
          }
          onChange={(event) => {
            const next = event.target.value;
            setText(next);
            if (draft !== undefined) {
              if (next.trim()) keepDraft(draft, { text: next });
              else dropDraft(draft);
            }
          }}
          // 44 px on a touch screen, as every button there (styles.css, `.btn`); the button keeps the field's height.
          className="h-10 pointer-coarse:h-11"
        />
        <Button
          type="submit"
          size="sm"
          className="h-10 shrink-0 pointer-coarse:h-11"
          ref={addButton}
          busy={busy}
          // Unavailable, not busy, with nothing typed.
          disabled={!busy && !text.trim()}
          aria-label={action}
        >
          {submitText === 'Add' ? <Plus aria-hidden className="h-4 w-4" /> : null}
          {submitText}
        </Button>
      </div>
      {fromDraft ? <DraftBack id={`${id}-draft`} compact /> : null}
      <FieldError id={id} error={refused} announce />
      {limit && max !== undefined ? <CharacterCount id={id} limit={limit} max={max} /> : null}
    </form>
  );
}
