import { screen } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { AUTH_MESSAGES } from '../messages';
import { ActivateAccount } from './activate-account';
import { LoginForm } from './login-form';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const renderActivation = (query = '') =>
  renderWithProviders(<ActivateAccount uid="MQ" token="t" />, {
    path: `/activation/MQ/t${query}`,
    pattern: '/activation/:uid/:token',
    routes: [
      {
        path: '/login',
        element: (
          <>
            <p>login page</p>
            <LoginForm />
          </>
        ),
      },
    ],
  });

afterEach(() => vi.clearAllMocks());

describe('activation', () => {
  it('greets the person it made active as new on the login it goes to, where the toast lasts a second', async () => {
    fakeApi({ [`POST ${API.activation}`]: () => new Response(null, { status: 204 }) });
    renderActivation();
    expect(await screen.findByText(/Welcome to Innerwave: your account is active\./)).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.activationSucceeded, { duration: 1000 });
  });

  it('says an account opened again from its link is already active, not that verification failed', async () => {
    fakeApi({ [`POST ${API.activation}`]: () => jsonResponse(403, { detail: 'Stale token for given user.' }) });
    renderActivation();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.alreadyActive);
    expect(toast.error).not.toHaveBeenCalled();
    // Active before: no one new to greet.
    expect(screen.getByText(/Welcome back\./)).toBeInTheDocument();
  });

  it('keeps the spec’s failure for a broken link', async () => {
    fakeApi({ [`POST ${API.activation}`]: () => jsonResponse(400, { token: ['Invalid token for given user.'] }) });
    renderActivation();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(AUTH_MESSAGES.activationFailed);
  });

  it('says a throttled activation is to be tried again later, not that the link is broken', async () => {
    fakeApi({
      [`POST ${API.activation}`]: () =>
        jsonResponse(429, { detail: 'Request was throttled. Expected available in 766 seconds.' }),
    });
    renderActivation();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(AUTH_MESSAGES.throttled);
  });

  it('hands the share page a sign-up came from on to login, whatever the activation answered', async () => {
    fakeApi({ [`POST ${API.activation}`]: () => new Response(null, { status: 204 }) });
    const { router } = renderActivation('?redirect=%2Fs%2FAb-c_12');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?redirect=%2Fs%2FAb-c_12');
  });

  it.each(['//evil.example', 'https://evil.example/s/x', '/profile'])(
    'hands no redirect=%s on: an activation link leads back to a share page only',
    async (redirect) => {
      fakeApi({ [`POST ${API.activation}`]: () => new Response(null, { status: 204 }) });
      const { router } = renderActivation(`?redirect=${encodeURIComponent(redirect)}`);
      expect(await screen.findByText('login page')).toBeInTheDocument();
      expect(router.state.location.search).toBe('');
    },
  );
});
