import { useId } from 'react';
import { CircleCheck } from 'lucide-react';
import { BINAURAL_PRESETS, type BinauralPresetName } from '@shared/binaural';
import { clsx } from 'clsx';

/** The brainwave presets as a radio group of cards: arrow keys move, Space selects. */
export function PresetCards({
  selected,
  onSelect,
}: {
  selected: BinauralPresetName | null;
  onSelect: (name: BinauralPresetName) => void;
}) {
  const baseId = useId();
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-3 text-sm font-medium">Frequency preset</legend>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {BINAURAL_PRESETS.map((preset) => {
          const isSelected = preset.name === selected;
          // Named by the band's name, described by the rest, so a screen reader says "Alpha, radio" first.
          const nameId = `${baseId}-${preset.name}-name`;
          const bandId = `${baseId}-${preset.name}-band`;
          const descriptionId = `${baseId}-${preset.name}-description`;
          const frequenciesId = `${baseId}-${preset.name}-frequencies`;
          return (
            <label
              key={preset.name}
              className={clsx(
                'flex cursor-pointer flex-col gap-1.5 rounded-2xl border p-4 transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-focus-ring',
                isSelected
                  ? 'border-accent-strong bg-accent/10 hover:border-accent-strong dark:border-accent'
                  : 'border-line bg-surface hover:border-fg-muted',
              )}
            >
              <input
                type="radio"
                name="binaural-preset"
                value={preset.name}
                checked={isSelected}
                onChange={() => onSelect(preset.name)}
                aria-labelledby={nameId}
                aria-describedby={`${bandId} ${descriptionId} ${frequenciesId}`}
                className="sr-only"
              />
              <span className="flex items-baseline justify-between gap-2">
                <span className="flex items-center gap-1.5">
                  <span id={nameId} className="font-semibold">
                    {preset.name}
                  </span>
                  {/* Selection is shown by more than colour (WCAG 1.4.1). */}
                  {isSelected ? (
                    <CircleCheck aria-hidden className="h-4 w-4 text-accent-strong dark:text-accent" />
                  ) : null}
                </span>
                <span id={bandId} className="text-xs text-fg-muted">
                  {preset.bandHz[0]}–{preset.bandHz[1]} Hz band
                </span>
              </span>
              <span id={descriptionId} className="text-sm text-fg-muted">
                {preset.description}
              </span>
              <span id={frequenciesId} className="mt-1 text-xs font-medium tabular-nums">
                Left {preset.leftHz} Hz · Right {preset.rightHz} Hz · {preset.beatHz} Hz beat
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
