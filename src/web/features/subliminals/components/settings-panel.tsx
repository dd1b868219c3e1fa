import { useId, useState } from 'react';
import { PLAYER } from '@shared/constants';
import { formatInteger, withUnit } from '@shared/numbers';
import { Input } from '@web/components/ui/input';
import { RangeInput } from '@web/components/ui/range-input';
import { clampSettings, type PlayerSettings } from '../lib/player-storage';
import { ThemePicker } from './theme-picker';

/**
 * A duration typed in milliseconds; clamped to its limits when the field is left, and then shown as
 * saved ("1e2" or "0100" typed reads 100 once left).
 */
function MillisecondsSetting({
  label,
  limits,
  value,
  onChange,
  onBlur,
}: {
  label: string;
  limits: { min: number; max: number; step: number };
  value: number;
  onChange(value: number): void;
  onBlur(): void;
}) {
  const hint = useId();
  // What is typed, shown as typed while the field has focus. A number input whose text means the
  // value (React compares them as numbers) is left alone by React, so once left it is given the value
  // as text.
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-1.5">
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        {label}
        <Input
          type="number"
          min={limits.min}
          max={limits.max}
          step={limits.step}
          value={typed ?? String(value)}
          aria-describedby={hint}
          onChange={(event) => {
            setTyped(event.target.value);
            if (Number.isFinite(event.target.valueAsNumber)) onChange(event.target.valueAsNumber);
          }}
          onBlur={() => {
            setTyped(null);
            onBlur();
          }}
        />
      </label>
      <span id={hint} className="text-xs text-fg-muted">
        {formatInteger(limits.min)}–{formatInteger(limits.max)} ms, in steps of {limits.step}
      </span>
    </div>
  );
}

/**
 * The font size on the product's slider (RangeInput: its filled track, a finger's box on a touch screen), named
 * "Font size" and valued in px, its value written beside its name and its limits under it as the durations' are. A
 * name holding the value was read out anew at every step, and the value alone ("22") said no unit.
 */
function FontSizeSetting({ value, onChange }: { value: number; onChange(value: number): void }) {
  const id = useId();
  const hint = useId();
  const { min, max, step } = PLAYER.fontSize;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2 text-sm">
        <label htmlFor={id} className="font-medium">
          Font size
        </label>
        <span className="tabular-nums text-fg-muted">{withUnit(value, 'px')}</span>
      </div>
      <RangeInput
        id={id}
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={`${value} px`}
        aria-describedby={hint}
        onChange={(event) => onChange(event.target.valueAsNumber)}
        className="w-full"
      />
      <span id={hint} className="text-xs text-fg-muted">
        {min}–{withUnit(max, 'px')}, in steps of {step}
      </span>
    </div>
  );
}

/** The message settings and the theme, kept within their limits (docs/product/content.md#settings). */
export function SettingsPanel({
  settings,
  allThemes,
  onChange,
}: {
  settings: PlayerSettings;
  /** usePlan's `has('allThemes')`: `undefined` until the plan is known. */
  allThemes: boolean | undefined;
  onChange(settings: PlayerSettings): void;
}) {
  const set = (patch: Partial<PlayerSettings>) => onChange({ ...settings, ...patch });
  const commit = () => onChange(clampSettings(settings));
  return (
    <section aria-labelledby="settings-heading" className="rounded-3xl border border-line bg-surface-raised p-5">
      <h2 id="settings-heading" className="card-heading">
        Message settings
      </h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <MillisecondsSetting
          label="Flash speed (ms)"
          limits={PLAYER.flashSpeed}
          value={settings.flashSpeed}
          onChange={(flashSpeed) => set({ flashSpeed })}
          onBlur={commit}
        />
        <MillisecondsSetting
          label="Display interval (ms)"
          limits={PLAYER.displayInterval}
          value={settings.displayInterval}
          onChange={(displayInterval) => set({ displayInterval })}
          onBlur={commit}
        />
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Message colour
          <input
            type="color"
            value={settings.messageColor}
            onChange={(event) => set({ messageColor: event.target.value })}
            className="h-11 w-full cursor-pointer rounded-xl border border-field bg-surface-raised px-2"
          />
        </label>
        <FontSizeSetting value={settings.fontSize} onChange={(fontSize) => set({ fontSize })} />
      </div>
      <div className="mt-4">
        <ThemePicker settings={settings} allThemes={allThemes} onChange={onChange} />
      </div>
    </section>
  );
}
