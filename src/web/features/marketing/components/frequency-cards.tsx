import { lazy } from 'react';
import { SOLFEGGIO_FREQUENCIES, type SolfeggioFrequency } from '@web/lib/constants';
import { CARD_IMAGE_SIZE, cardImage } from '../art';
import { LazyMount } from '@web/components/lazy-mount';
import { useHydrated } from '@web/lib/use-hydrated';
import { useModalSelection } from '../hooks/use-modal-selection';
import { Section } from './section';

// The modal code (Radix Dialog) is fetched on the first open, not with the page.
const FrequencyDialog = lazy(() => import('./frequency-dialog'));

function FrequencyCard({ frequency, onOpen }: { frequency: SolfeggioFrequency; onOpen: () => void }) {
  // No image in the pre-rendered HTML: a lazy image this near the first screen is fetched before the
  // first paint, beside the hero (docs/decisions/033-the-home-page-fetches-its-first-screen-first.md).
  // The box keeps its size meanwhile, so nothing moves when the image comes.
  const hydrated = useHydrated();
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-haspopup="dialog"
        className="group flex h-full w-full cursor-pointer flex-col overflow-hidden rounded-2xl border border-line bg-surface-raised text-left sm:rounded-3xl shadow-sm transition-shadow hover:shadow-lg"
      >
        <img
          src={hydrated ? cardImage(frequency.hz) : undefined}
          width={CARD_IMAGE_SIZE.width}
          height={CARD_IMAGE_SIZE.height}
          alt=""
          loading="lazy"
          decoding="async"
          className="aspect-[8/5] w-full bg-night-900 object-cover transition-transform duration-700 group-hover:scale-[1.03]"
        />
        <span className="flex flex-1 flex-col gap-1 p-4 sm:p-5">
          <span className="text-sm font-semibold text-link">{frequency.hz} Hz</span>
          <span className="font-semibold sm:text-lg">{frequency.name}</span>
          <span className="hidden text-sm text-fg-muted sm:line-clamp-2">{frequency.description}</span>
        </span>
      </button>
    </li>
  );
}

/**
 * The ten frequency cards (docs/product/screens.md#frequency-modal), 963 Hz down to 174 Hz; each opens its description.
 */
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
      <LazyMount when={open}>
        <FrequencyDialog frequency={selected} open={open} onClose={close} />
      </LazyMount>
    </Section>
  );
}
