import { Construction } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@web/components/ui/dialog';
import { IconBadge } from '@web/components/ui/icon-badge';

/** Android, iOS and the newsletter's Join say the feature is not ready yet. */
export default function UnderDevelopmentDialog({
  open,
  onOpenChange,
  feature,
  note = 'Meanwhile, everything Innerwave offers works in your browser.',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the visitor asked for, e.g. 'The Android app'. */
  feature: string;
  /** A line under the message; by default, where Innerwave already works. */
  note?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="This feature is under development"
        description={`${feature} is not available yet. We are working on it and will announce it here when it is ready.`}
      >
        <div className="flex items-center gap-4">
          <IconBadge icon={Construction} />
          <p className="text-sm text-fg-muted">{note}</p>
        </div>
        <div className="mt-6 flex justify-end">
          <DialogClose asChild>
            <Button>I understand</Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  );
}
