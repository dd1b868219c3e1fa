import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { Check, X } from 'lucide-react';
import { typedTextRefusal, FIELD_BLANK, hasVisibleText } from '@shared/contract/plain';
import { Button } from '@web/components/ui/button';
import { CharacterCount, characterLimit } from '@web/components/ui/character-count';
import { DraftBack } from '@web/components/ui/draft-back';
import { FieldError } from '@web/components/ui/input';
import { useFitsItsText } from '@web/lib/use-fits-its-text';
import { dropDraft, keepDraft, keptDraft } from '@web/lib/form-draft';

/** Said under the field when the text changed elsewhere while it was being edited here. */
export const changedMeanwhile = (now: string) =>
  `Changed meanwhile, in another tab or on another device: it now reads “${now}”. Save to put yours in its place, or Cancel to keep it.`;

/**
 * An InlineEdit's draft: the text typed and the one its edit began from; `changed` once the form has said that text
 * was changed meanwhile (a save refused, the list read again), so that given back it says so again (decision 096).
 */
interface EditDraft {
  text: string;
  from: string;
  changed?: true;
}
const editDraftOf = (kept: Record<string, unknown>): EditDraft | null =>
  typeof kept.text === 'string' && typeof kept.from === 'string'
    ? { text: kept.text, from: kept.from, ...(kept.changed === true && { changed: true }) }
    : null;

/** A line break typed or pasted into a one-line text: a space, as the words it separated stay apart. */
const LINE_BREAKS = /\r\n?|\n/g;

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
 * The field shows the whole text as it wraps (a long message, a long word), growing line by line: a one-line text
 * all the same, so Enter saves and a line break pasted is a space.
 *
 * With `draft` (a name, unique to the item edited) what is typed is kept with the text it began from
 * (lib/form-draft.ts): should the session end before it is saved, the form is open again with it once the person is
 * back, saying so; if the item reads otherwise by then, the form says that too, as for a change made meanwhile.
 * Saved or cancelled, the draft goes.
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
  draft: draftName,
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
  /** The name its draft is kept under, for a text worth keeping (docs/decisions/068-forms-that-keep-what-was-typed.md). */
  draft?: string;
}) {
  const [kept] = useState(() => {
    if (draftName === undefined) return null;
    const found = keptDraft(draftName, editDraftOf);
    // What it reads already (saved after all, or the same words written elsewhere): nothing to give back.
    if (found === null || found.text.trim() !== value) return found;
    dropDraft(draftName);
    return null;
  });
  const [editing, setEditing] = useState(kept !== null);
  const [draft, setDraft] = useState(kept?.text ?? value);
  /** The text the edit began from, or the one it was told of since. */
  const [from, setFrom] = useState(value);
  /** The text being sent, while it is. */
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>(
    kept && (kept.from !== value || kept.changed) ? changedMeanwhile(value) : undefined,
  );
  /** Whether the form holds a draft given back, until it is saved or cancelled. */
  const [fromDraft, setFromDraft] = useState(kept !== null);
  const [seen, setSeen] = useState(value);
  const field = useFitsItsText(draft, editing);
  const id = useId();
  const editButton = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  /** Set when the form closes with the keyboard in it, so the edit button takes it back. */
  const refocus = useRef(false);
  const busy = sending !== null;
  const limit = max === undefined ? undefined : characterLimit(id, draft, max);
  // The text as it is stored is not refused (one stored before 063's rule, opened and not touched): only a text typed
  // anew is (docs/decisions/133-an-undo-keeps-to-the-limits-an-old-name-updates-offline-reads-as-waiting.md).
  const refused = typed ? typedTextRefusal(draft, value) : undefined;
  const shownError = refused ?? error;

  // A new value while the form is open, other than the text being saved: changed elsewhere meanwhile.
  if (value !== seen) {
    setSeen(value);
    if (editing && value !== from && value !== sending) {
      setFrom(value);
      setError(changedMeanwhile(value));
      keep(draft, value, true);
    }
  }

  // Opened, the caret is at the text's end, where an edit of a long text usually goes on.
  useLayoutEffect(() => {
    const node = field.current;
    if (editing && node) node.setSelectionRange(node.value.length, node.value.length);
  }, [editing, field]);

  // In the commit that closes the form, not an effect after it: a key pressed in between went to the page's body.
  useLayoutEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    editButton.current?.focus();
  }, [editing]);

  // Kept while it differs from the text it began from; the same text is nothing to keep. `changed`: the form says
  // the text was changed meanwhile.
  function keep(text: string, begunFrom: string, changed: boolean) {
    if (draftName === undefined) return;
    if (text.trim() === begunFrom) dropDraft(draftName);
    else keepDraft(draftName, { text, from: begunFrom, ...(changed && { changed }) });
  }

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
    setFromDraft(false);
    if (draftName !== undefined) dropDraft(draftName);
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
      // The caller shows the error; the draft stays to be corrected, the keyboard where it was (the field, or Save,
      // busy meanwhile: decision 107), or in the field when it was nowhere.
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
        {/* A long word wraps inside the row instead of widening it: a name is never cut (docs/decisions/079-a-phone-shows-the-whole-text.md). */}
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
      {/* The buttons at the field's first line, however many lines it grows to. */}
      <div className="flex min-w-0 items-start gap-1">
        {/* A textarea so that a long text shows whole; one line of text, so its lines are only the wrapping's. */}
        <textarea
          ref={field}
          aria-label={label}
          aria-multiline={false}
          rows={1}
          value={draft}
          placeholder={placeholder}
          // A draft given back on the page's load leaves the keyboard where the page puts it.
          autoFocus={!fromDraft}
          // Read-only rather than disabled while it is sent: a disabled field loses the keyboard.
          readOnly={busy}
          aria-busy={busy || undefined}
          aria-invalid={shownError || limit?.over ? true : undefined}
          aria-describedby={
            [fromDraft ? `${id}-draft` : '', shownError ? `${id}-error` : '', limit?.describedBy ?? '']
              .filter(Boolean)
              .join(' ') || undefined
          }
          onKeyDown={(event) => {
            // Enter saves, as in the one-line field it is (not while an input method composes a character).
            if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
            event.preventDefault();
            form.current?.requestSubmit();
          }}
          onChange={(event) => {
            const next = event.target.value.replace(LINE_BREAKS, ' ');
            setDraft(next);
            keep(next, from, error === changedMeanwhile(from));
            // What it reads now stays said until the edit is saved or cancelled.
            if (error === FIELD_BLANK) setError(undefined);
          }}
          // The look of the one-line field it was: 36 px for one line (24 px of text, 5 px above and below); 44 px
          // on a touch screen, for a finger (decision 121).
          className="input h-9 max-h-[60vh] resize-none overflow-y-hidden py-[5px] leading-6 pointer-coarse:h-11 pointer-coarse:py-[9px]"
        />
        {/* On a touch screen the two keep their 40 px beside a field that would squeeze them: narrower, each one's
            area (44 px round it) reached over the field and the other (decision 123). */}
        <Button
          type="submit"
          variant="ghost"
          size="icon"
          aria-label="Save"
          busy={busy}
          className="pointer-coarse:shrink-0"
        >
          <Check aria-hidden className="h-4 w-4" />
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          aria-label="Cancel"
          busy={busy}
          onClick={cancel}
          className="pointer-coarse:shrink-0"
        >
          <X aria-hidden className="h-4 w-4" />
        </Button>
      </div>
      {fromDraft ? <DraftBack id={`${id}-draft`} compact /> : null}
      <FieldError id={id} error={shownError} announce />
      {limit && max !== undefined ? <CharacterCount id={id} limit={limit} max={max} /> : null}
    </form>
  );
}
