import { Link } from '@web/lib/link';
import type { SolfeggioFrequency } from '@web/lib/constants';
import { paths } from '@web/lib/paths';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { CARD_IMAGE_SIZE, cardImage } from '../art';

/** A frequency's description. It keeps its content while `frequency` is set (cleared 300 ms after close). */
export default function FrequencyDialog({
  frequency,
  open,
  onClose,
}: {
  frequency: SolfeggioFrequency | null;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      {frequency ? (
        <DialogContent title={`${frequency.hz} Hz · ${frequency.name}`} description={frequency.description}>
          <img
            src={cardImage(frequency.hz)}
            width={CARD_IMAGE_SIZE.width}
            height={CARD_IMAGE_SIZE.height}
            alt=""
            className="aspect-[8/5] w-full rounded-2xl object-cover"
          />
          <p className="mt-4 text-sm text-fg-muted">
            Listen with headphones at a low, comfortable volume. These tones are for relaxation and focus; they are not
            a treatment for any condition.
          </p>
          <div className="mt-6 flex justify-end">
            <Button asChild variant="secondary">
              <Link to={paths.music}>Listen in the portal</Link>
            </Button>
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
