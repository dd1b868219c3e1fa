import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@shared/contract/errors';
import { API } from '@shared/contract/paths';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { heardOnFocus } from '@web/test/heard-on-focus';
import { useSession } from '@web/lib/session';
import { AUTH_MESSAGES } from '../messages';
import { LoginForm } from './login-form';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));

const renderLogin = () => renderWithProviders(<LoginForm />, { path: '/login', pattern: '/login' });

/** The page a login goes to, as it first renders: who it finds signed in. */
const firstSeen: Array<string | null> = [];
function SubliminalsPage() {
  const { user } = useSession();
  if (firstSeen.length === 0) firstSeen.push(user?.first_name ?? null);
  return <h1>Subliminals</h1>;
}

async function logIn(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

afterEach(() => {
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
  sessionStore.clear();
});

describe('login form', () => {
  it('puts the keyboard on the first field refused, its error already tied to it, and announces the error no more', async () => {
    const { calls } = fakeApi({});
    renderLogin();
    const user = userEvent.setup();
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    const heard = heardOnFocus(email);
    await user.type(password, 'Quiet-Harbour-58');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(email).toHaveFocus();
    // Read once, with the field, as the keyboard lands on it: invalid, and why.
    expect(heard).toEqual([{ invalid: true, description: AUTH_MESSAGES.emailMissing }]);
    expect(email).toHaveAttribute('aria-describedby', 'login-email-error');
    expect(screen.getByText(AUTH_MESSAGES.emailMissing)).toHaveAttribute('id', 'login-email-error');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(calls).toEqual([]);

    // Put right as it is typed, said by the field alone.
    await user.type(email, 'ada@example.com');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(email).not.toHaveAttribute('aria-describedby');
  });

  it('puts the server’s field error under its field and the keyboard there once it is drawn', async () => {
    fakeApi({
      [`POST ${API.tokenCreate}`]: () =>
        jsonResponse(400, { password: ['Ensure this field has no more than 128 characters.'] }),
    });
    renderLogin();
    const password = screen.getByLabelText('Password');
    const heard = heardOnFocus(password);
    await logIn('ada@example.com', 'Quiet-Harbour-58');

    await vi.waitFor(() => expect(password).toHaveFocus());
    expect(heard.at(-1)).toEqual({ invalid: true, description: 'Ensure this field has no more than 128 characters.' });
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('says the spec’s message for a wrong password at the form, once, until the person types again', async () => {
    fakeApi({ [`POST ${API.tokenCreate}`]: () => jsonResponse(401, { detail: MESSAGES.badCredentials }) });
    renderLogin();
    await logIn('ada@example.com', 'Wrong-one-1');
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_MESSAGES.loginFailed);
    expect(toast.error).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Resend the activation link' })).toBeNull();
    await userEvent.setup().type(screen.getByLabelText('Password'), '2');
    expect(screen.queryByText(AUTH_MESSAGES.loginFailed)).toBeNull();
  });

  it('takes the resend’s failure toast away once Resend the activation link, pressed again, works (decision 150)', async () => {
    const answers = [jsonResponse(503, null), new Response(null, { status: 204 })];
    fakeApi({
      [`POST ${API.tokenCreate}`]: () =>
        jsonResponse(401, { detail: MESSAGES.badCredentials, code: 'account_inactive' }),
      [`POST ${API.resendActivation}`]: () => answers.shift()!,
    });
    vi.mocked(toast.error).mockReturnValueOnce('resend failed');
    renderLogin();
    await logIn('ada@example.com', 'Quiet-Harbour-58');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend the activation link' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(AUTH_MESSAGES.resendFailed));
    expect(toast.dismiss).not.toHaveBeenCalledWith('resend failed');
    await user.click(screen.getByRole('button', { name: 'Resend the activation link' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.resendSent));
    expect(toast.dismiss).toHaveBeenCalledWith('resend failed');
  });

  it('tells an inactive account with the right password, and resends its link', async () => {
    const api = fakeApi({
      [`POST ${API.tokenCreate}`]: () =>
        jsonResponse(401, { detail: MESSAGES.badCredentials, code: 'account_inactive' }),
      [`POST ${API.resendActivation}`]: () => new Response(null, { status: 204 }),
    });
    renderLogin();
    await logIn('ada@example.com', 'Quiet-Harbour-58');
    expect(await screen.findByText(AUTH_MESSAGES.accountInactive)).toBeInTheDocument();
    expect(toast.error).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend the activation link' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.resendSent));
    expect(api.calls.at(-1)).toMatchObject({ path: API.resendActivation, body: { email: 'ada@example.com' } });
  });

  it('keeps the keyboard on "Sending…" while the link is asked for, a second press asking nothing more', async () => {
    let answer = () => {};
    const api = fakeApi({
      [`POST ${API.tokenCreate}`]: () =>
        jsonResponse(401, { detail: MESSAGES.badCredentials, code: 'account_inactive' }),
      [`POST ${API.resendActivation}`]: () =>
        new Promise<Response>((resolve) => (answer = () => resolve(new Response(null, { status: 204 })))),
    });
    renderLogin();
    await logIn('ada@example.com', 'Quiet-Harbour-58');
    const user = userEvent.setup();
    const resend = await screen.findByRole('button', { name: 'Resend the activation link' });
    resend.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Sending…' })).toBe(resend);
    expect(resend).toHaveAttribute('aria-disabled', 'true');
    expect(resend).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(api.calls.filter(({ path }) => path === API.resendActivation)).toHaveLength(1);
    answer();
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.resendSent));
    expect(resend).toHaveFocus();
  });

  it('after a sign-up in this tab says where the link went, with one resend at a time; a plain visit says nothing', async () => {
    const api = fakeApi({
      [`POST ${API.tokenCreate}`]: () =>
        jsonResponse(401, { detail: MESSAGES.badCredentials, code: 'account_inactive' }),
      [`POST ${API.resendActivation}`]: () => new Response(null, { status: 204 }),
    });
    const signedUp = renderWithProviders(<LoginForm />, {
      path: '/signup',
      pattern: '/login',
      routes: [{ path: '/signup', element: <p>sign-up</p> }],
    });
    await act(() => signedUp.router.navigate('/login', { state: { signedUp: 'ada@example.com' } }));
    expect(screen.getByText(/Your activation link went to/)).toHaveTextContent('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend the activation link' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.resendSent));
    expect(api.calls.at(-1)).toMatchObject({ path: API.resendActivation, body: { email: 'ada@example.com' } });

    // Logging in before the link is opened: the refusal's box takes the notice's place.
    await logIn('', 'Quiet-Harbour-58');
    expect(await screen.findByText(AUTH_MESSAGES.accountInactive)).toBeInTheDocument();
    expect(screen.queryByText(/Your activation link went to/)).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Resend the activation link' })).toHaveLength(1);
    signedUp.unmount();

    renderLogin();
    expect(screen.queryByText(/Your activation link went to/)).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Password')).not.toHaveFocus();
  });

  it('keeps the sign-up’s notice on the pre-rendered page of a reload: the history entry still carries it', () => {
    // What the page finds after a reload of the /login the sign-up went to (lean-page.tsx wrote the entry).
    window.history.replaceState({ usr: { signedUp: 'ada@example.com' }, key: 'k', idx: 1 }, '', '/login');
    try {
      render(<LoginForm />);
      expect(screen.getByText(/Your activation link went to/)).toHaveTextContent('ada@example.com');
      expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
      expect(screen.getByLabelText('Password')).toHaveFocus();
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('stores the profile before it opens the next page', async () => {
    const ada = { id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', is_staff: false };
    const api = fakeApi({
      [`POST ${API.tokenCreate}`]: () => jsonResponse(200, { access: 'a1', refresh: 'r1' }),
      // Answered after a while, as over a network: the next page must not open before it.
      [`GET ${API.me}`]: () => new Promise<Response>((answer) => setTimeout(() => answer(jsonResponse(200, ada)), 50)),
    });
    renderWithProviders(<LoginForm />, {
      path: '/login',
      pattern: '/login',
      routes: [{ path: '/subliminals', element: <SubliminalsPage /> }],
    });
    await logIn('ada@example.com', 'Quiet-Harbour-58');
    expect(await screen.findByRole('heading', { name: 'Subliminals' })).toBeInTheDocument();
    expect(firstSeen).toEqual(['Ada']);
    expect(sessionStore.get()).toMatchObject({ access: 'a1', refresh: 'r1', user: ada });
    expect(api.calls.filter((call) => call.path === API.me)).toHaveLength(1);
  });

  // The router opens /logout whatever the case and percent-encoding of its path: followed after login, such a
  // target would sign the person out again at once, and a link carrying it would never let them in.
  it.each(['/logout', '/LOGOUT', '/%6Cogout', '/Log%4Fut?x=1'])(
    'opens the subliminals, not %s, after login',
    async (target) => {
      fakeApi({
        [`POST ${API.tokenCreate}`]: () => jsonResponse(200, { access: 'a1', refresh: 'r1' }),
        [`GET ${API.me}`]: () =>
          jsonResponse(200, { id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: '', is_staff: false }),
      });
      renderWithProviders(<LoginForm />, {
        path: `/login?redirect=${encodeURIComponent(target)}`,
        pattern: '/login',
        routes: [
          { path: '/subliminals', element: <h1>Subliminals</h1> },
          { path: '/logout', element: <h1>Signing out</h1> },
        ],
      });
      await logIn('ada@example.com', 'Quiet-Harbour-58');
      expect(await screen.findByRole('heading', { name: 'Subliminals' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Signing out' })).not.toBeInTheDocument();
    },
  );

  it('says offline, not "incorrect", when the server cannot be reached', async () => {
    fakeApi({ [`POST ${API.tokenCreate}`]: () => Promise.reject(new TypeError('Failed to fetch')) });
    renderLogin();
    await logIn('ada@example.com', 'Quiet-Harbour-58');
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_MESSAGES.offline);
    expect(screen.queryByText(AUTH_MESSAGES.loginFailed)).toBeNull();
  });
});
