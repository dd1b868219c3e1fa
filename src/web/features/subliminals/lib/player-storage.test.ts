import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_THEME_ID } from '@shared/themes';
import { clampSettings, loadPlaylist, PLAYER_STORAGE_KEYS } from './player-storage';

const storePlaylist = (value: unknown) => localStorage.setItem(PLAYER_STORAGE_KEYS.playlist, JSON.stringify(value));

afterEach(() => localStorage.clear());

describe('loadPlaylist', () => {
  it('keeps every readable item, a sourceless one as the library’s, and leaves out the rest', () => {
    storePlaylist([
      { id: 1, message_text: 'I am calm.', source: 'own' },
      { id: 2, message_text: 'From before sources.' },
      { id: 0, message_text: 'Shared with me.', source: 'shared' },
      { id: 3, message_text: 'Unknown source.', source: 'elsewhere' },
      { id: 4.5, message_text: 'Not an id.' },
      { id: 5 },
      { id: '6', message_text: 'A string id.' },
      null,
      'I am a string',
    ]);
    expect(loadPlaylist()).toEqual([
      { id: 1, message_text: 'I am calm.', source: 'own' },
      { id: 2, message_text: 'From before sources.', source: 'library' },
      { id: 0, message_text: 'Shared with me.', source: 'shared' },
    ]);
  });

  it('is empty for nothing stored, a value that is not a list, or text that is not JSON', () => {
    expect(loadPlaylist()).toEqual([]);
    storePlaylist({ id: 1, message_text: 'Not in a list.' });
    expect(loadPlaylist()).toEqual([]);
    localStorage.setItem(PLAYER_STORAGE_KEYS.playlist, '[{"id":1,');
    expect(loadPlaylist()).toEqual([]);
  });
});

describe('clampSettings, custom theme', () => {
  it('keeps a custom theme with a #rrggbb background and a known font, and only those two', () => {
    const settings = clampSettings({
      theme: 'custom',
      customTheme: { background: '#1A2b3C', font: 'serif', extra: 'dropped' },
    });
    expect(settings.theme).toBe('custom');
    expect(settings.customTheme).toEqual({ background: '#1A2b3C', font: 'serif' });
  });

  it.each([
    ['no custom theme', undefined],
    ['a short colour', { background: '#123', font: 'sans' }],
    ['a named colour', { background: 'red', font: 'sans' }],
    ['an unknown font', { background: '#112233', font: 'comic' }],
    ['an inherited name for a font', { background: '#112233', font: 'toString' }],
  ])('falls back to the default theme for %s', (_, customTheme) => {
    const settings = clampSettings({ theme: 'custom', customTheme });
    expect(settings.theme).toBe(DEFAULT_THEME_ID);
    expect(settings.customTheme).toBeUndefined();
  });
});
