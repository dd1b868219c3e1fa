import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { API, type AudioItem } from '@shared/contract';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import type { AudioElement } from '../hooks/use-audio-player';
import { MusicLibrary } from './music-library';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const item = (id: number, name: string): AudioItem => ({
  id,
  name,
  description: `${name} description`,
  cover_image: `http://x/media/covers/${id}.webp`,
  audio_file: `http://x/media/audio/${id}.mp3`,
  date_added: '2026-01-01T00:00:00.000Z',
});

/** An <audio> stand-in: play() resolves when the test says so; events are fired by hand. */
class FakeAudio extends EventTarget implements AudioElement {
  src = '';
  pending: { resolve(): void; reject(error: unknown): void } | undefined;
  play = vi.fn(() => new Promise<void>((resolve, reject) => (this.pending = { resolve, reject })));
  pause = vi.fn(() => {
    this.dispatchEvent(new Event('pause'));
  });
  load = vi.fn();
  removeAttribute = vi.fn();
  fire(type: string) {
    this.dispatchEvent(new Event(type));
  }
}

let audio: FakeAudio;
let lists: Record<string, AudioItem[] | 'fail'>;

beforeEach(() => {
  audio = new FakeAudio();
  lists = {
    [API.selfeggio]: [item(1, '528 Hz'), item(2, '174 Hz')],
    [API.bonusAudio]: [item(3, 'Brown noise')],
    [API.customAudio]: [],
  };
  const answer = (path: string) => () => {
    const body = lists[path];
    return body === 'fail' ? jsonResponse(500, {}) : body;
  };
  fakeApi(
    Object.fromEntries([API.selfeggio, API.bonusAudio, API.customAudio].map((path) => [`GET ${path}`, answer(path)])),
  );
});
afterEach(() => vi.mocked(toast.error).mockClear());

const renderLibrary = () => renderWithProviders(<MusicLibrary createAudio={() => audio as unknown as AudioElement} />);

const card = (name: string) => screen.getByRole('heading', { name }).closest('li') as HTMLElement;
const state = (name: string) => card(name).dataset.state;

describe('MusicLibrary', () => {
  it('goes absent → loading → playing ↔ paused, one item at a time', async () => {
    const user = userEvent.setup();
    renderLibrary();
    await screen.findByRole('heading', { name: '528 Hz' });
    expect(screen.getByRole('heading', { name: 'Solfeggio' })).toBeInTheDocument();
    expect(state('528 Hz')).toBe('idle');

    await user.click(within(card('528 Hz')).getByRole('button', { name: 'Play 528 Hz' }));
    expect(state('528 Hz')).toBe('loading');
    expect(audio.src).toBe('http://x/media/audio/1.mp3');
    await act(async () => audio.pending?.resolve());
    expect(state('528 Hz')).toBe('playing');

    await user.click(within(card('528 Hz')).getByRole('button', { name: 'Pause 528 Hz' }));
    expect(state('528 Hz')).toBe('paused');
    await user.click(within(card('528 Hz')).getByRole('button', { name: 'Play 528 Hz' }));
    expect(state('528 Hz')).toBe('loading');
    await act(async () => audio.pending?.resolve());
    expect(state('528 Hz')).toBe('playing');

    await user.click(within(card('Brown noise')).getByRole('button', { name: 'Play Brown noise' }));
    expect(state('528 Hz')).toBe('idle');
    expect(state('Brown noise')).toBe('loading');
    expect(audio.src).toBe('http://x/media/audio/3.mp3');
  });

  it('clears the item when it ends', async () => {
    const user = userEvent.setup();
    renderLibrary();
    await user.click(await screen.findByRole('button', { name: 'Play 174 Hz' }));
    await act(async () => audio.pending?.resolve());
    expect(state('174 Hz')).toBe('playing');
    act(() => audio.fire('ended'));
    expect(state('174 Hz')).toBe('idle');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('clears the item and says so when playing fails', async () => {
    const user = userEvent.setup();
    renderLibrary();
    await user.click(await screen.findByRole('button', { name: 'Play 174 Hz' }));
    await act(async () => audio.pending?.reject(new DOMException('no source', 'NotSupportedError')));
    expect(state('174 Hz')).toBe('idle');
    expect(toast.error).toHaveBeenCalledWith('Failed to play audio');

    await user.click(screen.getByRole('button', { name: 'Play 174 Hz' }));
    act(() => audio.fire('error'));
    expect(state('174 Hz')).toBe('idle');
    expect(toast.error).toHaveBeenCalledTimes(2);
  });

  it('shows each list’s own load-failure toast', async () => {
    lists[API.bonusAudio] = 'fail';
    renderLibrary();
    expect(await screen.findByText('There was an error fetching bonus audios!')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('There was an error fetching bonus audios!');
    expect(screen.getByRole('heading', { name: '528 Hz' })).toBeInTheDocument();
  });
});
