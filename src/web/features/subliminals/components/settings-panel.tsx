import { PLAYER } from '@shared/constants';
import { Input } from '@web/components/ui/input';
import { clampSettings, type PlayerSettings } from '../lib/player-storage';

/** The four message settings, kept within the spec's limits. */
export function SettingsPanel({
  settings,
  onChange,
}: {
  settings: PlayerSettings;
  onChange(settings: PlayerSettings): void;
}) {
  const set = (patch: Partial<PlayerSettings>) => onChange({ ...settings, ...patch });
  const commit = () => onChange(clampSettings(settings));
  return (
    <section
      aria-labelledby="settings-heading"
      className="rounded-3xl border border-[var(--border)] bg-[var(--bg-elevated)] p-5"
    >
      <h2 id="settings-heading" className="text-lg font-semibold">
        Message settings
      </h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Flash speed (ms)
          <Input
            type="number"
            min={PLAYER.flashSpeed.min}
            step={PLAYER.flashSpeed.step}
            value={settings.flashSpeed}
            onChange={(event) =>
              Number.isFinite(event.target.valueAsNumber) && set({ flashSpeed: event.target.valueAsNumber })
            }
            onBlur={commit}
          />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Display interval (ms)
          <Input
            type="number"
            min={PLAYER.displayInterval.min}
            step={PLAYER.displayInterval.step}
            value={settings.displayInterval}
            onChange={(event) =>
              Number.isFinite(event.target.valueAsNumber) && set({ displayInterval: event.target.valueAsNumber })
            }
            onBlur={commit}
          />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Message colour
          <input
            type="color"
            value={settings.messageColor}
            onChange={(event) => set({ messageColor: event.target.value })}
            className="h-11 w-full cursor-pointer rounded-xl border border-[var(--border)] bg-[var(--bg-elevated)] px-2"
          />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Font size: {settings.fontSize} px
          <input
            type="range"
            min={PLAYER.fontSize.min}
            max={PLAYER.fontSize.max}
            step={PLAYER.fontSize.step}
            value={settings.fontSize}
            onChange={(event) => set({ fontSize: event.target.valueAsNumber })}
            className="h-11 accent-[var(--color-accent)]"
          />
        </label>
      </div>
    </section>
  );
}
