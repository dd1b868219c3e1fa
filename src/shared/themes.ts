import { PLAYER, type SubscriptionPlan } from './constants';
import { PLAN_FEATURES } from './plans';

// The flash screen's looks (docs/product/plans.md): Basic uses the first three, Intermediate and Pro
// all of them and custom ones. A theme sets the background and the font; choosing one also sets the
// message colour to its suggestion, which the person may change.

export const THEME_FONTS = {
  sans: 'Inter, system-ui, sans-serif',
  serif: 'Georgia, "Times New Roman", serif',
  mono: 'ui-monospace, "SFMono-Regular", Menlo, monospace',
  rounded: '"Nunito", "Segoe UI Rounded", "Arial Rounded MT Bold", system-ui, sans-serif',
} as const;
export type ThemeFont = keyof typeof THEME_FONTS;

export type SessionTheme = {
  id: string;
  name: string;
  background: string;
  messageColor: string;
  font: ThemeFont;
  plan: SubscriptionPlan;
};

export const SESSION_THEMES = [
  { id: 'classic', name: 'Night', background: '#0b1026', messageColor: '#00DC82', font: 'sans', plan: 'basic' },
  { id: 'paper', name: 'Paper', background: '#f5f1e8', messageColor: '#1f2937', font: 'serif', plan: 'basic' },
  { id: 'midnight', name: 'Midnight', background: '#000000', messageColor: '#f8fafc', font: 'sans', plan: 'basic' },
  { id: 'ocean', name: 'Ocean', background: '#0c3b5e', messageColor: '#7dd3fc', font: 'rounded', plan: 'intermediate' },
  { id: 'forest', name: 'Forest', background: '#12301f', messageColor: '#bbf7d0', font: 'serif', plan: 'intermediate' },
  { id: 'dawn', name: 'Dawn', background: '#3b1d3f', messageColor: '#fdba74', font: 'rounded', plan: 'intermediate' },
  { id: 'ember', name: 'Ember', background: '#2a0f0a', messageColor: '#fca5a5', font: 'sans', plan: 'intermediate' },
  {
    id: 'terminal',
    name: 'Terminal',
    background: '#050805',
    messageColor: '#4ade80',
    font: 'mono',
    plan: 'intermediate',
  },
] as const satisfies readonly SessionTheme[];

export type SessionThemeId = (typeof SESSION_THEMES)[number]['id'];
export const DEFAULT_THEME_ID: SessionThemeId = 'classic';

/** The player's settings before a person changes any: the server's and every device's starting point. */
export const DEFAULT_PLAYER_SETTINGS = {
  flashSpeed: PLAYER.flashSpeed.default,
  displayInterval: PLAYER.displayInterval.default,
  messageColor: PLAYER.messageColor.default,
  fontSize: PLAYER.fontSize.default,
  theme: DEFAULT_THEME_ID as string,
};
/** A theme of one's own: its background and font, kept in the settings (Intermediate and up). */
export const CUSTOM_THEME_ID = 'custom';

export const findTheme = (id: string): SessionTheme | undefined => SESSION_THEMES.find((theme) => theme.id === id);

/** The lowest plan that may use a theme: its own plan, or for a custom theme the plan of all themes. */
export const planOfTheme = (id: string): SubscriptionPlan => findTheme(id)?.plan ?? PLAN_FEATURES.allThemes;

/** A player's theme: a built-in one by its id, or a custom one with its background and font. */
export type ThemeChoice = { theme: string; customTheme?: { background: string; font: string } | undefined };

/** Whether two settings have the same theme (a custom one with the same background and font). */
export const sameTheme = (a: ThemeChoice, b: ThemeChoice): boolean =>
  a.theme === b.theme &&
  a.customTheme?.background === b.customTheme?.background &&
  a.customTheme?.font === b.customTheme?.font;
