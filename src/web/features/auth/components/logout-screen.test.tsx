import { screen } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { LogoutScreen } from './logout-screen';

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
  afterEach(() => vi.restoreAllMocks());

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
});
