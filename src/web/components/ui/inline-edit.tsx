import { useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { Check, Pencil, X } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';

/** Text with an edit button that turns it into a small form; Escape cancels. */
export function InlineEdit({
  value,
  label,
  onSave,
  className,
}: {
  value: string;
  label: string;
  onSave: (next: string) => Promise<unknown>;
  className?: string;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!draft.trim() || draft.trim() === value) return setEditing(false);
    setBusy(true);
    try {
      await onSave(draft.trim());
      setEditing(false);
    } catch {
      // The caller shows the error; keep the draft so it can be corrected.
    } finally {
      setBusy(false);
    }
  }
  if (!editing) {
    return (
      <div className="flex min-w-0 items-center gap-1">
        {/* A long word wraps (or is cut, with `truncate`) inside the row instead of widening it. */}
        <span className={clsx('min-w-0 wrap-anywhere', className)}>{value}</span>
        <Button
          variant="ghost"
          size="icon"
          className="shrink-0"
          aria-label={`Edit ${label}`}
          title={`Edit ${label}`}
          onClick={() => (setDraft(value), setEditing(true))}
        >
          <Pencil aria-hidden className="h-4 w-4" />
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="flex min-w-0 flex-1 items-center gap-1">
      <Input
        aria-label={label}
        value={draft}
        autoFocus
        disabled={busy}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && setEditing(false)}
        className="h-9"
      />
      <Button type="submit" variant="ghost" size="icon" aria-label="Save" disabled={busy}>
        <Check aria-hidden className="h-4 w-4" />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label="Cancel"
        disabled={busy}
        onClick={() => setEditing(false)}
      >
        <X aria-hidden className="h-4 w-4" />
      </Button>
    </form>
  );
}
