import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { TERMS_CONFIRMATION } from '@shared/contract/plain';
import { awaitedActivation } from '@web/lib/awaited-activation';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { AUTH_MESSAGES } from '../messages';
import { ActivateAccount } from './activate-account';
import { LoginForm } from './login-form';
import { SignupForm } from './signup-form';
import { everyElementShown } from '@web/test/shown';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const renderActivation = (query = '') =>
  renderWithProviders(<ActivateAccount uid="MQ" token="t" />, {
    path: `/activation/MQ/t${query}`,
    pattern: '/activation/:uid/:token',
    routes: [
      {
        path: '/login',
        element: (
          <main id="main">
            <p>login page</p>
            <LoginForm />
          </main>
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

  describe('the address of an account signed up on this device', () => {
    /** Signs up as the form does, account 1 (uid MQ), and closes that tab: the link opens in another. */
    async function signUpHere(email: string) {
      fakeApi({ [`POST ${API.signup}`]: () => jsonResponse(201, { id: 1, email }) });
      renderWithProviders(<SignupForm />, {
        path: '/signup',
        pattern: '/signup',
        routes: [{ path: '/login', element: <LoginForm /> }],
      });
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('Email'), email);
      await user.type(screen.getByLabelText('Password'), 'Quiet-Harbour-58');
      await user.type(screen.getByLabelText('Confirm password'), 'Quiet-Harbour-58');
      await user.click(screen.getByRole('checkbox', { name: TERMS_CONFIRMATION }));
      await user.click(screen.getByRole('button', { name: 'Sign up' }));
      await screen.findByRole('heading', { name: 'Log in' });
      cleanup();
    }

    it('is filled into the login its link leads to, in a tab of its own, and then forgotten', async () => {
      everyElementShown();
      await signUpHere('ada@example.com');
      fakeApi({ [`POST ${API.activation}`]: () => new Response(null, { status: 204 }) });
      renderActivation();
      expect(await screen.findByText(/Welcome to Innerwave: your account is active\./)).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
      expect(screen.getByLabelText('Password')).toHaveValue('');
      // The password is what is left to type: the keyboard is there, and the router's landing on the heading
      // (a frame later, inside #main as in the app) leaves it.
      expect(screen.getByLabelText('Password')).toHaveFocus();
      await new Promise((frame) => requestAnimationFrame(frame));
      expect(screen.getByLabelText('Password')).toHaveFocus();
      // Active now: the device keeps the address no longer.
      expect(awaitedActivation.addressOf('MQ')).toBeNull();
      expect(localStorage.getItem('innerwave.awaitedActivation')).toBeNull();
    });

    it('is filled in after a link that failed too, and kept for the next link', async () => {
      await signUpHere('ada@example.com');
      fakeApi({ [`POST ${API.activation}`]: () => jsonResponse(400, { token: ['Invalid token for given user.'] }) });
      renderActivation();
      expect(await screen.findByText('login page')).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
      expect(awaitedActivation.addressOf('MQ')).toBe('ada@example.com');
    });

    it('is not filled in for the link of another account, nor after the link’s three days', async () => {
      // Kept from a sign-up more than three days ago: its link has expired.
      const expired = Date.now() - 3 * 24 * 60 * 60 * 1000 - 1000;
      localStorage.setItem(
        'innerwave.awaitedActivation',
        JSON.stringify({ MQ: { email: 'ada@example.com', at: expired } }),
      );
      awaitedActivation.remember(2, 'bo@example.com');
      fakeApi({ [`POST ${API.activation}`]: () => new Response(null, { status: 204 }) });
      renderActivation();
      expect(await screen.findByText(/your account is active/)).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toHaveValue('');
      expect(screen.getByLabelText('Password')).not.toHaveFocus();
      expect(awaitedActivation.addressOf(btoa('2').replace(/=+$/, ''))).toBe('bo@example.com');
    });

    it('ignores what it cannot read as kept addresses', async () => {
      for (const stored of [
        'not json',
        '[]',
        '{"MQ":{"email":5,"at":1}}',
        '{"__proto__":{"email":"x@example.com","at":1}}',
      ]) {
        localStorage.setItem('innerwave.awaitedActivation', stored);
        expect(awaitedActivation.addressOf('MQ')).toBeNull();
        expect(awaitedActivation.addressOf('__proto__')).toBeNull();
      }
    });
  });
});
