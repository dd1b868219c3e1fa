import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import type { AudioItem } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { MusicLibrary } from './music-library';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

// The engine stands in (the real one is measured in Chromium by e2e/sound-engine.spec.ts); a track's
// load resolves or fails when the test says so.
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

const item = (id: number, name: string): AudioItem => ({
  id,
  name,
  description: `${name} description`,
  cover_image: `http://x/media/covers/${id}.webp`,
  audio_file: `http://x/media/audio/${id}.mp3`,
  date_added: '2026-01-01T00:00:00.000Z',
});

let lists: Record<string, AudioItem[] | 'fail'>;

beforeEach(() => {
  fakeEngine.reset();
  fakeEngine.holdTracks = true;
  lists = {
    [API.selfeggio]: [item(1, '528 Hz'), item(2, '174 Hz')],
    [API.bonusAudio]: [item(3, 'Brown noise')],
    [API.customAudio]: [],
  };
  const answer = (path: string) => () => {
    const body = lists[path];
    return body === 'fail' ? jsonResponse(500, {}) : body;
  };
  fakeApi({
    ...Object.fromEntries(
      [API.selfeggio, API.bonusAudio, API.customAudio].map((path) => [`GET ${path}`, answer(path)]),
    ),
    [`GET ${API.plan}`]: () => planStateFor('basic'),
  });
});
afterEach(() => vi.clearAllMocks());

const card = (name: string) =>
  screen.getByRole('heading', { name: new RegExp(`^${name}`) }).closest('li') as HTMLElement;
const state = (name: string) => card(name).dataset.state;

describe('MusicLibrary', () => {
  it('goes idle → loading → playing ↔ paused, one track at a time, and shows where it is', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MusicLibrary />);
    await screen.findByRole('heading', { name: '528 Hz' });
    expect(screen.getByRole('heading', { name: 'Solfeggio' })).toBeInTheDocument();
    expect(state('528 Hz')).toBe('idle');

    // Pressed again while it loads, it stops loading (it never played: idle, not ended).
    await user.click(within(card('528 Hz')).getByRole('button', { name: 'Play 528 Hz' }));
    await user.click(within(card('528 Hz')).getByRole('button', { name: 'Stop loading 528 Hz' }));
    expect(fakeSoundEngine.removeLayer).toHaveBeenCalledWith('track', { neverPlayed: true });
    expect(state('528 Hz')).toBe('idle');

    await user.click(within(card('528 Hz')).getByRole('button', { name: 'Play 528 Hz' }));
    expect(state('528 Hz')).toBe('loading');
    expect(fakeEngine.state.layers[0]?.source).toEqual({
      kind: 'track',
      key: 'selfeggio:1',
      title: '528 Hz',
      url: 'http://x/media/audio/1.mp3',
    });
    // Basic plays one sound at a time: the track replaces whatever else plays.
    expect(fakeSoundEngine.setLayer).toHaveBeenLastCalledWith('track', expect.anything(), expect.any(Number), {
      exclusive: true,
    });
    await act(async () => fakeEngine.pending?.resolve());
    expect(state('528 Hz')).toBe('playing');
    expect(within(card('528 Hz')).getByText('Playing')).toBeInTheDocument();
    const seek = within(card('528 Hz')).getByRole('slider', { name: 'Seek 528 Hz' });
    expect(seek).toHaveAttribute('aria-valuetext', '0:12 of 1:00');
    expect(within(card('528 Hz')).getByText('0:12 / 1:00 · loops')).toBeInTheDocument();

    await user.click(within(card('528 Hz')).getByRole('button', { name: 'Pause 528 Hz' }));
    expect(state('528 Hz')).toBe('paused');
    expect(within(card('528 Hz')).getByText('Paused')).toBeInTheDocument();
    await user.click(within(card('528 Hz')).getByRole('button', { name: 'Play 528 Hz' }));
    expect(state('528 Hz')).toBe('playing');

    await user.click(within(card('Brown noise')).getByRole('button', { name: 'Play Brown noise' }));
    expect(state('528 Hz')).toBe('idle');
    expect(state('Brown noise')).toBe('loading');
  });

  it('shows the track of a session that ended as ended', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MusicLibrary />);
    await user.click(await screen.findByRole('button', { name: 'Play 174 Hz' }));
    await act(async () => fakeEngine.pending?.resolve());
    expect(state('174 Hz')).toBe('playing');
    act(() => fakeSoundEngine.stop());
    expect(state('174 Hz')).toBe('ended');
    expect(within(card('174 Hz')).getByText('Ended')).toBeInTheDocument();
    expect(within(card('174 Hz')).queryByRole('slider')).not.toBeInTheDocument();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('clears the item and says so when the track cannot play', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MusicLibrary />);
    await user.click(await screen.findByRole('button', { name: 'Play 174 Hz' }));
    await act(async () => fakeEngine.pending?.reject(new DOMException('no source', 'EncodingError')));
    expect(state('174 Hz')).toBe('idle');
    expect(toast.error).toHaveBeenCalledWith('Failed to play audio');
  });

  it('shows each list’s own load-failure toast', async () => {
    lists[API.bonusAudio] = 'fail';
    renderWithProviders(<MusicLibrary />);
    expect(await screen.findByText('There was an error fetching bonus audios!')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('There was an error fetching bonus audios!');
    expect(screen.getByRole('heading', { name: '528 Hz' })).toBeInTheDocument();
  });
});
