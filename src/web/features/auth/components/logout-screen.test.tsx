import { screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeEngine } from '@web/test/fake-sound-engine';
import { startPracticeRecorder } from '@web/components/practice-recorder';
import { flashSessions } from '@web/lib/audio/app-session-ends';
import { sessionStore } from '@web/lib/session';
import { SESSION_EXPIRED_MESSAGE, startSessionLifecycle } from '@web/lib/session-refresh';
import { fakeLocks } from '@web/test/fake-locks';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { LogoutScreen } from './logout-screen';

vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

/** Another tab of the browser, on the channel tabs tell each other of a sign-out (components/practice-recorder.ts). */
const otherTab = () => new BroadcastChannel('innerwave.signing-out');

// Under StrictMode effects run twice, as in development: the session must still be posted once.
const renderLogout = () =>
  renderWithProviders(<LogoutScreen />, {
    path: '/logout',
    pattern: '/logout',
    strict: true,
    routes: [
      { path: '/login', element: <p>login page</p> },
      { path: '/subliminals', element: <p>player</p> },
    ],
  });

describe('logout screen', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    Reflect.deleteProperty(navigator, 'locks');
  });

  it('posts logout once, clears the session and goes to login on 204', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const api = fakeApi({ [`POST ${API.logout}`]: () => new Response(null, { status: 204 }) });
    vi.spyOn(toast, 'success');
    renderLogout();
    expect(screen.getByText('Terminating Session...')).toBeInTheDocument();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(api.calls.map(({ path, auth }) => [path, auth])).toEqual([[API.logout, 'Bearer a']]);
    expect(toast.success).toHaveBeenCalledWith('Logout successful', { duration: 1000 });
    expect(localStorage.getItem('user.access')).toBeNull();
  });

  it('takes what the person typed in this tab with them, and leaves another person’s', async () => {
    const access = `h.${btoa(JSON.stringify({ user_id: 7 })).replace(/=+$/, '')}.s`;
    sessionStore.setTokens({ access, refresh: 'r' }, 'member@example.com');
    sessionStorage.setItem('draft.support.7', JSON.stringify({ subject: 'Billing', message: 'My card…' }));
    sessionStorage.setItem('draft.program.calm-week.2026-12-05T09:30:00.123Z.7', JSON.stringify({ title: 'Calm' }));
    sessionStorage.setItem('draft.support.17', JSON.stringify({ subject: 'Theirs' }));
    fakeApi({ [`POST ${API.logout}`]: () => new Response(null, { status: 204 }) });
    renderLogout();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(sessionStorage.getItem('draft.support.7')).toBeNull();
    expect(sessionStorage.getItem('draft.program.calm-week.2026-12-05T09:30:00.123Z.7')).toBeNull();
    expect(sessionStorage.getItem('draft.support.17')).not.toBeNull();
    sessionStorage.clear();
  });

  it('keeps the drafts with the session when logout fails', async () => {
    const access = `h.${btoa(JSON.stringify({ user_id: 7 })).replace(/=+$/, '')}.s`;
    sessionStore.setTokens({ access, refresh: 'r' }, 'member@example.com');
    sessionStorage.setItem('draft.support.7', JSON.stringify({ subject: 'Billing' }));
    fakeApi({ [`POST ${API.logout}`]: () => jsonResponse(500, { detail: 'A server error occurred.' }) });
    renderLogout();
    expect(await screen.findByText('player')).toBeInTheDocument();
    expect(sessionStorage.getItem('draft.support.7')).not.toBeNull();
    sessionStorage.clear();
    sessionStore.clear();
  });

  it('keeps the session and goes back to the player with an error toast when logout fails', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    fakeApi({ [`POST ${API.logout}`]: () => jsonResponse(500, { detail: 'A server error occurred.' }) });
    vi.spyOn(toast, 'error');
    renderLogout();
    expect(await screen.findByText('player')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('We are having trouble terminating your session. Please try again!');
    expect(localStorage.getItem('user.access')).toBe('a');
    sessionStore.clear();
  });

  it('counts a session the server had ended already (401, its refresh refused too) as logged out', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const ended = () => jsonResponse(401, { detail: 'Given token not valid for any token type' });
    const api = fakeApi({ [`POST ${API.logout}`]: ended, [`POST ${API.tokenRefresh}`]: ended });
    vi.spyOn(toast, 'success');
    vi.spyOn(toast, 'error');
    renderLogout();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(api.calls.map(({ path }) => path)).toEqual([API.logout, API.tokenRefresh]);
    expect(toast.success).toHaveBeenCalledWith('Logout successful', { duration: 1000 });
    expect(toast.error).not.toHaveBeenCalled();
    expect(localStorage.getItem('user.access')).toBeNull();
    expect(localStorage.getItem('user.refresh')).toBeNull();
  });

  it('renews an access token that is only old and posts the logout again with it', async () => {
    sessionStore.setTokens({ access: 'old', refresh: 'r' }, 'member@example.com');
    const api = fakeApi({
      [`POST ${API.logout}`]: (request) =>
        request.auth === 'Bearer new'
          ? new Response(null, { status: 204 })
          : jsonResponse(401, { detail: 'Given token not valid for any token type' }),
      [`POST ${API.tokenRefresh}`]: () => jsonResponse(200, { access: 'new' }),
    });
    vi.spyOn(toast, 'success');
    renderLogout();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(api.calls.map(({ path, auth }) => [path, auth])).toEqual([
      [API.logout, 'Bearer old'],
      [API.tokenRefresh, null],
      [API.logout, 'Bearer new'],
    ]);
    expect(toast.success).toHaveBeenCalledWith('Logout successful', { duration: 1000 });
  });

  it('neither posts nor clears the session another tab signed in while this one waited to sign out', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    fakeLocks();
    // Another tab still records what played there; meanwhile a third signs Ada out and Bea in.
    let recordedThere!: () => void;
    void navigator.locks.request(
      'innerwave.unrecorded-sessions',
      { mode: 'shared' },
      () => new Promise<void>((resolve) => (recordedThere = resolve)),
    );
    const api = fakeApi({ [`POST ${API.logout}`]: () => new Response(null, { status: 204 }) });
    vi.spyOn(toast, 'success');
    const tab = otherTab();
    const told = new Promise((resolve) => tab.addEventListener('message', resolve, { once: true }));
    renderLogout();
    await told;
    localStorage.clear();
    localStorage.setItem('user.refresh', 'r2');
    localStorage.setItem('user.access', 'b');
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    recordedThere();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    // Bea's session is neither ended on the server nor here.
    expect(api.calls.map(({ path }) => path)).toEqual([]);
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, access: 'b', refresh: 'r2' });
    expect(toast.success).not.toHaveBeenCalled();
    tab.close();
    sessionStore.clear();
  });

  it('keeps the session when a 401 cannot be checked because the server is out of reach', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    fakeApi({
      [`POST ${API.logout}`]: () => jsonResponse(401, { detail: 'Given token not valid for any token type' }),
      [`POST ${API.tokenRefresh}`]: () => jsonResponse(503, { detail: 'Service unavailable.' }),
    });
    vi.spyOn(toast, 'error');
    renderLogout();
    expect(await screen.findByText('player')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('We are having trouble terminating your session. Please try again!');
    expect(localStorage.getItem('user.access')).toBe('a');
    sessionStore.clear();
  });

  it('says only that the session expired when recording what flashed found it ended from another browser', async () => {
    const refused = () => jsonResponse(401, { detail: 'Given token not valid for any token type' });
    const navigateTo = vi.fn<(to: string) => void>();
    startSessionLifecycle(navigateTo)();
    startPracticeRecorder(new QueryClient());
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const now = vi.spyOn(Date, 'now').mockReturnValue(3_000_000);
    flashSessions.flashing({ title: 'Confidence', ref: 'category:4' }, true);
    now.mockReturnValue(3_035_000);
    // The record is refused, and so is the token's refresh: the session ends there, before the logout is posted.
    const api = fakeApi({
      [`POST ${API.history}`]: refused,
      [`POST ${API.tokenRefresh}`]: refused,
      [`POST ${API.logout}`]: refused,
    });
    vi.spyOn(toast, 'error');
    renderLogout();
    await vi.waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/login'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Ended there, the session has nothing left to post a logout for.
    expect(api.calls.map(({ path }) => path)).toEqual([API.history, API.tokenRefresh]);
    expect(vi.mocked(toast.error).mock.calls).toEqual([[SESSION_EXPIRED_MESSAGE, expect.anything()]]);
    expect(screen.queryByText('player')).toBeNull();
  });

  describe('with a session under way', () => {
    const recorded = () => ({
      [`POST ${API.history}`]: () => jsonResponse(201, {}),
      [`POST ${API.logout}`]: () => new Response(null, { status: 204 }),
    });

    it('records the sound that plays with the token still good, then logs out', async () => {
      startPracticeRecorder(new QueryClient());
      sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
      const track = { kind: 'track', key: 'selfeggio:7', title: '432 Hz', url: '/media/x' } as const;
      fakeEngine.set({ status: 'playing', layers: [{ id: 'track', source: track, gain: 1, status: 'ready' }] });
      fakeEngine.now = 6;
      const api = fakeApi(recorded());
      renderLogout();
      expect(await screen.findByText('login page')).toBeInTheDocument();
      expect(api.calls.map(({ path, auth }) => [path, auth])).toEqual([
        [API.history, 'Bearer a'],
        [API.logout, 'Bearer a'],
      ]);
      expect(api.calls[0]!.body).toMatchObject({ kind: 'music', title: '432 Hz', seconds: 6, ref: 'track:7' });
      expect(fakeEngine.state.status).toBe('stopped');
    });

    it('records messages flashing without sound, then logs out', async () => {
      startPracticeRecorder(new QueryClient());
      sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
      const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
      flashSessions.flashing({ title: 'Confidence', ref: 'category:4' }, true);
      now.mockReturnValue(1_035_000);
      const api = fakeApi(recorded());
      renderLogout();
      expect(await screen.findByText('login page')).toBeInTheDocument();
      expect(api.calls.map(({ path }) => path)).toEqual([API.history, API.logout]);
      expect(api.calls[0]!.body).toMatchObject({ kind: 'subliminal', title: 'Confidence', seconds: 35 });
    });

    it('waits for the other tabs to record what plays or flashes there before logging out', async () => {
      startPracticeRecorder(new QueryClient());
      sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
      fakeLocks();
      const api = fakeApi(recorded());
      // Another tab flashes messages: it holds the lock until it has recorded them.
      let recordedThere!: () => void;
      void navigator.locks.request(
        'innerwave.unrecorded-sessions',
        { mode: 'shared' },
        () => new Promise<void>((resolve) => (recordedThere = resolve)),
      );
      const tab = otherTab();
      const told = new Promise((resolve) => tab.addEventListener('message', resolve, { once: true }));
      renderLogout();
      await told;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(api.calls.map(({ path }) => path)).toEqual([]);
      recordedThere();
      expect(await screen.findByText('login page')).toBeInTheDocument();
      expect(api.calls.map(({ path }) => path)).toEqual([API.logout]);
      tab.close();
    });
    it('tells the other tabs only once its wait for them is queued, so one asking again at once waits behind it', async () => {
      startPracticeRecorder(new QueryClient());
      sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
      // This page's calls reach the browser's lock manager late (its first binds the connection), the channel not.
      const { otherTab } = fakeLocks({ lagMs: 30 });
      const api = fakeApi(recorded());
      // Another tab flashes messages: it holds the lock; told, it lets go (recorded) and asks again as they flash on.
      let recordedThere!: () => void;
      void otherTab.request(
        'innerwave.unrecorded-sessions',
        { mode: 'shared' },
        () => new Promise<void>((resolve) => (recordedThere = resolve)),
      );
      const tab = new BroadcastChannel('innerwave.signing-out');
      tab.addEventListener('message', () => {
        recordedThere();
        void otherTab.request('innerwave.unrecorded-sessions', { mode: 'shared' }, () => new Promise(() => undefined));
      });
      renderLogout();
      // Let in first, that tab held the lock as long as it played on: the logout waited out its 5 s.
      expect(await screen.findByText('login page', {}, { timeout: 2000 })).toBeInTheDocument();
      expect(api.calls.map(({ path }) => path)).toEqual([API.logout]);
      tab.close();
    });
  });

  describe('when another tab signs out', () => {
    it('records the messages flashing here without sound at once, with the token still good', async () => {
      startPracticeRecorder(new QueryClient());
      sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
      const { held } = fakeLocks();
      const now = vi.spyOn(Date, 'now').mockReturnValue(2_000_000);
      flashSessions.flashing({ title: 'Confidence', ref: 'category:4' }, true);
      // While they flash, this tab holds the lock the tab signing out waits for.
      await waitFor(() => expect(held).toEqual(['shared']));
      now.mockReturnValue(2_042_000);
      const api = fakeApi({ [`POST ${API.history}`]: () => jsonResponse(201, {}) });
      let signingOutMayGoOn = false;
      const waited = navigator.locks
        .request('innerwave.unrecorded-sessions', { mode: 'exclusive' }, () => undefined)
        .then(() => (signingOutMayGoOn = true));
      const tab = otherTab();
      tab.postMessage('signing-out');
      await waited;
      expect(api.calls.map(({ path, auth, body }) => [path, auth, body])).toEqual([
        [API.history, 'Bearer a', expect.objectContaining({ kind: 'subliminal', title: 'Confidence', seconds: 42 })],
      ]);
      expect(signingOutMayGoOn).toBe(true);
      // They flash on, a session of its own should the sign-out fail; the lock is held again for it.
      expect(flashSessions.underWay()).toBe(true);
      await waitFor(() => expect(held).toEqual(['shared']));
      sessionStore.clear();
      flashSessions.stop();
      tab.close();
    });
  });
});
