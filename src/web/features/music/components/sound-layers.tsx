import { useId } from 'react';
import { TriangleAlert } from 'lucide-react';
import { BINAURAL_BANDS } from '@shared/constants';
import { PlanLock } from '@web/components/plan-lock';
import { PlanReadFailed } from '@web/components/plan-read-failed';
import { soundEngine } from '@web/lib/audio/app-engine';
import { BEAT_WARNING_HZ, dbToGain, gainToDb, MIN_DB } from '@web/lib/audio/mixer';
import { NOISE_COLOURS, NOISE_LABELS } from '@web/lib/audio/noise';
import type { LayerId, LayerSource } from '@web/lib/audio/sound-engine';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { clsx } from 'clsx';
import { usePlan } from '@web/lib/plan';
import { RangeInput } from '@web/components/ui/range-input';
import { toastProblem } from '@web/lib/toast-problem';

const DEFAULT_DB = -12;
const ISOCHRONIC_CARRIER_HZ = 200;
const START_FAILED = 'Failed to start the sound. Please try again.';

function start(id: LayerId, source: LayerSource, db: number) {
  soundEngine.setLayer(id, source, dbToGain(db)).catch(() => toastProblem(START_FAILED));
}

/** A layer's level in dB (−60 = off … 0 = full scale), gliding as it moves. */
function LevelSlider({ id, label, gain }: { id: LayerId; label: string; gain: number }) {
  const inputId = useId();
  const db = Math.max(MIN_DB, Math.round(gainToDb(gain)));
  return (
    <div className="flex items-center gap-3">
      <label htmlFor={inputId} className="w-28 shrink-0 text-sm font-medium">
        {label}
      </label>
      <RangeInput
        id={inputId}
        min={MIN_DB}
        max={0}
        step={1}
        value={db}
        aria-valuetext={`${db} dB`}
        onChange={(event) => soundEngine.setLayerGain(id, dbToGain(event.target.valueAsNumber))}
        className="min-w-0 flex-1"
      />
      <span className="w-14 shrink-0 text-right text-sm tabular-nums text-fg-muted">{db} dB</span>
    </div>
  );
}

function Choices({
  label,
  options,
  selected,
  onSelect,
}: {
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  selected: string;
  onSelect(value: string): void;
}) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-2">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={selected === option.value}
          onClick={() => onSelect(option.value)}
          className={clsx(
            'min-h-11 rounded-full border px-4 text-sm font-medium hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring',
            selected === option.value ? 'border-accent bg-accent/15' : 'border-line',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Sound layers (Intermediate, docs/product/plans.md): noise colours and isochronic tones generated
 * in the browser, mixed with the track and the binaural beats, each at its own level.
 */
export function SoundLayers() {
  // The controls or the lock once the plan is read, neither before (decision 124).
  const layers = usePlan().has('soundLayers');
  const state = useSoundEngine();
  const layer = (id: LayerId) => state.layers.find((candidate) => candidate.id === id);
  const noise = layer('noise');
  const isochronic = layer('isochronic');
  const track = layer('track');
  const binaural = layer('binaural');
  const pulseHz = isochronic?.source.kind === 'isochronic' ? isochronic.source.pulseHz : null;

  return (
    <section
      aria-labelledby="sound-layers-heading"
      className="flex flex-col gap-5 rounded-3xl border border-line bg-surface-raised p-5 shadow-sm sm:p-8"
    >
      <div className="flex flex-col gap-2">
        <h2 id="sound-layers-heading" className="card-heading">
          Sound layers
        </h2>
        <p className="text-sm text-fg-muted">
          Mix a track, binaural beats, isochronic tones and a noise colour, each at its own level. The mix is kept under
          your volume: when the layers add up past it, all of them are turned down together.
        </p>
      </div>
      {/* Far below My music's word of it on a phone: this part says why it waits (decision 140). */}
      <PlanReadFailed
        feature="soundLayers"
        brief
        detail="Your plan could not be loaded: the sound layers show once it is."
      >
        {layers === undefined ? null : !layers ? (
          <div className="flex flex-wrap items-center gap-3">
            <PlanLock feature="soundLayers" what="Sound layers" />
            <p className="text-sm text-fg-muted">Your plan plays one sound at a time.</p>
          </div>
        ) : (
          <>
            <div className="flex flex-col gap-3">
              <h3 className="font-medium">Noise</h3>
              <Choices
                label="Noise colour"
                options={[
                  { value: 'off', label: 'Off' },
                  ...NOISE_COLOURS.map((c) => ({ value: c, label: NOISE_LABELS[c] })),
                ]}
                selected={noise?.source.kind === 'noise' ? noise.source.colour : 'off'}
                onSelect={(value) =>
                  value === 'off'
                    ? soundEngine.removeLayer('noise')
                    : start(
                        'noise',
                        { kind: 'noise', colour: value as (typeof NOISE_COLOURS)[number] },
                        noise ? gainToDb(noise.gain) : DEFAULT_DB,
                      )
                }
              />
            </div>
            <div className="flex flex-col gap-3">
              <h3 className="font-medium">Isochronic tones</h3>
              <p className="text-sm text-fg-muted">
                A {ISOCHRONIC_CARRIER_HZ} Hz tone that swells and fades at the band&rsquo;s rate. Unlike binaural beats
                it works on speakers too.
              </p>
              <Choices
                label="Isochronic band"
                options={[
                  { value: 'off', label: 'Off' },
                  ...BINAURAL_BANDS.map((band) => ({ value: band.name, label: `${band.name} · ${band.beatHz} Hz` })),
                ]}
                selected={BINAURAL_BANDS.find((band) => band.beatHz === pulseHz)?.name ?? 'off'}
                onSelect={(value) => {
                  const band = BINAURAL_BANDS.find((candidate) => candidate.name === value);
                  if (!band) return soundEngine.removeLayer('isochronic');
                  start(
                    'isochronic',
                    { kind: 'isochronic', carrierHz: ISOCHRONIC_CARRIER_HZ, pulseHz: band.beatHz },
                    isochronic ? gainToDb(isochronic.gain) : DEFAULT_DB,
                  );
                }}
              />
              {pulseHz !== null && pulseHz > BEAT_WARNING_HZ ? (
                <p className="flex items-start gap-2 rounded-2xl border border-line bg-fg/5 p-3 text-sm">
                  <TriangleAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-danger" />
                  <span>Pulses above 30 Hz blur into a buzz. Keep the level low and stop if it feels unpleasant.</span>
                </p>
              ) : null}
            </div>
            {state.layers.length > 0 ? (
              <div className="flex flex-col gap-3">
                <h3 className="font-medium">Levels</h3>
                {track ? <LevelSlider id="track" label="Track" gain={track.gain} /> : null}
                {binaural ? <LevelSlider id="binaural" label="Binaural" gain={binaural.gain} /> : null}
                {isochronic ? <LevelSlider id="isochronic" label="Isochronic" gain={isochronic.gain} /> : null}
                {noise ? <LevelSlider id="noise" label="Noise" gain={noise.gain} /> : null}
              </div>
            ) : null}
          </>
        )}
      </PlanReadFailed>
    </section>
  );
}
