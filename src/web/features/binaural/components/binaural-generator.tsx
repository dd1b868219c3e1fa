import { useId } from 'react';
import { Headphones, Play, Square } from 'lucide-react';
import { BINAURAL } from '@shared/constants';
import { beatHz } from '@shared/binaural';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { parseHz, playedHz, useBinauralGenerator } from '../hooks/use-binaural-generator';
import { PresetCards } from './preset-cards';

function FrequencyField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const typed = parseHz(value);
  const played = playedHz(value);
  // Say so when the number typed is not what plays (0, empty, or past the range:
  // docs/product/content.md#frequencies-and-volume).
  const hint =
    typed === played ? null : `Plays at ${played} Hz (range ${BINAURAL.clampHz.min}–${BINAURAL.clampHz.max} Hz)`;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
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
          onChange={(event) => onChange(event.target.value)}
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
  const { choices, status } = generator;
  const volumeId = useId();
  const beatLabelId = useId();
  const leftHz = playedHz(choices.leftText);
  const rightHz = playedHz(choices.rightText);
  const beat = beatHz(leftHz, rightHz);
  const volumePercent = `${Math.round(choices.volume * 100)}%`;
  const playing = status === 'playing';

  return (
    <div className="flex flex-col gap-6 rounded-3xl border border-line bg-surface-raised p-5 shadow-sm sm:p-8">
      <div className="flex flex-col gap-2">
        <h2 id="binaural-heading" className="text-2xl font-semibold tracking-tight">
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

      <PresetCards selected={choices.preset} onSelect={generator.selectPreset} />

      <div className="grid gap-4 sm:grid-cols-3">
        <FrequencyField label="Left frequency" value={choices.leftText} onChange={generator.setLeftText} />
        <FrequencyField label="Right frequency" value={choices.rightText} onChange={generator.setRightText} />
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

      <div className="flex flex-col gap-2">
        <div className="flex items-center justify-between">
          <label htmlFor={volumeId} className="text-sm font-medium">
            Volume
          </label>
          <span className="text-sm tabular-nums text-fg-muted">{volumePercent}</span>
        </div>
        <input
          id={volumeId}
          type="range"
          min={BINAURAL.volume.min}
          max={BINAURAL.volume.max}
          step={BINAURAL.volume.step}
          value={choices.volume}
          aria-valuetext={volumePercent}
          onChange={(event) => generator.setVolume(event.target.valueAsNumber)}
          className="h-6 w-full cursor-pointer accent-accent-strong dark:accent-accent"
        />
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => void generator.start()}>
          <Play aria-hidden className="h-4 w-4" />
          Start
        </Button>
        <Button variant="secondary" onClick={() => void generator.stop()} disabled={!playing}>
          <Square aria-hidden className="h-4 w-4" />
          Stop
        </Button>
        <p role="status" className="flex items-center gap-2 text-sm text-fg-muted">
          <span
            aria-hidden
            className={
              playing
                ? 'h-2.5 w-2.5 rounded-full bg-accent-strong motion-safe:animate-pulse dark:bg-accent'
                : 'h-2.5 w-2.5 rounded-full bg-line'
            }
          />
          {playing ? `Playing a ${beat} Hz beat` : 'Stopped'}
        </p>
      </div>
    </div>
  );
}
