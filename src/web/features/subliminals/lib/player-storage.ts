import { z } from 'zod';
import { PLAYER } from '@shared/constants';
import { messageSchema, type Message } from '@shared/contract';

// The playlist and settings stay on this device (localStorage) until the session ends; anything
// unreadable falls back to the defaults, and settings are clamped to their limits.

export const PLAYER_STORAGE_KEYS = {
  playlist: 'innerwave.subliminals.playlist',
  settings: 'innerwave.subliminals.settings',
  noticeAccepted: 'innerwave.subliminals.photosensitivity-accepted',
} as const;

export interface PlayerSettings {
  flashSpeed: number;
  displayInterval: number;
  messageColor: string;
  fontSize: number;
}

export const DEFAULT_SETTINGS: PlayerSettings = {
  flashSpeed: PLAYER.flashSpeed.default,
  displayInterval: PLAYER.displayInterval.default,
  messageColor: PLAYER.messageColor.default,
  fontSize: PLAYER.fontSize.default,
};

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

const snap = (value: number, min: number, step: number, max = Number.POSITIVE_INFINITY) =>
  Math.min(max, Math.max(min, min + Math.round((value - min) / step) * step));

/** Brings any settings into their limits (ranges, steps, a #rrggbb colour). */
export function clampSettings(input: Partial<Record<keyof PlayerSettings, unknown>>): PlayerSettings {
  const number = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return {
    flashSpeed: snap(
      number(input.flashSpeed, DEFAULT_SETTINGS.flashSpeed),
      PLAYER.flashSpeed.min,
      PLAYER.flashSpeed.step,
      PLAYER.flashSpeed.max,
    ),
    displayInterval: snap(
      number(input.displayInterval, DEFAULT_SETTINGS.displayInterval),
      PLAYER.displayInterval.min,
      PLAYER.displayInterval.step,
      PLAYER.displayInterval.max,
    ),
    messageColor:
      typeof input.messageColor === 'string' && HEX_COLOR.test(input.messageColor)
        ? input.messageColor
        : DEFAULT_SETTINGS.messageColor,
    fontSize: snap(
      number(input.fontSize, DEFAULT_SETTINGS.fontSize),
      PLAYER.fontSize.min,
      PLAYER.fontSize.step,
      PLAYER.fontSize.max,
    ),
  };
}

function readJson(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A message in the playlist, and whether it came from the library or the person's own messages. */
export type PlaylistItem = Message & { source: 'library' | 'own' };

const playlistSchema = z.array(messageSchema.extend({ source: z.enum(['library', 'own']).default('library') }));

export function loadPlaylist(): PlaylistItem[] {
  const parsed = playlistSchema.safeParse(readJson(PLAYER_STORAGE_KEYS.playlist));
  return parsed.success ? parsed.data : [];
}

export function savePlaylist(playlist: readonly PlaylistItem[]): void {
  localStorage.setItem(PLAYER_STORAGE_KEYS.playlist, JSON.stringify(playlist));
}

export function loadSettings(): PlayerSettings {
  const stored = readJson(PLAYER_STORAGE_KEYS.settings);
  return clampSettings(stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {});
}

export function saveSettings(settings: PlayerSettings): void {
  localStorage.setItem(PLAYER_STORAGE_KEYS.settings, JSON.stringify(settings));
}

export const noticeAccepted = () => localStorage.getItem(PLAYER_STORAGE_KEYS.noticeAccepted) === 'yes';
export const acceptNotice = () => localStorage.setItem(PLAYER_STORAGE_KEYS.noticeAccepted, 'yes');
