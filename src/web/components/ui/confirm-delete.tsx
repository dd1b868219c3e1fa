import { useRef, useState, type ReactNode } from 'react';
import { clsx } from 'clsx';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import { keyboardToNeighbourOnceGone, keyboardToOnceGone } from '@web/lib/keyboard-after-removal';

export type ConfirmText = {
  title: ReactNode;
  description: ReactNode;
  onConfirm: () => Promise<unknown>;
  /** The confirming button's words, and while it runs ("Deactivate", "Deactivating…"); a delete's by default. */
  action?: string;
  doing?: string;
};

/** The asking dialog's content; the dialog stays open (and busy) until the delete finishes. */
function ConfirmDeleteContent({
  title,
  description,
  onConfirm,
  action = 'Delete',
  doing = 'Deleting…',
  onDone,
  busy,
  setBusy,
}: ConfirmText & { onDone(): void; busy: boolean; setBusy(busy: boolean): void }) {
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      onDone();
    } catch {
      // The caller reports the failure; the dialog stays open so it can be retried or cancelled.
    } finally {
      setBusy(false);
    }
  }
  return (
    <DialogContent title={title} description={description}>
      <div className="flex justify-end gap-2">
        <DialogClose asChild>
          <Button variant="secondary" busy={busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button variant="danger" onClick={() => void confirm()} busy={busy}>
          {busy ? doing : action}
        </Button>
      </div>
    </DialogContent>
  );
}

/**
 * After a delete, the keyboard goes to the delete button of the row that took the deleted one's place, or, the list's
 * last row gone, to what `keyboardWhenNoneLeft` finds, or to the page's heading; for a button outside a list, to what
 * `keyboardAfter` finds.
 */
async function deleteKeepingTheKeyboard(
  button: HTMLElement | null,
  onConfirm: () => Promise<unknown>,
  keyboardAfter?: () => HTMLElement | null,
  keyboardWhenNoneLeft?: () => HTMLElement | null,
) {
  const moveKeyboard = keyboardAfter
    ? keyboardToOnceGone(button, keyboardAfter)
    : keyboardToNeighbourOnceGone(button, '.icon-trash', undefined, keyboardWhenNoneLeft);
  await onConfirm();
  moveKeyboard();
}

/**
 * A delete button that asks first; the dialog stays open (and busy) until the delete finishes. One outside a list,
 * with no neighbour to take its place, says where the keyboard goes once it has gone (`keyboardAfter`); one in a list
 * says where it goes once the list's last row has gone (`keyboardWhenNoneLeft`: the control that adds a row, or the
 * list's heading; docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
 */
export function ConfirmDelete({
  label,
  onConfirm,
  keyboardAfter,
  keyboardWhenNoneLeft,
  ...text
}: ConfirmText & {
  label: string;
  keyboardAfter?: () => HTMLElement | null;
  keyboardWhenNoneLeft?: () => HTMLElement | null;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <DialogTrigger asChild>
        <DeleteButton ref={trigger} label={label} />
      </DialogTrigger>
      <ConfirmDeleteContent
        {...text}
        onConfirm={() => deleteKeepingTheKeyboard(trigger.current, onConfirm, keyboardAfter, keyboardWhenNoneLeft)}
        busy={busy}
        setBusy={setBusy}
        onDone={() => setOpen(false)}
      />
    </Dialog>
  );
}

/**
 * The delete button of a row whose asking dialog is one shared by many rows (`ConfirmDeleteDialog`). Its icon is
 * drawn by CSS (icon-trash), in the danger colour: a long list has one of these a row.
 */
export function DeleteButton({
  label,
  className,
  ...props
}: { label: string } & Omit<Parameters<typeof Button>[0], 'children'>) {
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      className={clsx('icon-trash text-danger', className)}
      {...props}
    />
  );
}

/**
 * One asking dialog for many delete buttons (or other actions that ask first, with their `action`), open while `asking` is set: a long list renders a plain button
 * a row instead of a dialog a row. Focus goes back to the button that opened it (DialogContent's opener).
 */
export function ConfirmDeleteDialog({ asking, onClose }: { asking: ConfirmText | null; onClose(): void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={asking !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      {asking ? <ConfirmDeleteContent {...asking} busy={busy} setBusy={setBusy} onDone={onClose} /> : null}
    </Dialog>
  );
}
