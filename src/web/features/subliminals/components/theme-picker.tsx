import { useId } from 'react';
import { Check, Lock } from 'lucide-react';
import type { SessionTheme, ThemeFont } from '@shared/themes';
import { CUSTOM_THEME_ID, findTheme, planOfTheme, SESSION_THEMES, THEME_FONTS } from '@shared/themes';
import { PlanLock } from '@web/components/plan-lock';
import { PlanReadFailed } from '@web/components/plan-read-failed';
import { clsx } from 'clsx';
import { sessionLook, type PlayerSettings } from '../lib/player-storage';

const FONT_NAMES: Record<ThemeFont, string> = { sans: 'Sans', serif: 'Serif', mono: 'Monospace', rounded: 'Rounded' };

function Swatch({ background, color, font }: { background: string; color: string; font: string }) {
  return (
    <span
      aria-hidden
      className="flex h-12 w-full items-center justify-center rounded-xl border border-line text-lg font-semibold"
      style={{ background, color, fontFamily: font }}
    >
      Aa
    </span>
  );
}

/**
 * The flash screen's theme (docs/product/content.md#themes): the ones the plan includes can be
 * chosen; the others are shown with a lock and the plan that has them. Choosing a theme also sets
 * the message colour to the theme's, which stays changeable. A theme of a higher plan the player
 * kept after a downgrade shows selected, as from the earlier plan, until another is chosen.
 * Until the plan is known, the themes every plan has and the one chosen, no other offered or locked; when it could
 * not be read, the plan's message and "Try again" stand where the others would be
 * (docs/decisions/132-a-plan-not-read-says-so-once-a-screen.md).
 */
export function ThemePicker({
  settings,
  allThemes,
  onChange,
}: {
  settings: PlayerSettings;
  /** Whether the plan includes every theme and custom ones; `undefined` until the plan is known (usePlan's `has`). */
  allThemes: boolean | undefined;
  onChange(settings: PlayerSettings): void;
}) {
  const custom = settings.customTheme ?? { background: sessionLook(settings).background, font: 'sans' as const };
  const keptNote = useId();
  const groupName = useId();
  const keptName =
    allThemes !== false || planOfTheme(settings.theme) === 'basic'
      ? null
      : (findTheme(settings.theme)?.name ?? 'Your custom theme');
  const option = (
    id: string,
    name: string,
    locked: boolean,
    look: { background: string; color: string; font: string },
  ) => {
    const checked = settings.theme === id;
    // A theme of a higher plan still in the player after a downgrade stays selected until another is chosen.
    const kept = locked && checked;
    return (
      <label
        key={id}
        className={clsx('flex flex-col gap-1 text-xs', locked && !kept ? 'opacity-60' : 'cursor-pointer')}
      >
        <input
          type="radio"
          name="session-theme"
          value={id}
          checked={checked}
          disabled={locked && !kept}
          aria-label={kept ? `${name}, from your earlier plan` : locked ? `${name}, locked` : undefined}
          aria-describedby={kept ? keptNote : undefined}
          className="peer sr-only"
          onChange={() =>
            id === CUSTOM_THEME_ID
              ? onChange({ ...settings, theme: CUSTOM_THEME_ID, customTheme: custom })
              : onChange({ ...settings, theme: id, customTheme: undefined, messageColor: look.color })
          }
        />
        {/* Chosen is a ring, focused an outline further out: in the dark theme both are the accent, and the
            chosen swatch (where Tab enters the group) showed no change when focused. */}
        <span className="relative rounded-xl ring-offset-2 ring-offset-surface-raised peer-checked:ring-2 peer-checked:ring-accent peer-focus-visible:outline-2 peer-focus-visible:outline-offset-[5px] peer-focus-visible:outline-focus-ring">
          <Swatch {...look} />
          {locked && !kept ? (
            <Lock aria-hidden className="absolute right-1.5 top-1.5 h-3.5 w-3.5 text-white drop-shadow" />
          ) : null}
          {checked ? (
            <Check aria-hidden className="absolute right-1.5 top-1.5 h-3.5 w-3.5 text-white drop-shadow" />
          ) : null}
        </span>
        <span className="text-center">{name}</span>
      </label>
    );
  };

  type Shown = { id: string; name: string; look: { background: string; color: string; font: string } };
  const shown = (theme: SessionTheme): Shown => ({
    id: theme.id,
    name: theme.name,
    look: { background: theme.background, color: theme.messageColor, font: THEME_FONTS[theme.font] },
  });
  const basic = SESSION_THEMES.filter((theme) => theme.plan === 'basic').map(shown);
  const others = [
    ...SESSION_THEMES.filter((theme) => theme.plan !== 'basic').map(shown),
    {
      id: CUSTOM_THEME_ID,
      name: 'Custom',
      look: { background: custom.background, color: settings.messageColor, font: THEME_FONTS[custom.font] },
    },
  ];
  const themeOption = (theme: Shown) =>
    option(theme.id, theme.name, allThemes === false && planOfTheme(theme.id) !== 'basic', theme.look);
  const chosen = (theme: { id: string }) => theme.id === settings.theme;

  return (
    // Named by "Theme" alone: the legend also holds the plan's lock, whose button would be read into the group's name.
    // A fieldset is as wide as its widest content by default: at 320 px the plan lock's one-line button widened it,
    // and the themes with it, past the screen. min-w-0 keeps it to its card, and the lock goes under "Theme".
    // A legend is no flex item of its fieldset, so the gap does not part it from the themes: its margin does.
    <fieldset aria-labelledby={groupName} className="flex min-w-0 flex-col gap-2">
      <legend className="mb-2 flex w-full flex-wrap items-center justify-between gap-2 text-sm font-medium">
        <span id={groupName}>Theme</span>
        {allThemes === false ? <PlanLock feature="allThemes" what="More themes" /> : null}
      </legend>
      <div className="grid grid-cols-3 gap-2 sm:grid-cols-5">
        {basic.map(themeOption)}
        {/* Until the plan is known, the one chosen stays shown (and plays): a paying person's, not yet said to be theirs. */}
        {allThemes === undefined ? others.filter(chosen).map(themeOption) : null}
        <PlanReadFailed
          feature="allThemes"
          detail="More themes, spoken affirmations, saving, sharing and export show once it is read."
          className="col-span-full"
        >
          {allThemes === undefined ? null : others.map(themeOption)}
        </PlanReadFailed>
      </div>
      {keptName ? (
        <p id={keptNote} className="text-xs text-fg-muted">
          {keptName} is from your earlier plan: it stays until you choose another theme.
        </p>
      ) : null}
      {settings.theme === CUSTOM_THEME_ID && allThemes === true ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="flex flex-col gap-1.5 text-sm font-medium">
            Background
            <input
              type="color"
              value={custom.background}
              onChange={(event) =>
                onChange({ ...settings, customTheme: { ...custom, background: event.target.value } })
              }
              className="h-11 w-full cursor-pointer rounded-xl border border-field bg-surface-raised px-2"
            />
          </label>
          <label className="flex flex-col gap-1.5 text-sm font-medium">
            Font
            <select
              value={custom.font}
              onChange={(event) =>
                onChange({ ...settings, customTheme: { ...custom, font: event.target.value as ThemeFont } })
              }
              className="h-11 rounded-xl border border-field bg-surface-raised px-3"
            >
              {(Object.keys(THEME_FONTS) as ThemeFont[]).map((font) => (
                <option key={font} value={font}>
                  {FONT_NAMES[font]}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}
    </fieldset>
  );
}
