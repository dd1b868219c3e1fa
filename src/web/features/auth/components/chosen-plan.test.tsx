import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { TERMS_CONFIRMATION } from '@shared/contract/plain';
import { chosenPlan } from '@web/lib/chosen-plan';
import { sessionStore } from '@web/lib/session';
import { fakeApi, renderWithProviders } from '@web/test/render';
import { ActivateAccount } from './activate-account';
import { LoginForm } from './login-form';
import { SignupForm } from './signup-form';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

// The plan picked on the pricing table (`/signup?plan=pro`) travels through sign-up, the login page it
// goes on to, the activation link (a tab of its own: the device keeps it) and login, which ends at checkout.

const TOKENS = { access: 'x.eyJ1c2VyX2lkIjo3fQ.y', refresh: 'r' };
const USER = { id: 7, email: 'ada@example.com', first_name: '', last_name: '', is_staff: false };

const authRoutes = [
  { path: '/signup', element: <SignupForm /> },
  { path: '/login', element: <LoginForm /> },
  { path: '/activation/:uid/:token', element: <ActivateAccount uid="MQ" token="t0k3n" /> },
  { path: '/profile', element: <p>profile page</p> },
  { path: '/subliminals', element: <p>player page</p> },
  { path: '/music', element: <p>music page</p> },
];
const renderAt = (path: string) => renderWithProviders(<p>unused</p>, { path, pattern: '/unused', routes: authRoutes });

function accountServer() {
  return fakeApi({
    [`POST ${API.signup}`]: ({ body }) => ({ id: 7, email: (body as { email: string }).email }),
    [`POST ${API.activation}`]: () => new Response(null, { status: 204 }),
    [`POST ${API.tokenCreate}`]: () => TOKENS,
    [`GET ${API.me}`]: () => USER,
  });
}

async function logIn(password = 'Quiet-Harbour-58') {
  const user = userEvent.setup();
  if (!(screen.getByLabelText('Email') as HTMLInputElement).value)
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('a plan picked on the pricing table', () => {
  it('is named at sign-up and carried through login into checkout', async () => {
    accountServer();
    const { router } = renderAt('/signup?plan=pro');
    expect(screen.getByText(/You chose/)).toHaveTextContent('You chose Pro ($56 a month).');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?plan=pro');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'Quiet-Harbour-58');
    await user.type(screen.getByLabelText('Confirm password'), 'Quiet-Harbour-58');
    await user.click(screen.getByRole('checkbox', { name: TERMS_CONFIRMATION }));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(await screen.findByText(/After you activate your account and log in, checkout is next/)).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/login?plan=pro');

    await logIn();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(router.state.location.search).toBe('?checkout=pro');
    expect(chosenPlan.read()).toBeNull();
    sessionStore.clear();
  });

  it('waits on the device while the activation link opens in a tab of its own', async () => {
    accountServer();
    chosenPlan.remember('intermediate');
    const { router } = renderAt('/activation/MQ/t0k3n');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(/You chose/)).toHaveTextContent(
      'You chose Intermediate ($36 a month). Log in to go on to checkout.',
    );

    await logIn();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(router.state.location.search).toBe('?checkout=intermediate');
    sessionStore.clear();
  });

  it('gives way to the page the login guard was asked for, and a plain login goes to the player', async () => {
    accountServer();
    chosenPlan.remember('pro');
    const { router } = renderAt('/login?redirect=%2Fmusic');
    await logIn();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/music'));
    sessionStore.clear();

    const plain = renderAt('/login');
    expect(screen.queryByText(/You chose/)).toBeNull();
    await logIn();
    await vi.waitFor(() => expect(plain.router.state.location.pathname).toBe('/subliminals'));
    sessionStore.clear();
  });

  it('is forgotten after a day, so the next person on a shared device is not sent to checkout', () => {
    const day = 24 * 60 * 60 * 1000;
    chosenPlan.remember('pro', 1_000);
    expect(chosenPlan.read(1_000 + day - 1)).toBe('pro');
    expect(chosenPlan.read(1_000 + day + 1)).toBeNull();
  });

  it('means nothing when it is Basic or unknown', () => {
    renderAt('/signup?plan=platinum');
    expect(screen.queryByText(/You chose/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(chosenPlan.read()).toBeNull();
  });
});
