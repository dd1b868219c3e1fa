import { useState, type ReactNode } from 'react';
import { Trash2 } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@web/components/ui/dialog';

/** A delete button that asks first; the dialog stays open (and busy) until the delete finishes. */
export function ConfirmDelete({
  label,
  title,
  description,
  onConfirm,
}: {
  label: string;
  title: string;
  description: ReactNode;
  onConfirm: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // The caller reports the failure; the dialog stays open so it can be retried or cancelled.
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label} title={label}>
          <Trash2 aria-hidden className="h-4 w-4 text-danger" />
        </Button>
      </DialogTrigger>
      <DialogContent title={title} description={description}>
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="secondary" disabled={busy}>
              Cancel
            </Button>
          </DialogClose>
          <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
            {busy ? 'Deleting…' : 'Delete'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
