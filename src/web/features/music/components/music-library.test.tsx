import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { focusManager } from '@tanstack/react-query';
import type { AudioItem, OwnMusic } from '@shared/contract';
import type { SubscriptionPlan } from '@shared/constants';
import { API } from '@shared/contract/paths';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { useStopGoneTracks } from '@web/lib/audio/use-stop-gone-tracks';
import { sessionStore } from '@web/lib/session';
import { LIBRARY_PREPARING, LIBRARY_STILL_PREPARING } from './audio-list';
import { MusicLibrary } from './music-library';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

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
let plan: SubscriptionPlan;
let ownTracks: OwnMusic['tracks'];
let preparing: boolean;

beforeEach(() => {
  fakeEngine.reset();
  fakeEngine.holdTracks = true;
  lists = {
    [API.selfeggio]: [item(1, '528 Hz'), item(2, '174 Hz')],
    [API.bonusAudio]: [item(3, 'Brown noise')],
    [API.customAudio]: [],
  };
  plan = 'basic';
  ownTracks = [];
  preparing = false;
  const answer = (path: string) => () => {
    const body = lists[path];
    return body === 'fail' ? jsonResponse(500, {}) : body;
  };
  fakeApi({
    ...Object.fromEntries(
      [API.selfeggio, API.bonusAudio, API.customAudio].map((path) => [`GET ${path}`, answer(path)]),
    ),
    [`GET ${API.plan}`]: () => planStateFor(plan),
    [`GET ${API.audioLibrary}`]: () => ({ preparing }),
    [`GET ${API.myMusic}`]: (): OwnMusic => ({ tracks: ownTracks, used_bytes: 0, max_bytes: 1, max_tracks: 50 }),
  });
});
afterEach(() => {
  vi.clearAllMocks();
  focusManager.setFocused(undefined);
});

/** The person leaves the tab and comes back to it: the lists are fetched again. */
const backOnTheTab = () =>
  act(() => {
    focusManager.setFocused(false);
    focusManager.setFocused(true);
  });

/** /music as the portal shows it: its layout stops a track that is gone (lib/audio/use-stop-gone-tracks.ts). */
function MusicInThePortal() {
  useStopGoneTracks();
  return <MusicLibrary />;
}

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
    // An arrow key moves it a second, a step its value read out tells.
    expect(seek).toHaveAttribute('step', '1');
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

  it('says nothing of a track that fails once the person has signed out (decision 085)', async () => {
    const user = userEvent.setup();
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    renderWithProviders(<MusicLibrary />);
    await user.click(await screen.findByRole('button', { name: 'Play 174 Hz' }));
    act(() => sessionStore.clear());
    await act(async () => fakeEngine.pending?.reject(new DOMException('The sound was stopped.', 'AbortError')));
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('stops a library track staff removed while it played, once the list is fetched again, and says so once', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MusicInThePortal />);
    await user.click(await screen.findByRole('button', { name: 'Play 528 Hz' }));
    await act(async () => fakeEngine.pending?.resolve());
    expect(state('528 Hz')).toBe('playing');
    // Another library losing a track stops nothing.
    lists[API.bonusAudio] = [];
    backOnTheTab();
    await vi.waitFor(() => expect(screen.queryByRole('heading', { name: 'Brown noise' })).not.toBeInTheDocument());
    expect(state('528 Hz')).toBe('playing');

    lists[API.selfeggio] = [item(2, '174 Hz')];
    backOnTheTab();
    await vi.waitFor(() => expect(screen.queryByRole('heading', { name: /^528 Hz/ })).not.toBeInTheDocument());
    expect(fakeEngine.state.layers).toEqual([]);
    expect(toast.info).toHaveBeenCalledWith('\u2068528 Hz\u2069 stopped: it is no longer in the library.');
    backOnTheTab();
    await act(async () => undefined);
    expect(toast.info).toHaveBeenCalledTimes(1);
  });

  it('stops an own track deleted in another tab while it played, once the music is fetched again', async () => {
    plan = 'pro';
    ownTracks = [{ id: 7, name: 'Forest walk', url: 'http://x/own/7.mp3', bytes: 3, created_at: '' }];
    const user = userEvent.setup();
    renderWithProviders(<MusicInThePortal />);
    await user.click(await screen.findByRole('button', { name: 'Play Forest walk' }));
    await act(async () => fakeEngine.pending?.resolve());
    expect(state('Forest walk')).toBe('playing');

    ownTracks = [];
    backOnTheTab();
    await vi.waitFor(() => expect(fakeEngine.state.layers).toEqual([]));
    expect(toast.info).toHaveBeenCalledWith('\u2068Forest walk\u2069 stopped: it is no longer in your music.');
    expect(toast.info).toHaveBeenCalledTimes(1);
  });

  it('says a list is being prepared while the seeded library is built, not that it has no tracks, and shows the tracks as they come', async () => {
    preparing = true;
    renderWithProviders(<MusicLibrary />);
    const custom = () => screen.getByRole('heading', { name: 'Custom' }).closest('section') as HTMLElement;
    const solfeggio = () => screen.getByRole('heading', { name: 'Solfeggio' }).closest('section') as HTMLElement;
    expect(await within(custom()).findByText(LIBRARY_PREPARING)).toBeInTheDocument();
    expect(screen.queryByText('No tracks here yet.')).not.toBeInTheDocument();
    // A list with some of its tracks says more may come.
    expect(within(solfeggio()).getByText(LIBRARY_STILL_PREPARING)).toBeInTheDocument();

    // The page asks again every few seconds, reading the lists anew; ready, it says what there is.
    lists[API.customAudio] = [item(5, 'Ocean')];
    preparing = false;
    await vi.waitFor(() => expect(within(custom()).getByRole('heading', { name: 'Ocean' })).toBeInTheDocument(), {
      timeout: 8_000,
    });
    expect(screen.queryByText(LIBRARY_PREPARING)).not.toBeInTheDocument();
    expect(screen.queryByText(LIBRARY_STILL_PREPARING)).not.toBeInTheDocument();
  }, 15_000);

  it('says "No tracks here yet." of an empty list once the library is ready', async () => {
    renderWithProviders(<MusicLibrary />);
    expect(await screen.findByText('No tracks here yet.')).toBeInTheDocument();
    expect(screen.queryByText(LIBRARY_PREPARING)).not.toBeInTheDocument();
  });

  it('says each list’s own load failure once, in its place, not again in a toast', async () => {
    lists[API.bonusAudio] = 'fail';
    renderWithProviders(<MusicLibrary />);
    expect(await screen.findByText('There was an error fetching bonus audios!')).toBeInTheDocument();
    expect(toast.error).not.toHaveBeenCalledWith('There was an error fetching bonus audios!');
    expect(screen.getByRole('heading', { name: '528 Hz' })).toBeInTheDocument();
  });
});
