import { PLAYER } from '@shared/constants';
import { snapToStep } from '@shared/numbers';
import type { PlaylistItemWrite, PlaylistSource, CustomTheme, Message } from '@shared/contract';
import { PLAYLIST_SOURCES } from '@shared/contract/portal-plain';
import {
  CUSTOM_THEME_ID,
  DEFAULT_PLAYER_SETTINGS,
  DEFAULT_THEME_ID,
  findTheme,
  sameTheme,
  THEME_FONTS,
  type ThemeChoice,
  type ThemeFont,
} from '@shared/themes';
import { browserStorage } from '@web/lib/browser-storage';

// The playlist and settings stay on this device (localStorage) until the session ends; anything
// unreadable falls back to the defaults, and settings are clamped to their limits. Checked by hand,
// as the contract's schemas would check them, so the player's page loads no zod
// (docs/decisions/030-the-browser-reads-answers-the-server-checked.md).

export const PLAYER_STORAGE_KEYS = {
  playlist: 'innerwave.subliminals.playlist',
  settings: 'innerwave.subliminals.settings',
  noticeAccepted: 'innerwave.subliminals.photosensitivity-accepted',
  /** Set while this device holds a change the account has not taken yet (it could not be reached). */
  unsynced: 'innerwave.subliminals.unsynced',
} as const;

export interface PlayerSettings {
  flashSpeed: number;
  displayInterval: number;
  messageColor: string;
  fontSize: number;
  /** A built-in theme's id, or "custom" with `customTheme` (docs/product/content.md#themes). */
  theme: string;
  customTheme?: CustomTheme;
}

export const DEFAULT_SETTINGS: PlayerSettings = DEFAULT_PLAYER_SETTINGS;

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A custom theme as `customThemeSchema` takes it: a #rrggbb background and one of the fonts. */
function readCustomTheme(value: unknown): CustomTheme | undefined {
  if (!isRecord(value)) return undefined;
  const { background, font } = value;
  if (typeof background !== 'string' || !HEX_COLOR.test(background)) return undefined;
  if (typeof font !== 'string' || !Object.hasOwn(THEME_FONTS, font)) return undefined;
  return { background, font: font as ThemeFont };
}

/** A known theme, or a custom one with its background and font; anything else is the default. */
function themeOf(input: Partial<Record<keyof PlayerSettings, unknown>>): Pick<PlayerSettings, 'theme' | 'customTheme'> {
  if (input.theme === CUSTOM_THEME_ID) {
    const customTheme = readCustomTheme(input.customTheme);
    if (customTheme) return { theme: CUSTOM_THEME_ID, customTheme };
  }
  return { theme: typeof input.theme === 'string' && findTheme(input.theme) ? input.theme : DEFAULT_THEME_ID };
}

/** Brings any settings into their limits (ranges, steps, a #rrggbb colour, a known theme). */
export function clampSettings(input: Partial<Record<keyof PlayerSettings, unknown>>): PlayerSettings {
  const number = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return {
    flashSpeed: snapToStep(number(input.flashSpeed, DEFAULT_SETTINGS.flashSpeed), PLAYER.flashSpeed),
    displayInterval: snapToStep(
      number(input.displayInterval, DEFAULT_SETTINGS.displayInterval),
      PLAYER.displayInterval,
    ),
    messageColor:
      typeof input.messageColor === 'string' && HEX_COLOR.test(input.messageColor)
        ? input.messageColor
        : DEFAULT_SETTINGS.messageColor,
    fontSize: snapToStep(number(input.fontSize, DEFAULT_SETTINGS.fontSize), PLAYER.fontSize),
    ...themeOf(input),
  };
}

/** Whether two settings are the same settings (the theme compared as `sameTheme` does). */
export const sameSettings = (a: PlayerSettings, b: PlayerSettings): boolean =>
  a.flashSpeed === b.flashSpeed &&
  a.displayInterval === b.displayInterval &&
  a.messageColor === b.messageColor &&
  a.fontSize === b.fontSize &&
  sameTheme(a, b);

function readJson(key: string): unknown {
  try {
    const text = browserStorage.get(key);
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A message in the playlist, and where it came from: the library, the person's own messages, or a
 * shared link (whose messages have no id of the person's; theirs is their place in it).
 */
export type PlaylistItem = Message & { source: PlaylistSource };

/** A stored playlist item; one from before items had a source came from the library. */
function readPlaylistItem(value: unknown): PlaylistItem | undefined {
  if (!isRecord(value)) return undefined;
  const { id, message_text, source = 'library' } = value;
  if (typeof id !== 'number' || !Number.isInteger(id) || typeof message_text !== 'string') return undefined;
  return PLAYLIST_SOURCES.some((known) => known === source)
    ? { id, message_text, source: source as PlaylistSource }
    : undefined;
}

/** The playlist as the server keeps it (the player, a saved subliminal), and back. */
export const playlistToServer = (playlist: readonly PlaylistItem[]): PlaylistItemWrite[] =>
  playlist.map(({ id, message_text, source }) => ({ message_text, source, message_id: id }));
export const playlistFromServer = (items: readonly PlaylistItemWrite[]): PlaylistItem[] =>
  items.map(({ message_id, message_text, source }) => ({ id: message_id, message_text, source }));

/** The stored playlist, without any item that cannot be read. */
export function loadPlaylist(): PlaylistItem[] {
  const stored = readJson(PLAYER_STORAGE_KEYS.playlist);
  if (!Array.isArray(stored)) return [];
  return stored.map(readPlaylistItem).filter((item): item is PlaylistItem => item !== undefined);
}

export function savePlaylist(playlist: readonly PlaylistItem[]): void {
  browserStorage.set(PLAYER_STORAGE_KEYS.playlist, JSON.stringify(playlist));
}

export function loadSettings(): PlayerSettings {
  const stored = readJson(PLAYER_STORAGE_KEYS.settings);
  return clampSettings(stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {});
}

export function saveSettings(settings: PlayerSettings): void {
  browserStorage.set(PLAYER_STORAGE_KEYS.settings, JSON.stringify(settings));
}

/**
 * A change this device holds that the account has not taken yet (it could not be reached) is marked
 * with the time of the account's player it was made over ("" when it held none), so it is saved on the
 * next visit only while nothing else was saved since (another device, a share link's Play).
 */
export const unsyncedChangeOver = (): string | null => browserStorage.get(PLAYER_STORAGE_KEYS.unsynced);
export function markUnsyncedChange(over: string | null): void {
  if (over === null) browserStorage.remove(PLAYER_STORAGE_KEYS.unsynced);
  else browserStorage.set(PLAYER_STORAGE_KEYS.unsynced, over);
}

export const noticeAccepted = () => browserStorage.get(PLAYER_STORAGE_KEYS.noticeAccepted) === 'yes';
export const acceptNotice = () => {
  browserStorage.set(PLAYER_STORAGE_KEYS.noticeAccepted, 'yes');
};

export { sessionLook } from './session-look';

/**
 * The settings with a theme the plan has: a theme of a higher plan gives way to the default, unless
 * it is the one `kept` (what the account's player holds): after a downgrade the player keeps its
 * theme until another is chosen, as the server does (docs/product/plans.md).
 */
export function withThemeOfPlan(settings: PlayerSettings, allThemes: boolean, kept?: ThemeChoice): PlayerSettings {
  if (allThemes || findTheme(settings.theme)?.plan === 'basic') return settings;
  if (kept && sameTheme(settings, kept)) return settings;
  return { ...settings, theme: DEFAULT_THEME_ID, customTheme: undefined };
}
