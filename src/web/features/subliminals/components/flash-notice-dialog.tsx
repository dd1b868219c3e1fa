import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';

/** Before the first start (and, under reduced motion, before every start): the flashing warning. */
export function FlashNoticeDialog({
  open,
  reducedMotion,
  onAccept,
  onCancel,
}: {
  open: boolean;
  reducedMotion: boolean;
  onAccept(): void;
  onCancel(): void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent title="Before you start" description="The player flashes short messages on screen.">
        <div className="flex flex-col gap-3 text-sm text-fg-muted">
          <p>
            Flashing text can trigger seizures in people with photosensitive epilepsy and discomfort for others. If you
            or anyone watching is sensitive to flashing light, do not start the player.
          </p>
          {reducedMotion ? (
            <p className="font-medium text-fg">
              Your device is set to reduce motion. Do you want to show flashing messages anyway?
            </p>
          ) : null}
          <p>You can stop at any time with the Stop button or the Escape key.</p>
        </div>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={onAccept}>{reducedMotion ? 'Flash anyway' : 'I understand, start'}</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
