import { Link } from 'react-router';
import { SOLFEGGIO_FREQUENCIES, type SolfeggioFrequency } from '@shared/constants';
import { paths } from '@web/lib/paths';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { CARD_IMAGE_SIZE, cardImage } from '../art';
import { useModalSelection } from '../hooks/use-modal-selection';
import { Section } from './section';

function FrequencyCard({ frequency, onOpen }: { frequency: SolfeggioFrequency; onOpen: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-haspopup="dialog"
        className="group flex h-full w-full cursor-pointer flex-col overflow-hidden rounded-2xl border border-[var(--border)] bg-[var(--bg-elevated)] text-left sm:rounded-3xl shadow-sm transition-shadow hover:shadow-lg"
      >
        <img
          src={cardImage(frequency.hz)}
          width={CARD_IMAGE_SIZE.width}
          height={CARD_IMAGE_SIZE.height}
          alt=""
          loading="lazy"
          decoding="async"
          className="aspect-[8/5] w-full object-cover transition-transform duration-700 group-hover:scale-[1.03]"
        />
        <span className="flex flex-1 flex-col gap-1 p-4 sm:p-5">
          <span className="text-sm font-semibold text-[var(--link)]">{frequency.hz} Hz</span>
          <span className="font-semibold sm:text-lg">{frequency.name}</span>
          <span className="hidden text-sm text-[var(--fg-muted)] sm:line-clamp-2">{frequency.description}</span>
        </span>
      </button>
    </li>
  );
}

/** The ten frequency cards (spec §3), 963 Hz down to 174 Hz; each opens its description. */
export function FrequencyCards() {
  const { selected, open, select, close } = useModalSelection<SolfeggioFrequency>();
  return (
    <Section
      id="frequencies"
      eyebrow="Solfeggio frequencies"
      title="Ten tones, from 963 Hz down to 174 Hz"
      intro="Each frequency has its own character. Pick one that suits the moment; the portal has a full-length track for every tone."
    >
      <ul className="grid grid-cols-2 gap-3 sm:gap-5 md:grid-cols-3 lg:grid-cols-5">
        {SOLFEGGIO_FREQUENCIES.map((frequency) => (
          <FrequencyCard key={frequency.hz} frequency={frequency} onOpen={() => select(frequency)} />
        ))}
      </ul>
      <Dialog open={open} onOpenChange={(next) => (next ? undefined : close())}>
        {selected ? (
          <DialogContent title={`${selected.hz} Hz · ${selected.name}`} description={selected.description}>
            <img
              src={cardImage(selected.hz)}
              width={CARD_IMAGE_SIZE.width}
              height={CARD_IMAGE_SIZE.height}
              alt=""
              className="aspect-[8/5] w-full rounded-2xl object-cover"
            />
            <p className="mt-4 text-sm text-[var(--fg-muted)]">
              Listen with headphones at a low, comfortable volume. These tones are for relaxation and focus; they are
              not a treatment for any condition.
            </p>
            <div className="mt-6 flex justify-end">
              <Button asChild variant="secondary">
                <Link to={paths.music}>Listen in the portal</Link>
              </Button>
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
    </Section>
  );
}
