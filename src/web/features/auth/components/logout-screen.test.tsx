import { StrictMode } from 'react';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '@web/lib/session';
import { LogoutScreen } from './logout-screen';

function renderLogout() {
  const router = createMemoryRouter(
    [
      { path: '/logout', element: <LogoutScreen /> },
      { path: '/login', element: <p>login page</p> },
      { path: '/subliminals', element: <p>player</p> },
    ],
    { initialEntries: ['/logout'] },
  );
  // StrictMode runs effects twice, as in development: the session must still be posted once.
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}

describe('logout screen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('posts logout once, clears the session and goes to login on 204', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' });
    const fetchSpy = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchSpy);
    vi.spyOn(toast, 'success');
    renderLogout();
    expect(screen.getByText('Terminating Session...')).toBeInTheDocument();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(toast.success).toHaveBeenCalledWith('Logout successful', { duration: 1000 });
    expect(localStorage.getItem('user.access')).toBeNull();
  });

  it('keeps the session and goes back to the player with an error toast when logout fails', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ detail: 'A server error occurred.' }), { status: 500 })),
    );
    vi.spyOn(toast, 'error');
    renderLogout();
    expect(await screen.findByText('player')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('We are having trouble terminating your session. Please try again!');
    expect(localStorage.getItem('user.access')).toBe('a');
    sessionStore.clear();
  });
});
