import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect } from 'react';
import { onlineManager, useQuery } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import type { MessageCategory, PlayerState, PlayerWrite } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { floatingSession } from '@web/lib/floating-session';
import { usePortalShown } from '@web/lib/portal-presence';
import { OFFLINE_WAIT_MESSAGE } from '@web/components/ui/spinner';
import {
  fakeApi,
  jsonResponse,
  planStateFor,
  pressToastAction,
  renderRoutes,
  renderWithProviders,
} from '@web/test/render';
import { playerQuery } from '../api/player';
import { PLAYER_STORAGE_KEYS } from '../lib/player-storage';
import { SubliminalsPlayer } from './subliminals-player';
import { everyElementShown } from '@web/test/shown';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));

const CATEGORIES: MessageCategory[] = [
  {
    id: 1,
    name: 'Calm',
    messages: [
      { id: 11, message_text: 'I breathe slowly.' },
      { id: 12, message_text: 'This moment is enough.' },
    ],
  },
  { id: 2, name: 'Focus', messages: [{ id: 21, message_text: 'One thing at a time.' }] },
];

const DEFAULT_SETTINGS = {
  flashSpeed: 100,
  displayInterval: 2000,
  messageColor: '#00DC82',
  fontSize: 20,
  theme: 'classic',
};

let fail = false;
/** The player as the server holds it, and how it answers a save (the state saved, or another answer). */
let server: {
  state: PlayerState;
  onSave: (body: PlayerWrite) => PlayerState | Response | Promise<PlayerState | Response>;
};
let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  fail = false;
  server = {
    state: { playlist: [], settings: DEFAULT_SETTINGS, updated_at: null },
    onSave: (body) => (server.state = { ...body, updated_at: new Date().toISOString() }),
  };
  api = fakeApi({
    [`GET ${API.messageCategories}`]: () => (fail ? jsonResponse(500, {}) : CATEGORIES),
    [`GET ${API.myCategories}`]: () => [],
    [`GET ${API.player}`]: () => server.state,
    [`PUT ${API.player}`]: ({ body }) => server.onSave(body as PlayerWrite),
  });
});
afterEach(() => {
  // navigator.onLine, as a test set it.
  vi.restoreAllMocks();
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
  // The session outlives the page and its screen's host, as in the app, where only the portal's end ends it.
  act(() => floatingSession.end());
});

/** A portal layout's part in the session: while one shows, the person is in the portal. */
function PortalShown() {
  usePortalShown(true);
  return <Outlet />;
}

// The session screen shows above the routes (the test's router has the app's root, which shows it).
const renderPlayer = () => renderWithProviders(<SubliminalsPlayer />);

/**
 * Sends the session screen to its corner and waits for it there: it goes once the Back off its history entry
 * lands (lib/session-entry.ts), which on a loaded machine can come after the click's own work is done.
 */
async function toCorner(user: ReturnType<typeof userEvent.setup>) {
  const overlay = screen.getByTestId('flash-overlay');
  await user.click(within(overlay).getByRole('button', { name: 'In a corner' }));
  await waitFor(() => expect(overlay).toHaveAttribute('data-mode', 'corner'));
}
describe('SubliminalsPlayer', () => {
  it('opens one category at a time and closes the open one on a second click', async () => {
    const user = userEvent.setup();
    renderPlayer();
    const calm = await screen.findByRole('button', { name: /^Calm/ });
    await user.click(calm);
    expect(screen.getByText('I breathe slowly.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: /^Focus/ }));
    expect(screen.queryByText('I breathe slowly.')).toBeNull();
    expect(screen.getByText('One thing at a time.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: /^Focus/ }));
    expect(screen.queryByText('One thing at a time.')).toBeNull();
  });

  it('opens the category its address names (a recommendation’s link), and none for one it does not list', async () => {
    const { unmount } = renderWithProviders(<SubliminalsPlayer />, { path: '/subliminals?category=2' });
    expect(await screen.findByText('One thing at a time.')).toBeVisible();
    expect(screen.getByRole('button', { name: /^Focus/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByText('I breathe slowly.')).toBeNull();
    unmount();
    for (const named of ['99', 'abc', '-1', '2.0']) {
      const other = renderWithProviders(<SubliminalsPlayer />, { path: `/subliminals?category=${named}` });
      expect(await screen.findByRole('button', { name: /^Focus/ })).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByText('One thing at a time.')).toBeNull();
      other.unmount();
    }
  });

  it('adds whole categories (duplicates allowed), removes one, clears all, and keeps the playlist', async () => {
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Calm to playlist' }));
    expect(toast.success).toHaveBeenCalledWith('Added \u2068Calm\u2069 messages to playlist!');
    // Once in the playlist, the button says so, and adding again asks first.
    await user.click(screen.getByRole('button', { name: 'Added Calm to playlist: add it again' }));
    const again = await screen.findByRole('dialog', { name: 'Add Calm again?' });
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(2)');
    await user.click(screen.getByRole('button', { name: 'Added Calm to playlist: add it again' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Add again' }));
    expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(4)');
    await user.click(screen.getAllByRole('button', { name: 'Remove “I breathe slowly.” from playlist' })[0]!);
    expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(3)');
    expect(JSON.parse(localStorage.getItem(PLAYER_STORAGE_KEYS.playlist)!)).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(0)');
    // Clearing can be undone from its toast.
    act(() => pressToastAction('Playlist cleared.'));
    expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(3)');
  });

  it('puts back what each of two clears took, keeping what came since, in the order all came, either Undo first', async () => {
    const user = userEvent.setup();
    renderPlayer();
    const playlist = () =>
      screen
        .queryAllByRole('button', { name: /^Remove “.*” from playlist$/ })
        .map((button) => button.getAttribute('aria-label'));
    const cleared = () => vi.mocked(toast.success).mock.calls.filter(([said]) => said === 'Playlist cleared.');
    const undo = (which: number) =>
      act(() =>
        (cleared()[which]![1] as { action: { onClick: (event: object) => void } }).action.onClick({
          preventDefault: () => undefined,
        }),
      );

    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await user.click(screen.getByRole('button', { name: 'Add Calm to playlist' }));
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await user.click(screen.getByRole('button', { name: 'Add Focus to playlist' }));
    // The older Undo keeps Focus added since (it put back Focus alone, over it, before).
    undo(0);
    expect(playlist()).toEqual([
      'Remove “One thing at a time.” from playlist',
      'Remove “One thing at a time.” from playlist',
    ]);
    undo(1);
    expect(playlist()).toEqual([
      'Remove “One thing at a time.” from playlist',
      'Remove “I breathe slowly.” from playlist',
      'Remove “This moment is enough.” from playlist',
      'Remove “One thing at a time.” from playlist',
    ]);
  });

  it('offers Start with an empty playlist as unavailable, saying why beside it, still reachable by keyboard', async () => {
    const user = userEvent.setup();
    renderPlayer();
    const start = screen.getByRole('button', { name: 'Start' });
    expect(start).toHaveAttribute('aria-disabled', 'true');
    expect(start).toHaveAccessibleDescription('Please add messages to the playlist before playing.');
    expect(screen.getByText('Please add messages to the playlist before playing.')).toBeVisible();
    start.focus();
    expect(start).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.click(start);
    expect(screen.queryByTestId('flash-overlay')).toBeNull();
    expect(toast.error).not.toHaveBeenCalled();
    // A message makes it available, and the reason gives way to the count.
    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    expect(start).not.toHaveAttribute('aria-disabled');
    expect(start).not.toHaveAccessibleDescription();
    expect(screen.getByText('1 message in the playlist')).toBeInTheDocument();
  });

  it('removes one message and leaves every other row of the playlist as it was, not built anew', async () => {
    const user = userEvent.setup();
    server.state = {
      playlist: ['First.', 'Second.', 'Third.'].map((text, i) => ({
        message_text: text,
        source: 'own',
        message_id: i + 1,
      })),
      settings: DEFAULT_SETTINGS,
      updated_at: '2026-11-20T08:00:00.000Z',
    };
    renderPlayer();
    const playlist = await screen.findByRole('region', { name: /Playlist/ });
    const second = (await within(playlist).findByText('Second.')).closest('li');
    const third = within(playlist).getByText('Third.').closest('li');
    await user.click(within(playlist).getByRole('button', { name: 'Remove “First.” from playlist' }));
    expect(within(playlist).queryByText('First.')).toBeNull();
    expect(within(playlist).getByText('Second.').closest('li')).toBe(second);
    expect(within(playlist).getByText('Third.').closest('li')).toBe(third);
  });

  it('asks before the first start, then flashes; Escape stops', async () => {
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) =>
      setTimeout(() => callback(performance.now()), 16),
    );
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => clearTimeout(handle));
    localStorage.setItem(PLAYER_STORAGE_KEYS.settings, JSON.stringify({ flashSpeed: 1500, displayInterval: 2000 }));
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await user.click(await screen.findByRole('button', { name: 'I understand, start' }));
    expect(await screen.findByTestId('flash-message')).toHaveTextContent('One thing at a time.');
    await user.keyboard('{Escape}');
    // Once the session's history entry is gone (docs/decisions/059-back-stops-the-session-screen.md).
    await waitFor(() => expect(screen.queryByTestId('flash-overlay')).toBeNull());
    // Remembered: the next start needs no notice.
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByTestId('flash-overlay')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'I understand, start' })).toBeNull();
    // While it runs (the page stays usable with the session in a corner), Start is not offered again.
    expect(screen.getByRole('button', { name: 'Start' })).toBeDisabled();
    act(() => within(screen.getByTestId('flash-overlay')).getByRole('button', { name: 'Stop' }).click());
    await waitFor(() => expect(screen.queryByTestId('flash-overlay')).toBeNull());
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled();
  });

  it('starts with settings as they are, writing nothing again, and snaps a number still in its field', async () => {
    const shown = vi.spyOn(floatingSession, 'show');
    localStorage.setItem(PLAYER_STORAGE_KEYS.noticeAccepted, 'yes');
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    await vi.waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Saved to your account'));
    const written = vi.spyOn(Storage.prototype, 'setItem');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByTestId('flash-overlay')).toBeInTheDocument();
    // The screen is given its playlist and settings once, not again with the page's render that follows.
    expect(shown).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(written.mock.calls.filter(([key]) => key === PLAYER_STORAGE_KEYS.settings)).toEqual([]);
    expect(api.calls.filter(({ method }) => method === 'PUT')).toHaveLength(1);
    act(() => within(screen.getByTestId('flash-overlay')).getByRole('button', { name: 'Stop' }).click());

    // 1234 typed and Start pressed at once: it plays, and is kept, as 1000, the step under it.
    await user.type(screen.getByLabelText('Display interval (ms)'), '1234', {
      initialSelectionStart: 0,
      initialSelectionEnd: 4,
    });
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByLabelText('Display interval (ms)')).toHaveValue(1000);
    expect(JSON.parse(localStorage.getItem(PLAYER_STORAGE_KEYS.settings)!)).toMatchObject({ displayInterval: 1000 });
    written.mockRestore();
    shown.mockRestore();
    act(() => within(screen.getByTestId('flash-overlay')).getByRole('button', { name: 'Stop' }).click());
  });

  it('gives the session screen its playlist once when Start is pressed before the page has settled', async () => {
    localStorage.setItem(PLAYER_STORAGE_KEYS.noticeAccepted, 'yes');
    const save = server.onSave;
    let answer!: () => void;
    server.onSave = (body) => new Promise((resolve) => (answer = () => resolve(save(body))));
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    expect(await screen.findByText('Saving…')).toBeInTheDocument();
    const shown = vi.spyOn(floatingSession, 'show');
    // Start is pressed the moment the save's answer is drawn, before React has run that render's effects.
    const startOnSaved = new MutationObserver(() => {
      if (!screen.queryByText('Saved to your account')) return;
      startOnSaved.disconnect();
      screen.getByRole('button', { name: 'Start' }).click();
    });
    startOnSaved.observe(document.body, { childList: true, subtree: true, characterData: true });
    answer();
    await waitFor(() => expect(screen.getByTestId('flash-overlay')).toBeInTheDocument());
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(shown).toHaveBeenCalledTimes(1);
  });

  it('goes on in its corner on another portal page, and the page finds it running when the person comes back', async () => {
    localStorage.setItem(PLAYER_STORAGE_KEYS.noticeAccepted, 'yes');
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [
        {
          // The portal's layout, as far as the session is concerned: it shows (the session is above the routes).
          element: <PortalShown />,
          children: [
            { path: '/subliminals', element: <SubliminalsPlayer /> },
            { path: '/music', element: <h1>Meditations</h1> },
          ],
        },
      ],
      { path: '/subliminals' },
    );
    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await toCorner(user);
    await act(() => router.navigate('/music'));
    expect(screen.getByRole('heading', { name: 'Meditations' })).toBeInTheDocument();
    expect(screen.getByTestId('flash-overlay')).toHaveAttribute('data-mode', 'corner');
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('button', { name: 'Start' })).toBeDisabled();
    expect(screen.getByTestId('flash-overlay')).toHaveAttribute('data-mode', 'corner');
    // Stopped from the corner on another page, it is over here too.
    await act(() => router.navigate('/music'));
    await user.click(within(screen.getByTestId('flash-overlay')).getByRole('button', { name: 'Stop' }));
    expect(screen.queryByTestId('flash-overlay')).toBeNull();
    await act(() => router.navigate('/subliminals'));
    expect(await screen.findByRole('button', { name: 'Start' })).toBeEnabled();
  });

  it('stops the session when its playlist is emptied while it plays (Clear all, or the last message removed)', async () => {
    localStorage.setItem(PLAYER_STORAGE_KEYS.noticeAccepted, 'yes');
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await toCorner(user);
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(screen.queryByTestId('flash-overlay')).toBeNull();
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled();
    // Undo brings the messages back, not the session.
    act(() => pressToastAction('Playlist cleared.'));
    expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(1)');
    expect(screen.queryByTestId('flash-overlay')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Start' }));
    await toCorner(user);
    await user.click(screen.getByRole('button', { name: 'Remove “One thing at a time.” from playlist' }));
    expect(screen.queryByTestId('flash-overlay')).toBeNull();
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled();
  });

  it('under reduced motion, asks before every start', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...matchMedia(query), matches: query.includes('reduce') });
    localStorage.setItem(PLAYER_STORAGE_KEYS.noticeAccepted, 'yes');
    try {
      const user = userEvent.setup();
      renderPlayer();
      await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
      await user.click(screen.getByRole('button', { name: 'Start' }));
      expect(await screen.findByText(/Your device is set to reduce motion/)).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByTestId('flash-overlay')).toBeNull();
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('restores settings clamped to the limits', async () => {
    localStorage.setItem(
      PLAYER_STORAGE_KEYS.settings,
      JSON.stringify({ flashSpeed: 12, displayInterval: 1234, messageColor: 'red', fontSize: 99 }),
    );
    renderPlayer();
    expect(screen.getByLabelText('Flash speed (ms)')).toHaveValue(50);
    expect(screen.getByLabelText('Display interval (ms)')).toHaveValue(1000);
    expect(screen.getByLabelText(/Font size/)).toHaveValue('70');
    // Read out as "Font size, 70 px": a name that does not change with the value, and the value with its unit.
    expect(screen.getByRole('slider', { name: 'Font size' })).toHaveAttribute('aria-valuetext', '70 px');
    expect(screen.getByLabelText('Message colour')).toHaveValue('#00dc82');
  });

  it('sets the font size on the product’s slider: its track filled to the value, the value and the limits written', async () => {
    localStorage.setItem(
      PLAYER_STORAGE_KEYS.settings,
      JSON.stringify({ flashSpeed: 100, displayInterval: 2000, messageColor: '#00dc82', fontSize: 40 }),
    );
    renderPlayer();
    const slider = screen.getByRole('slider', { name: 'Font size' });
    // RangeInput's: the filled part of the track (styles.css) and a finger's box on a touch screen (decision 086).
    expect(slider.style.getPropertyValue('--range-progress')).toBe('50%');
    expect(slider).toHaveClass('pointer-coarse:h-11');
    expect(screen.getByText('40 px')).toBeInTheDocument();
    expect(slider).toHaveAccessibleDescription(/^10–70\spx, in steps of 2$/);

    fireEvent.change(slider, { target: { value: '64' } });
    expect(slider.style.getPropertyValue('--range-progress')).toBe('90%');
    expect(screen.getByText('64 px')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(PLAYER_STORAGE_KEYS.settings)!)).toMatchObject({ fontSize: 64 });
  });

  it('says once, in place, when the categories fail to load, and loads them on Try again', async () => {
    const user = userEvent.setup();
    fail = true;
    renderPlayer();
    const categories = screen.getByRole('region', { name: 'Categories' });
    expect(await within(categories).findByRole('alert')).toHaveTextContent(
      'There was an error loading the Subliminals!',
    );
    // Where the categories would be, and only there: a toast would say it a second time.
    expect(toast.error).not.toHaveBeenCalled();
    fail = false;
    everyElementShown();
    // The categories' own (My messages, under them, says that the plan, never read here, waits: decision 140).
    within(within(categories).getByRole('alert')).getByRole('button', { name: 'Try again' }).focus();
    await user.keyboard('{Enter}');
    const first = await within(categories).findByRole('button', { name: /^Calm/ });
    expect(screen.queryByText('There was an error loading the Subliminals!')).not.toBeInTheDocument();
    // The keyboard was on Try again: it goes to the first category in its place.
    await vi.waitFor(() => expect(first).toHaveFocus());
  });

  // Decision 125: TanStack Query pauses a read while the browser is offline, so the press waits for the connection.
  it('says at once that it waits for the connection when Try again is pressed offline, and reads the categories once back', async () => {
    const user = userEvent.setup();
    fail = true;
    renderPlayer();
    const categories = screen.getByRole('region', { name: 'Categories' });
    const button = within(await within(categories).findByRole('alert')).getByRole('button', { name: 'Try again' });
    fail = false;
    const reads = () => api.calls.filter((call) => call.method === 'GET' && call.path === API.messageCategories).length;
    const readBefore = reads();
    // The browser's connection lies outside the app: navigator.onLine and its events are the test's.
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    everyElementShown();
    try {
      act(() => void window.dispatchEvent(new Event('offline')));
      onlineManager.setOnline(false);
      button.focus();
      await user.keyboard('{Enter}');
      const alert = within(categories).getByRole('alert');
      expect(alert).toHaveTextContent(OFFLINE_WAIT_MESSAGE);
      expect(alert).not.toHaveTextContent('There was an error loading the Subliminals!');
      // A wait, as the lists and the profile say it: the Wi-Fi-off icon, no error red (decision 136).
      expect(alert.querySelector('svg.lucide-wifi-off')).not.toBeNull();
      expect(alert.outerHTML).not.toMatch(/\b(text|border)-danger\b/);
      expect(button).toHaveAttribute('aria-disabled', 'true');
      expect(button).toHaveFocus();
      expect(reads()).toBe(readBefore);

      online.mockReturnValue(true);
      act(() => void window.dispatchEvent(new Event('online')));
      const first = await within(categories).findByRole('button', { name: /^Calm/ });
      expect(screen.queryByText(OFFLINE_WAIT_MESSAGE)).not.toBeInTheDocument();
      expect(reads()).toBe(readBefore + 1);
      // The keyboard was on Try again: it goes to the first category in its place.
      await vi.waitFor(() => expect(first).toHaveFocus());
    } finally {
      online.mockRestore();
      onlineManager.setOnline(true);
    }
  });
});

/** The account's player state: a playlist of `length` own messages, "Message 0" on. */
const accountWithOwnPlaylist = (length: number) => ({
  playlist: Array.from({ length }, (_, i) => ({
    message_text: `Message ${i}`,
    source: 'own' as const,
    message_id: i + 1,
  })),
  settings: DEFAULT_SETTINGS,
  updated_at: '2026-11-20T08:00:00.000Z',
});

describe('the player when the plan could not be read (decision 132)', () => {
  it('says so once, where the other themes would be, offering no save, voice or lock meanwhile', async () => {
    api = fakeApi({
      [`GET ${API.messageCategories}`]: () => CATEGORIES,
      [`GET ${API.myCategories}`]: () => [],
      [`GET ${API.plan}`]: () => jsonResponse(500, { detail: 'Server error.' }),
      [`GET ${API.player}`]: () => server.state,
      [`GET ${API.subliminals}`]: () => [],
    });
    renderPlayer();
    const theme = await screen.findByRole('group', { name: 'Theme' });
    const alert = await within(theme).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your plan: Server error.');
    expect(screen.getAllByText(/Could not load your plan/)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Intermediate|Pro$/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Speak the playlist/ })).toBeNull();
  });
});

describe('the player in the account', () => {
  it('says a category does not fit a full playlist instead of adding what the account would refuse to keep', async () => {
    const user = userEvent.setup();
    server.state = accountWithOwnPlaylist(999);
    renderPlayer();
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(999)'));
    await user.click(await screen.findByRole('button', { name: 'Add Calm to playlist' }));
    expect(toast.error).toHaveBeenCalledWith('A playlist holds up to 1,000 messages. Remove some to add these 2.');
    expect(toast.success).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(999)');
    // One more still fits.
    await user.click(screen.getByRole('button', { name: 'Add Focus to playlist' }));
    expect(screen.getByRole('heading', { name: /Playlist/ })).toHaveTextContent('(1000)');
  });

  it('shows a category added to a long playlist, unfolding it', async () => {
    const user = userEvent.setup();
    server.state = accountWithOwnPlaylist(60);
    renderPlayer();
    const playlist = await screen.findByRole('region', { name: /Playlist/ });
    await vi.waitFor(() => expect(within(playlist).getByText('Message 59').closest('li')).toHaveAttribute('hidden'));
    await user.click(await screen.findByRole('button', { name: 'Add Calm to playlist' }));
    expect(within(playlist).getByText('I breathe slowly.').closest('li')).not.toHaveAttribute('hidden');
    expect(within(playlist).getByText('Message 59').closest('li')).not.toHaveAttribute('hidden');
    expect(within(playlist).queryByRole('button', { name: /Show the other/ })).toBeNull();
  });

  it('opens with what the account holds when its route brought it, rendering the playlist once and asking once', async () => {
    server.state = {
      playlist: [{ message_text: 'Written on my phone.', source: 'own', message_id: 5 }],
      settings: { ...DEFAULT_SETTINGS, fontSize: 36 },
      updated_at: '2026-11-20T08:00:00.000Z',
    };
    // This device still holds an older playlist.
    localStorage.setItem(
      PLAYER_STORAGE_KEYS.playlist,
      JSON.stringify([{ id: 21, message_text: 'One thing at a time.', source: 'library' }]),
    );
    let firstRender: string[] = [];
    /** What the player's first render showed in the playlist, read as it is committed. */
    function FirstRender() {
      useLayoutEffect(() => {
        firstRender = screen.queryAllByRole('button', { name: /from playlist$/ }).map((button) => button.ariaLabel!);
      }, []);
      return null;
    }
    /** As the app's route does (app/page-data.ts): the page renders once the account's player has come. */
    function RouteWithItsData() {
      const player = useQuery(playerQuery());
      return player.isSuccess ? (
        <>
          <SubliminalsPlayer />
          <FirstRender />
        </>
      ) : null;
    }
    renderWithProviders(<RouteWithItsData />);
    const row = (await screen.findByText('Written on my phone.')).closest('li');
    expect(firstRender).toEqual(['Remove “Written on my phone.” from playlist']);
    expect(screen.getByRole('slider', { name: 'Font size' })).toHaveValue('36');
    expect(await screen.findByText('Saved to your account')).toBeInTheDocument();
    // The account's answer was the route's, not asked for again, and changed nothing shown: the row is the same.
    expect(api.calls.filter(({ method, path }) => method === 'GET' && path === API.player)).toHaveLength(1);
    expect(row).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(api.calls.filter(({ method }) => method === 'PUT')).toHaveLength(0);
  });

  it("keeps the rows this device shows when the account's answer holds the same playlist", async () => {
    const playlist = [{ message_text: 'Written on my phone.', source: 'own' as const, message_id: 5 }];
    server.state = { playlist, settings: DEFAULT_SETTINGS, updated_at: '2026-11-20T08:00:00.000Z' };
    localStorage.setItem(
      PLAYER_STORAGE_KEYS.playlist,
      JSON.stringify([{ id: 5, message_text: 'Written on my phone.', source: 'own' }]),
    );
    renderPlayer();
    const row = screen.getByText('Written on my phone.').closest('li');
    expect(await screen.findByText('Saved to your account')).toBeInTheDocument();
    // New copies of the same messages would have built every row of a thousand anew.
    expect(row).toBeInTheDocument();
  });

  it('starts from what was saved on another device', async () => {
    server.state = {
      playlist: [{ message_text: 'Written on my phone.', source: 'own', message_id: 5 }],
      settings: { ...DEFAULT_SETTINGS, fontSize: 36 },
      updated_at: '2026-11-20T08:00:00.000Z',
    };
    renderPlayer();
    expect(await screen.findByText('Written on my phone.')).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Font size' })).toHaveValue('36');
    expect(screen.getByRole('status')).toHaveTextContent('Saved to your account');
  });

  it("keeps a category added while the account's player loads, and saves it over what the account held", async () => {
    const user = userEvent.setup();
    server.state = {
      playlist: [{ message_text: 'Written on my phone.', source: 'own', message_id: 5 }],
      settings: DEFAULT_SETTINGS,
      updated_at: '2026-11-20T08:00:00.000Z',
    };
    let answer: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => (answer = resolve));
    api = fakeApi({
      [`GET ${API.messageCategories}`]: () => CATEGORIES,
      [`GET ${API.myCategories}`]: () => [],
      [`GET ${API.player}`]: async () => (await loaded, server.state),
      [`PUT ${API.player}`]: ({ body }) => server.onSave(body as PlayerWrite),
    });
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    expect(screen.getByRole('status')).toHaveTextContent('Loading your playlist…');
    answer();
    await vi.waitFor(() => expect(api.calls.some(({ method }) => method === 'PUT')).toBe(true));
    expect(api.calls.find(({ method }) => method === 'PUT')?.body).toMatchObject({
      playlist: [{ message_text: 'One thing at a time.', source: 'library', message_id: 21 }],
    });
    expect(screen.getByText('One thing at a time.')).toBeInTheDocument();
    expect(screen.queryByText('Written on my phone.')).toBeNull();
  });

  /** Opens the player on an account holding Focus, adds Calm while the server cannot be reached, leaves. */
  async function addCalmOffline() {
    const user = userEvent.setup();
    server.state = {
      playlist: [{ message_text: 'One thing at a time.', source: 'library', message_id: 21 }],
      settings: DEFAULT_SETTINGS,
      updated_at: '2026-11-20T08:00:00.000Z',
    };
    const save = server.onSave;
    server.onSave = () => {
      throw new TypeError('Failed to fetch');
    };
    const page = renderPlayer();
    expect(await screen.findByText('One thing at a time.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Add Calm to playlist' }));
    await screen.findByText('Could not reach the server — changes are kept here and will be saved once it answers');
    page.unmount();
    server.onSave = save;
  }

  it('saves a change kept offline when the player opens again, instead of replacing it with the older one', async () => {
    await addCalmOffline();
    renderPlayer();
    await vi.waitFor(() => expect(server.state.playlist).toHaveLength(3));
    expect(server.state.playlist.map(({ message_text }) => message_text)).toEqual([
      'One thing at a time.',
      'I breathe slowly.',
      'This moment is enough.',
    ]);
    expect(await screen.findByText('Saved to your account')).toBeInTheDocument();
    expect(screen.getByText('I breathe slowly.')).toBeInTheDocument();
  });

  it('opens what another device saved after a change kept offline here, as the later save', async () => {
    await addCalmOffline();
    server.state = {
      playlist: [{ message_text: 'Written on my phone.', source: 'own', message_id: 5 }],
      settings: DEFAULT_SETTINGS,
      updated_at: '2026-11-21T08:00:00.000Z',
    };
    renderPlayer();
    expect(await screen.findByText('Written on my phone.')).toBeInTheDocument();
    expect(screen.queryByText('I breathe slowly.')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(api.calls.filter(({ method }) => method === 'PUT')).toHaveLength(1);
    expect(localStorage.getItem(PLAYER_STORAGE_KEYS.unsynced)).toBeNull();
  });

  it('shows what another tab saved meanwhile when it shows again, and adds to that rather than saving over it', async () => {
    const user = userEvent.setup();
    server.state = {
      playlist: [{ message_text: 'One thing at a time.', source: 'library', message_id: 21 }],
      settings: DEFAULT_SETTINGS,
      updated_at: '2026-11-20T08:00:00.000Z',
    };
    renderPlayer();
    expect(await screen.findByText('Saved to your account')).toBeInTheDocument();
    // Another tab, or the phone, clears the playlist and writes a message of its own into it, at a larger size.
    server.state = {
      playlist: [{ message_text: 'Written on my phone.', source: 'own', message_id: 5 }],
      settings: { ...DEFAULT_SETTINGS, fontSize: 36 },
      updated_at: '2026-11-20T09:00:00.000Z',
    };
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(await screen.findByText('Written on my phone.')).toBeInTheDocument();
    expect(screen.queryByText('One thing at a time.')).toBeNull();
    expect(screen.getByRole('slider', { name: 'Font size' })).toHaveValue('36');
    await user.click(screen.getByRole('button', { name: 'Add Calm to playlist' }));
    await vi.waitFor(() => expect(server.state.playlist).toHaveLength(3));
    expect(server.state.playlist.map(({ message_text }) => message_text)).toEqual([
      'Written on my phone.',
      'I breathe slowly.',
      'This moment is enough.',
    ]);
    expect(server.state.settings.fontSize).toBe(36);
  });

  it('keeps a change made here and not saved yet when the tab shows again, and saves it as the later one', async () => {
    await addCalmJustNow();
    server.state = { ...server.state, updated_at: '2026-11-20T09:00:00.000Z' };
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await vi.waitFor(() => expect(server.state.playlist.map(({ message_text }) => message_text)).toEqual(withCalm));
    expect(api.calls.filter(({ method, path }) => method === 'GET' && path === API.player)).toHaveLength(1);
  });

  /** Opens the player on an account holding Focus and adds Calm; resolves before the moment to save it is up. */
  async function addCalmJustNow() {
    const user = userEvent.setup();
    server.state = {
      playlist: [{ message_text: 'One thing at a time.', source: 'library', message_id: 21 }],
      settings: DEFAULT_SETTINGS,
      updated_at: '2026-11-20T08:00:00.000Z',
    };
    const page = renderPlayer();
    expect(await screen.findByText('One thing at a time.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Add Calm to playlist' }));
    expect(api.calls.filter(({ method }) => method === 'PUT')).toHaveLength(0);
    return page;
  }
  const withCalm = ['One thing at a time.', 'I breathe slowly.', 'This moment is enough.'];

  it('saves a change at once when a link leaves the player before the moment to save it is up', async () => {
    (await addCalmJustNow()).unmount();
    await vi.waitFor(() => expect(server.state.playlist.map(({ message_text }) => message_text)).toEqual(withCalm));
  });

  it('keeps a change whose page was reloaded before it was saved, and saves it when the player opens again', async () => {
    const page = await addCalmJustNow();
    // The reload: the page goes, and what it sent on its way never reached the server.
    const save = server.onSave;
    server.onSave = () => {
      throw new TypeError('Failed to fetch');
    };
    page.unmount();
    await vi.waitFor(() => expect(api.calls.filter(({ method }) => method === 'PUT')).toHaveLength(1));
    server.onSave = save;
    renderPlayer();
    await vi.waitFor(() => expect(server.state.playlist.map(({ message_text }) => message_text)).toEqual(withCalm), {
      timeout: 3000,
    });
    expect(screen.getByText('I breathe slowly.')).toBeInTheDocument();
    expect(await screen.findByText('Saved to your account')).toBeInTheDocument();
    expect(localStorage.getItem(PLAYER_STORAGE_KEYS.unsynced)).toBeNull();
  });

  it('sends a change not saved yet as the page closes, with keepalive so it outlives the page', async () => {
    await addCalmJustNow();
    act(() => void window.dispatchEvent(new Event('pagehide')));
    const put = vi.mocked(fetch).mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(put?.[1]?.keepalive).toBe(true);
    await vi.waitFor(() => expect(server.state.playlist).toHaveLength(3));
  });

  it('leaves a change too large for keepalive in bytes to the next open as the page closes, whatever its length', async () => {
    const user = userEvent.setup();
    // 40 messages of 600 characters in Chinese: 24,000 characters, over 72,000 bytes once encoded.
    const long = Array.from({ length: 40 }, (_, index) => ({
      message_text: `${index}${'静'.repeat(599)}`,
      source: 'own' as const,
      message_id: 100 + index,
    }));
    server.state = { playlist: long, settings: DEFAULT_SETTINGS, updated_at: '2026-11-20T08:00:00.000Z' };
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Calm to playlist' }));
    act(() => void window.dispatchEvent(new Event('pagehide')));
    expect(vi.mocked(fetch).mock.calls.filter(([, init]) => init?.method === 'PUT')).toEqual([]);
    expect(localStorage.getItem(PLAYER_STORAGE_KEYS.unsynced)).not.toBeNull();
  });

  it('saves an added category to the account a moment later, saying where each message came from', async () => {
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Focus to playlist' }));
    await vi.waitFor(() => expect(api.calls.some(({ method }) => method === 'PUT')).toBe(true));
    expect(api.calls.find(({ method }) => method === 'PUT')?.body).toEqual({
      playlist: [{ message_text: 'One thing at a time.', source: 'library', message_id: 21 }],
      settings: DEFAULT_SETTINGS,
      // Numbered within the page, so that an older save landing last is not written over it.
      page_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4/),
      save_number: expect.any(Number),
    });
    expect(await screen.findByText('Saved to your account')).toBeInTheDocument();
  });

  it('saves a setting typed between its steps at the nearest step, which the server takes', async () => {
    const user = userEvent.setup();
    renderPlayer();
    await screen.findByRole('button', { name: 'Add Focus to playlist' });
    // Typed over the whole 100, and the field not left: the field shows 55 until then.
    await user.type(screen.getByLabelText('Flash speed (ms)'), '55', {
      initialSelectionStart: 0,
      initialSelectionEnd: 3,
    });
    expect(screen.getByLabelText('Flash speed (ms)')).toHaveValue(55);
    await vi.waitFor(() => expect(api.calls.some(({ method }) => method === 'PUT')).toBe(true));
    expect(api.calls.filter(({ method }) => method === 'PUT').at(-1)?.body).toMatchObject({
      settings: { ...DEFAULT_SETTINGS, flashSpeed: 60 },
    });
  });

  it('shows a setting as it was saved once the field is left, whatever way it was typed', async () => {
    const user = userEvent.setup();
    renderPlayer();
    await screen.findByRole('button', { name: 'Add Focus to playlist' });
    const speed = screen.getByLabelText<HTMLInputElement>('Flash speed (ms)');
    // As a browser's number field takes it: "1e2" reads 100, the value the field had.
    act(() => speed.focus());
    fireEvent.change(speed, { target: { value: '1e2' } });
    expect(speed.value).toBe('1e2');
    await user.tab();
    expect(speed.value).toBe('100');
    const interval = screen.getByLabelText<HTMLInputElement>('Display interval (ms)');
    act(() => interval.focus());
    fireEvent.change(interval, { target: { value: '02900' } });
    await user.tab();
    expect(interval.value).toBe('3000');
  });

  it('after a downgrade keeps the theme of the earlier plan, saved with other settings, until another is chosen', async () => {
    const user = userEvent.setup();
    api = fakeApi({
      [`GET ${API.messageCategories}`]: () => CATEGORIES,
      [`GET ${API.myCategories}`]: () => [],
      [`GET ${API.plan}`]: () => planStateFor('basic'),
      [`GET ${API.player}`]: () => server.state,
      [`PUT ${API.player}`]: ({ body }) => server.onSave(body as PlayerWrite),
    });
    const forest = { ...DEFAULT_SETTINGS, theme: 'forest', messageColor: '#bbf7d0' };
    server.state = { playlist: [], settings: forest, updated_at: '2026-11-20T08:00:00.000Z' };
    const puts = () => api.calls.filter(({ method }) => method === 'PUT');
    renderPlayer();
    await screen.findByRole('button', { name: 'Add Focus to playlist' });
    const kept = await screen.findByRole('radio', { name: 'Forest, from your earlier plan' });
    await vi.waitFor(() => expect(kept).toBeChecked());
    expect(kept).toHaveAccessibleDescription(
      'Forest is from your earlier plan: it stays until you choose another theme.',
    );
    expect(screen.getByRole('radio', { name: 'Ocean, locked' })).toBeDisabled();

    // Another setting is saved with the theme as it is.
    await user.type(screen.getByLabelText('Flash speed (ms)'), '150', {
      initialSelectionStart: 0,
      initialSelectionEnd: 3,
    });
    await vi.waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]?.body).toMatchObject({ settings: { ...forest, flashSpeed: 150 } });
    expect(kept).toBeChecked();

    // Choosing another theme gives it up: it is locked like the others from then on.
    await user.click(screen.getByRole('radio', { name: 'Paper' }));
    await vi.waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]?.body).toMatchObject({ settings: { theme: 'paper', flashSpeed: 150 } });
    expect(screen.getByRole('radio', { name: 'Forest, locked' })).toBeDisabled();
    expect(screen.queryByText(/from your earlier plan/)).toBeNull();
  });

  it('keeps changes on the device and says so while the browser is offline', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    server.onSave = () => {
      throw new TypeError('Failed to fetch');
    };
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Add Calm to playlist' }));
    expect(await screen.findByText('Offline — changes are kept here and will sync')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(PLAYER_STORAGE_KEYS.playlist) ?? '[]')).toHaveLength(2);
  });

  describe('a save that fails for a passing reason', () => {
    const SERVER_ERROR = 'The server could not save just now — changes are kept here and will be saved once it answers';
    const UNREACHABLE = 'Could not reach the server — changes are kept here and will be saved once it answers';
    const puts = () => api.calls.filter(({ method }) => method === 'PUT');
    /** Moves the clock on, letting the answers that come meanwhile land. */
    const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
    /** The player opened on an empty account, its clock the test's from then on. */
    async function openPlayer() {
      renderPlayer();
      expect(await screen.findByRole('button', { name: 'Add Calm to playlist' })).toBeInTheDocument();
      await vi.waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Saved to your account'));
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    }
    afterEach(() => void vi.useRealTimers());

    it('says the server failed, keeps the change and tries again by itself, further apart, until it is saved', async () => {
      const save = server.onSave;
      let failing = true;
      server.onSave = (body) => (failing ? jsonResponse(503, {}) : save(body));
      await openPlayer();
      fireEvent.click(screen.getByRole('button', { name: 'Add Calm to playlist' }));
      await wait(800);
      expect(puts()).toHaveLength(1);
      expect(screen.getByRole('status')).toHaveTextContent(SERVER_ERROR);
      expect(JSON.parse(localStorage.getItem(PLAYER_STORAGE_KEYS.playlist) ?? '[]')).toHaveLength(2);
      expect(localStorage.getItem(PLAYER_STORAGE_KEYS.unsynced)).not.toBeNull();
      // 2 s, then 4 s: not sooner.
      await wait(1999);
      expect(puts()).toHaveLength(1);
      await wait(1);
      expect(puts()).toHaveLength(2);
      await wait(3999);
      expect(puts()).toHaveLength(2);
      failing = false;
      await wait(1);
      expect(puts()).toHaveLength(3);
      expect(screen.getByRole('status')).toHaveTextContent('Saved to your account');
      expect(server.state.playlist.map(({ message_text }) => message_text)).toEqual([
        'I breathe slowly.',
        'This moment is enough.',
      ]);
      expect(localStorage.getItem(PLAYER_STORAGE_KEYS.unsynced)).toBeNull();

      // A save that lands starts the waits again from 2 s.
      failing = true;
      fireEvent.click(screen.getByRole('button', { name: 'Remove “I breathe slowly.” from playlist' }));
      await wait(800);
      expect(puts()).toHaveLength(4);
      expect(screen.getByRole('status')).toHaveTextContent(SERVER_ERROR);
      failing = false;
      await wait(2000);
      expect(puts()).toHaveLength(5);
      expect(screen.getByRole('status')).toHaveTextContent('Saved to your account');
      expect(server.state.playlist).toHaveLength(1);
    });

    it('waits at most a minute between tries while the server keeps failing', async () => {
      server.onSave = () => jsonResponse(500, {});
      await openPlayer();
      fireEvent.click(screen.getByRole('button', { name: 'Add Calm to playlist' }));
      await wait(800);
      for (const [tries, waited] of [
        [2, 2000],
        [3, 4000],
        [4, 8000],
        [5, 16_000],
        [6, 32_000],
        [7, 60_000],
        [8, 60_000],
      ]) {
        await wait(waited! - 1);
        expect(puts()).toHaveLength(tries! - 1);
        await wait(1);
        expect(puts()).toHaveLength(tries!);
      }
      expect(screen.getByRole('status')).toHaveTextContent(SERVER_ERROR);
    });

    it('says the server could not be reached while the browser says it is online, and sends only the newest change, one at a time', async () => {
      const save = server.onSave;
      let unreachable = true;
      let answer: () => void = () => undefined;
      server.onSave = async (body) => {
        if (unreachable) throw new TypeError('Failed to fetch');
        await new Promise<void>((resolve) => (answer = resolve));
        return save(body);
      };
      await openPlayer();
      fireEvent.click(screen.getByRole('button', { name: 'Add Calm to playlist' }));
      await wait(800);
      expect(screen.getByRole('status')).toHaveTextContent(UNREACHABLE);
      // Changes made while the retry waits go with it, at its time, as one save of the newest.
      fireEvent.click(screen.getByRole('button', { name: 'Add Focus to playlist' }));
      await wait(800);
      expect(puts()).toHaveLength(1);
      unreachable = false;
      await wait(1200);
      expect(puts()).toHaveLength(2);
      expect(puts()[1]?.body).toMatchObject({ playlist: { length: 3 } });
      expect(screen.getByRole('status')).toHaveTextContent('Saving…');
      // A change made while that save is in flight waits for its answer.
      fireEvent.click(screen.getByRole('button', { name: 'Remove “One thing at a time.” from playlist' }));
      await wait(5000);
      expect(puts()).toHaveLength(2);
      act(() => answer());
      await vi.waitFor(() => expect(puts()).toHaveLength(3));
      expect(puts()[2]?.body).toMatchObject({ playlist: { length: 2 } });
      act(() => answer());
      await vi.waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Saved to your account'));
      expect(server.state.playlist.map(({ message_text }) => message_text)).toEqual([
        'I breathe slowly.',
        'This moment is enough.',
      ]);
    });

    it('tries again at once when the browser is back online', async () => {
      const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      const save = server.onSave;
      server.onSave = (body) => {
        if (!navigator.onLine) throw new TypeError('Failed to fetch');
        return save(body);
      };
      await openPlayer();
      fireEvent.click(screen.getByRole('button', { name: 'Add Calm to playlist' }));
      await wait(800);
      expect(screen.getByRole('status')).toHaveTextContent('Offline — changes are kept here and will sync');
      online.mockReturnValue(true);
      act(() => void window.dispatchEvent(new Event('online')));
      await vi.waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Saved to your account'));
      expect(puts()).toHaveLength(2);
      expect(server.state.playlist).toHaveLength(2);
    });

    it('does not try again a change the server refuses, and says why', async () => {
      server.onSave = () => jsonResponse(400, { playlist: ['Ensure this field has no more than 1000 elements.'] });
      await openPlayer();
      fireEvent.click(screen.getByRole('button', { name: 'Add Calm to playlist' }));
      await wait(800);
      expect(screen.getByRole('status')).toHaveTextContent(
        'Not saved: Ensure this field has no more than 1000 elements.',
      );
      await wait(120_000);
      expect(puts()).toHaveLength(1);
      expect(localStorage.getItem(PLAYER_STORAGE_KEYS.unsynced)).toBeNull();
    });
  });
});
