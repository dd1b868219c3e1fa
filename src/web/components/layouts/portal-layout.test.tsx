import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { focusManager } from '@tanstack/react-query';
import type { AudioItem, OwnMusic } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { MEDIA_LINKS_REFETCH_MS } from '@web/lib/api-client';
import { sessionStore } from '@web/lib/session';
import { libraryListQuery, ownMusicQuery } from '@web/lib/audio/track-lists';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { fakeApi, renderRoutes, type ApiCall } from '@web/test/render';
import { PortalLayout } from './portal-layout';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

const item = (id: number, name: string): AudioItem => ({
  id,
  name,
  description: '',
  cover_image: null,
  audio_file: `http://x/media/audio/${id}.mp3`,
  date_added: '2026-01-01T00:00:00.000Z',
});

let library: AudioItem[];
let ownTracks: OwnMusic['tracks'];
let calls: ApiCall[];

beforeEach(() => {
  sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'maya@example.com');
  library = [item(1, '528 Hz'), item(2, '174 Hz')];
  ownTracks = [{ id: 7, name: 'Forest walk', url: 'http://x/own/7.mp3', bytes: 3, created_at: '' }];
  ({ calls } = fakeApi({
    [`GET ${API.selfeggio}`]: () => library,
    [`GET ${API.myMusic}`]: (): OwnMusic => ({ tracks: ownTracks, used_bytes: 3, max_bytes: 9, max_tracks: 50 }),
  }));
});
afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
  fakeEngine.reset();
  focusManager.setFocused(undefined);
  sessionStore.clear();
});

/** The person leaves the tab and comes back to it. */
const backOnTheTab = () =>
  act(() => {
    focusManager.setFocused(false);
    focusManager.setFocused(true);
  });

const listCalls = () => calls.filter((call) => call.path === API.selfeggio || call.path === API.myMusic).length;

/**
 * /profile in the portal, its lists as /music (or the saved sound that started the track) left them,
 * and what plays: `track`, with brown noise under it.
 */
async function profilePlaying(track: { key: string; title: string }) {
  const view = renderRoutes(
    [{ element: <PortalLayout />, children: [{ path: '/profile', element: <p>Profile page</p> }] }],
    { path: '/profile' },
  );
  view.queryClient.setQueryData(libraryListQuery('selfeggio').queryKey, library);
  view.queryClient.setQueryData(ownMusicQuery().queryKey, {
    tracks: ownTracks,
    used_bytes: 3,
    max_bytes: 9,
    max_tracks: 50,
  });
  await act(async () => {
    await fakeSoundEngine.setLayer('track', { kind: 'track', url: 'http://x/a.mp3', ...track }, 1);
    await fakeSoundEngine.setLayer('noise', { kind: 'noise', colour: 'brown' }, 0.25);
  });
  return view;
}

const nowPlaying = () => screen.getByRole('region', { name: 'Now playing' });

describe('PortalLayout: a track that is gone stops on whichever portal page it plays', () => {
  it('stops a library track staff removed once the person is back on the tab, says so once, and plays the rest on', async () => {
    await profilePlaying({ key: 'selfeggio:1', title: '528 Hz' });
    expect(nowPlaying()).toHaveTextContent('528 Hz + Brown noise');
    // What /music fetched is used: nothing is asked as the sound plays on.
    expect(listCalls()).toBe(0);

    library = [item(2, '174 Hz')];
    backOnTheTab();
    await vi.waitFor(() => expect(fakeEngine.state.layers.map((layer) => layer.id)).toEqual(['noise']));
    expect(toast.info).toHaveBeenCalledWith('\u2068528 Hz\u2069 stopped: it is no longer in the library.');
    expect(nowPlaying()).toHaveTextContent(/^Brown noise/);
    expect(fakeEngine.state.status).toBe('playing');

    // With no track playing, nothing more is fetched and nothing more is said.
    backOnTheTab();
    await act(async () => undefined);
    expect(listCalls()).toBe(1);
    expect(toast.info).toHaveBeenCalledTimes(1);
  });

  it('stops one’s own track deleted in another tab, when its music is fetched again on the hour', async () => {
    vi.useFakeTimers();
    await profilePlaying({ key: 'own:7', title: 'Forest walk' });
    ownTracks = [];
    await act(() => vi.advanceTimersByTimeAsync(MEDIA_LINKS_REFETCH_MS - 1));
    expect(listCalls()).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await vi.waitFor(() => expect(fakeEngine.state.layers.map((layer) => layer.id)).toEqual(['noise']));
    expect(calls.filter((call) => call.path === API.myMusic)).toHaveLength(1);
    expect(toast.info).toHaveBeenCalledWith('\u2068Forest walk\u2069 stopped: it is no longer in your music.');
  });

  it('fetches no list while no track plays, back on the tab or on the hour', async () => {
    vi.useFakeTimers();
    renderRoutes([{ element: <PortalLayout />, children: [{ path: '/profile', element: <p>Profile page</p> }] }], {
      path: '/profile',
    });
    await act(() => fakeSoundEngine.setLayer('noise', { kind: 'noise', colour: 'brown' }, 0.25));
    backOnTheTab();
    await act(() => vi.advanceTimersByTimeAsync(MEDIA_LINKS_REFETCH_MS * 2));
    expect(listCalls()).toBe(0);
    expect(fakeEngine.state.layers.map((layer) => layer.id)).toEqual(['noise']);
  });
});
