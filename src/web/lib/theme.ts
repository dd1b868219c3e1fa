import { useSyncExternalStore } from 'react';
import { browserStorage } from './browser-storage.ts';

// Dark mode: the visitor's choice is kept; without one, the system preference decides.
// index.html applies the same rule before first paint, so the page never flashes.

export type Theme = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'innerwave.theme';

const listeners = new Set<() => void>();
const systemQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

function storedTheme(): Theme | null {
  const value = browserStorage.get(THEME_STORAGE_KEY);
  return value === 'dark' || value === 'light' ? value : null;
}

export function currentTheme(): Theme {
  return storedTheme() ?? (systemQuery().matches ? 'dark' : 'light');
}

function apply(theme: Theme) {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
  for (const listener of listeners) listener();
}

export function setTheme(theme: Theme) {
  browserStorage.set(THEME_STORAGE_KEY, theme);
  apply(theme);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const query = systemQuery();
  const onSystemChange = () => {
    if (!storedTheme()) apply(currentTheme());
  };
  query.addEventListener('change', onSystemChange);
  return () => {
    listeners.delete(listener);
    query.removeEventListener('change', onSystemChange);
  };
}

export const useTheme = () => useSyncExternalStore(subscribe, currentTheme, () => 'light' as Theme);
