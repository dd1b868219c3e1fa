import { Link } from '@web/lib/link';
import { AudioWaveform } from 'lucide-react';
import { EQUALIZER_SAMPLE_HZ, SOLFEGGIO_FREQUENCIES } from '@web/lib/constants';
import { paths } from '@web/lib/paths';
import { Button } from '@web/components/ui/button';
import { reservedHeight } from '../lib/reserved-heights';

const BARS_PER_BAND = 9;

/** Bar heights and speeds follow the tone: higher frequencies move faster. Static under reduced motion. */
function Band({ hz }: { hz: number }) {
  const name = SOLFEGGIO_FREQUENCIES.find((f) => f.hz === hz)?.name ?? '';
  const period = 1800 - hz; // 963 Hz → 0.8 s, 396 Hz → 1.4 s
  return (
    <figure className="flex flex-col items-center gap-4">
      <div aria-hidden className="flex h-28 items-end gap-0.5 sm:h-36 sm:gap-1.5">
        {Array.from({ length: BARS_PER_BAND }, (_, i) => {
          const rest = 0.35 + 0.6 * Math.abs(Math.sin((i + 1) * (hz / 97)));
          return (
            <span
              key={i}
              className="w-1 origin-bottom rounded-full bg-gradient-to-t from-accent to-[#5eead4] motion-safe:animate-eq min-[360px]:w-1.5 sm:w-2.5 lg:w-3"
              style={{
                height: '100%',
                transform: `scaleY(${rest.toFixed(2)})`,
                animationDuration: `${period + i * 37}ms`,
                animationDelay: `${-i * 130}ms`,
              }}
            />
          );
        })}
      </div>
      <figcaption className="text-center">
        <span className="block text-lg font-semibold whitespace-nowrap tabular-nums min-[360px]:text-xl sm:text-2xl">
          {hz} Hz
        </span>
        <span className="text-sm text-white/75">{name}</span>
      </figcaption>
    </figure>
  );
}

export function EqualizerTeaser() {
  return (
    <section
      aria-labelledby="equalizer-title"
      style={reservedHeight('equalizer')}
      className="render-when-near mx-auto max-w-6xl px-4 py-12"
    >
      <div className="grid items-center gap-10 overflow-hidden rounded-[2rem] bg-gradient-to-br [--focus-ring:var(--color-accent)] from-night-800 via-night-900 to-[#0b3a3a] p-6 text-white sm:p-12 lg:grid-cols-2 [&>*]:min-w-0">
        <div>
          <p className="text-sm font-semibold uppercase tracking-[0.18em] text-accent">Sound frequencies</p>
          <h2 id="equalizer-title" className="mt-3 text-3xl font-semibold tracking-tight sm:text-4xl">
            Three tones to start with
          </h2>
          <p className="mt-4 text-lg text-white/80">
            963 Hz for stillness, 528 Hz for a fresh start, 396 Hz to let go of the day. Play them alongside your
            affirmations, or on their own.
          </p>
          <Button asChild size="lg" className="mt-8">
            <Link to={paths.subliminals}>
              <AudioWaveform aria-hidden className="h-5 w-5" /> Sound frequencies
            </Link>
          </Button>
        </div>
        {/* Narrower bars, gaps and labels on phones: three bands of 9 bars, "963 Hz" on one line and
            "Transformation" fit in the card from 320 px wide (they needed 304 px and were cut off below 390 px). */}
        <div className="flex justify-around gap-1 min-[360px]:gap-2 sm:gap-4">
          {EQUALIZER_SAMPLE_HZ.map((hz) => (
            <Band key={hz} hz={hz} />
          ))}
        </div>
      </div>
    </section>
  );
}
