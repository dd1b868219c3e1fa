import { useId, useState } from 'react';
import { Headphones, Play, Square, TriangleAlert } from 'lucide-react';
import { BEAT_WARNING_HZ } from '@web/lib/audio/mixer';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { BINAURAL } from '@shared/constants';
import { beatHz } from '@shared/binaural';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { useBinauralGenerator } from '../hooks/use-binaural-generator';
import { parseHz, playedHz } from '../lib/generator-store';
import { PresetCards } from './preset-cards';
import { RangeInput } from '@web/components/ui/range-input';

const RANGE = `range ${BINAURAL.clampHz.min}–${BINAURAL.clampHz.max} Hz`;

function FrequencyField({
  label,
  value,
  playingHz,
  onChange,
  onCommit,
}: {
  label: string;
  value: string;
  /** What this ear hears now, or null when stopped. */
  playingHz: number | null;
  onChange: (text: string) => void;
  /** On leaving the field: the clamped frequency it was set to, if the typed one was out of range. */
  onCommit: () => number | null;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const [setTo, setSetTo] = useState<number | null>(null);
  const typed = parseHz(value);
  const played = playedHz(value);
  // The field always tells what plays (docs/product/content.md#frequencies-and-volume): a number
  // past the range is replaced by its limit when the field is left, and the limit is named.
  let hint: string | null = null;
  if (setTo !== null && typed === setTo) {
    hint = `Set to ${setTo} Hz, the ${setTo === BINAURAL.clampHz.max ? 'highest' : 'lowest'} frequency that plays (${RANGE})`;
  } else if (typed === null && playingHz !== null) {
    hint = `Still playing ${playingHz} Hz: type a frequency to change it`;
  } else if (typed !== played) {
    hint = `Plays at ${played} Hz (${RANGE})`;
  }
  return (
    <div className="flex flex-col gap-1.5">
      {/* The unit drawn in the field is decoration: the name says it, or "200" was read with no unit. */}
      <label htmlFor={id} className="text-sm font-medium">
        {label} <span className="sr-only">(Hz)</span>
      </label>
      <div className="relative">
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          min={BINAURAL.inputHz.min}
          max={BINAURAL.inputHz.max}
          step={0.1}
          value={value}
          onChange={(event) => {
            setSetTo(null);
            onChange(event.target.value);
          }}
          onBlur={() => setSetTo(onCommit())}
          aria-describedby={hint ? hintId : undefined}
          className="pr-12 tabular-nums"
        />
        <span
          aria-hidden
          className="pointer-events-none absolute inset-y-0 right-4 flex items-center text-sm text-fg-muted"
        >
          Hz
        </span>
      </div>
      {hint ? (
        <p id={hintId} className="text-xs text-fg-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The binaural beats generator of /music (docs/product/content.md#binaural-beats). */
export function BinauralGenerator() {
  const generator = useBinauralGenerator();
  const { choices, status, playing: played } = generator;
  const volumeId = useId();
  const beatLabelId = useId();
  const leftHz = playedHz(choices.leftText);
  const rightHz = playedHz(choices.rightText);
  // While playing, the beat of what plays (a field being retyped does not change it until it reads a number).
  const beat = played ? beatHz(played.leftHz, played.rightHz) : beatHz(leftHz, rightHz);
  const volumePercent = `${Math.round(choices.volume * 100)}%`;
  const playing = status === 'playing';
  // Paused by the mini-player, or waiting for a press because the browser would not start it (decision 072).
  const engine = useSoundEngine();
  const paused = playing && engine.status === 'paused';
  // Waiting for the browser to let it start (decision 075).
  const starting = playing && engine.starting;

  return (
    <div className="flex flex-col gap-6 rounded-3xl border border-line bg-surface-raised p-5 shadow-sm sm:p-8">
      <div className="flex flex-col gap-2">
        <h2 id="binaural-heading" className="card-heading">
          Binaural beats
        </h2>
        <p className="flex items-start gap-2 text-sm text-fg-muted">
          <Headphones aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          <span>
            Use headphones: each ear hears its own tone, and the gentle beat you perceive is the difference between
            them.
          </span>
        </p>
      </div>

      <PresetCards selected={generator.shownPreset} onSelect={generator.selectPreset} />

      <div className="grid gap-4 sm:grid-cols-3">
        <FrequencyField
          label="Left frequency"
          value={choices.leftText}
          playingHz={played?.leftHz ?? null}
          onChange={generator.setLeftText}
          onCommit={generator.commitLeft}
        />
        <FrequencyField
          label="Right frequency"
          value={choices.rightText}
          playingHz={played?.rightHz ?? null}
          onChange={generator.setRightText}
          onCommit={generator.commitRight}
        />
        <div className="flex flex-col gap-1.5">
          <span id={beatLabelId} className="text-sm font-medium">
            Beat <span aria-hidden>|L − R|</span>
          </span>
          <output
            aria-labelledby={beatLabelId}
            aria-live="off"
            className="flex h-11 items-center text-2xl font-semibold tabular-nums"
          >
            {beat} Hz
          </output>
        </div>
      </div>

      {beat > BEAT_WARNING_HZ ? (
        <p className="flex items-start gap-2 rounded-2xl border border-line bg-fg/5 p-3 text-sm">
          <TriangleAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-danger" />
          <span>
            Above 30 Hz the two tones are heard as a rough, buzzing tone rather than a gentle beat. Keep the volume low
            and stop if it feels unpleasant.
          </span>
        </p>
      ) : null}

      <div className="flex flex-col gap-2">
        <div className="flex items-center justify-between">
          <label htmlFor={volumeId} className="text-sm font-medium">
            Volume
          </label>
          <span className="text-sm tabular-nums text-fg-muted">{volumePercent}</span>
        </div>
        <RangeInput
          id={volumeId}
          min={BINAURAL.volume.min}
          max={BINAURAL.volume.max}
          step={BINAURAL.volume.step}
          value={choices.volume}
          aria-valuetext={volumePercent}
          onChange={(event) => generator.setVolume(event.target.valueAsNumber)}
          className="w-full"
        />
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => void generator.start()}>
          <Play aria-hidden className="h-4 w-4" />
          Start
        </Button>
        {/* Unavailable while stopped, yet focusable (aria-disabled; a press then does nothing), so the keyboard that
            pressed it stays on it rather than falling to the page's top (decision 113). */}
        <Button variant="secondary" onClick={() => void generator.stop()} aria-disabled={!playing || undefined}>
          <Square aria-hidden className="h-4 w-4" />
          Stop
        </Button>
        <p role="status" className="flex items-center gap-2 text-sm text-fg-muted">
          <span
            aria-hidden
            className={
              playing && !paused && !starting
                ? 'h-2.5 w-2.5 rounded-full bg-accent-strong motion-safe:animate-pulse dark:bg-accent'
                : 'h-2.5 w-2.5 rounded-full bg-line'
            }
          />
          {paused
            ? `Paused · a ${beat} Hz beat`
            : starting
              ? `Starting a ${beat} Hz beat…`
              : playing
                ? `Playing a ${beat} Hz beat`
                : 'Stopped'}
        </p>
      </div>
    </div>
  );
}
