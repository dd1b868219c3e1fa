import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { EMAIL_TAKEN, TERMS_CONFIRMATION, TERMS_NOT_ACCEPTED } from '@shared/contract/plain';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { expectIsolated } from '@web/test/isolated';
import { AUTH_MESSAGES } from '../messages';
import { LoginForm } from './login-form';
import { SignupForm } from './signup-form';

function renderSignup(path = '/signup') {
  return renderWithProviders(<SignupForm />, {
    path,
    pattern: '/signup',
    routes: [{ path: '/login', element: <LoginForm /> }],
  });
}

async function fill(email: string, password: string, again: string, { acceptTerms = true } = {}) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), again);
  if (acceptTerms) await user.click(screen.getByRole('checkbox', { name: TERMS_CONFIRMATION }));
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('signup form', () => {
  it('names missing fields, each its own, and sends nothing', async () => {
    const api = fakeApi({});
    renderSignup();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Your e-mail is missing')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/^Your password is missing /);
    // The empty confirm field says it is the one missing, not the password above it.
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription(
      'Confirm your password: type it again',
    );
    expect(screen.getAllByText('Your password is missing')).toHaveLength(1);

    await user.type(screen.getByLabelText('Password'), 'Quiet-Harbour-58');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await vi.waitFor(() => expect(screen.queryByText('Your password is missing')).toBeNull());
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription(
      'Confirm your password: type it again',
    );
    expect(api.calls).toEqual([]);
  });

  it('really checks that the passwords match and sends nothing when they do not', async () => {
    const api = fakeApi({});
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-59');
    expect(await screen.findByText('The password does not match')).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it('leads an address that already has an account to its login, filled in, or to a new password', async () => {
    fakeApi({ [`POST ${API.signup}`]: () => jsonResponse(400, { email: [EMAIL_TAKEN] }) });
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
    expect(await screen.findByText(EMAIL_TAKEN)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'reset its password' })).toHaveAttribute('href', '/resetpassword/');
    // The failure's toast does not follow the person to the login.
    const dismiss = vi.spyOn(toast, 'dismiss');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Log in with it' }));
    await vi.waitFor(() => expect(dismiss).toHaveBeenCalledWith());
    dismiss.mockRestore();
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByText(/Welcome back\./)).toBeInTheDocument();
  });

  it("shows the server's field errors under their fields", async () => {
    fakeApi({
      [`POST ${API.signup}`]: () =>
        jsonResponse(400, {
          email: ['user with this email already exists.'],
          password: ['This password is too common.', 'This password is entirely numeric.'],
        }),
    });
    renderSignup();
    await fill('ada@example.com', '12345678', '12345678');
    expect(await screen.findByText('user with this email already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    // Every broken rule, not only the first.
    expect(screen.getByText('This password is too common. This password is entirely numeric.')).toBeInTheDocument();
  });

  it('requires the age/consent and terms confirmation, with links to both texts', async () => {
    const api = fakeApi({});
    renderSignup();
    expect(screen.getByRole('link', { name: 'terms and conditions' })).toHaveAttribute('href', '/terms/');
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy/');
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58', { acceptTerms: false });
    expect(await screen.findByText(TERMS_NOT_ACCEPTED)).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it('shows and hides the password', async () => {
    fakeApi({});
    renderSignup();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'Quiet-Harbour-58');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    await user.click(screen.getAllByRole('button', { name: 'Show password' })[0]!);
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
  });

  it('says "offline" in the spec\'s words when the request never reaches the server', async () => {
    const error = vi.spyOn(toast, 'error');
    fakeApi({ [`POST ${API.signup}`]: () => Promise.reject(new TypeError('Failed to fetch')) });
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith(AUTH_MESSAGES.signupError(AUTH_MESSAGES.offline)));
    error.mockRestore();
  });

  it('goes to login after a 201, which says where the link went, offers a new one and has the address filled in', async () => {
    const api = fakeApi({
      [`POST ${API.signup}`]: () => jsonResponse(201, { id: 1, email: 'ada@example.com' }),
      [`POST ${API.resendActivation}`]: () => new Response(null, { status: 204 }),
    });
    const success = vi.spyOn(toast, 'success');
    const { router } = renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(success).toHaveBeenCalledWith(AUTH_MESSAGES.signupSucceeded);
    // Someone new is not welcomed back.
    expect(screen.getByText(/Log in to open your subliminals/)).toHaveTextContent(/^Welcome to Innerwave\./);
    // The toast has said to check the inbox to activate the account: the notice says where and what follows, once.
    const notice = screen.getByText(/Your activation link went to/);
    expect(notice).toHaveTextContent(
      'Your activation link went to ada@example.com. Log in here once you have opened it.',
    );
    expect(notice).not.toHaveTextContent(/activate your account/i);
    // The address in its own box (decision 064).
    expectIsolated(screen.getByText('ada@example.com', { selector: 'strong' }), 'ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend the activation link' }));
    await vi.waitFor(() => expect(success).toHaveBeenCalledWith(AUTH_MESSAGES.resendSent));
    expect(api.calls.map(({ path, body }) => [path, body])).toEqual([
      [
        API.signup,
        { email: 'ada@example.com', password: 'Quiet-Harbour-58', re_password: 'Quiet-Harbour-58', accept_terms: true },
      ],
      [API.resendActivation, { email: 'ada@example.com' }],
    ]);
    success.mockRestore();
  });

  it('signed up from a share link: sends its page for the activation link and goes to a login that returns to it', async () => {
    const api = fakeApi({
      [`POST ${API.signup}`]: () => jsonResponse(201, { id: 1, email: 'ada@example.com' }),
      [`POST ${API.resendActivation}`]: () => new Response(null, { status: 204 }),
    });
    const { router } = renderSignup('/signup?redirect=%2Fs%2FAb-c_12');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?redirect=%2Fs%2FAb-c_12');
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/login?redirect=%2Fs%2FAb-c_12');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/signup?redirect=%2Fs%2FAb-c_12',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend the activation link' }));
    await vi.waitFor(() => expect(api.calls).toHaveLength(2));
    expect(api.calls.map(({ body }) => (body as { redirect?: string }).redirect)).toEqual(['/s/Ab-c_12', '/s/Ab-c_12']);
  });

  it.each(['/profile', '//evil.example/s/x', '/s/x/../../profile'])(
    'carries no redirect=%s that is not a share page into the sign-up (the server would refuse it)',
    async (redirect) => {
      const api = fakeApi({ [`POST ${API.signup}`]: () => jsonResponse(201, { id: 1, email: 'ada@example.com' }) });
      const { router } = renderSignup(`/signup?redirect=${encodeURIComponent(redirect)}`);
      await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
      expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
      expect(router.state.location.search).toBe('');
      expect(api.calls[0]!.body).not.toHaveProperty('redirect');
    },
  );

  it('says to wait when the server limits attempts, as login does', async () => {
    const error = vi.spyOn(toast, 'error');
    fakeApi({ [`POST ${API.signup}`]: () => jsonResponse(429, { detail: 'Request was throttled.' }) });
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith(AUTH_MESSAGES.throttled));
    error.mockRestore();
  });
});
