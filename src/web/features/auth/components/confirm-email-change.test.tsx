import { screen } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { sessionStore } from '@web/lib/session';
import { AUTH_MESSAGES } from '../messages';
import { ConfirmEmailChange } from './confirm-email-change';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

// The link for new@example.com, as the server makes it: the address in base64url, `~`, its stamp.
const newAddressLink = `${btoa('new@example.com').replace(/=+$/, '')}~tq1b2c-${'x'.repeat(32)}`;

const renderConfirm = () =>
  renderWithProviders(<ConfirmEmailChange uid="MQ" token="abc~def" />, {
    path: '/email/confirm/MQ/abc~def',
    pattern: '/email/confirm/:uid/:token',
    strict: true,
    routes: [
      { path: '/login', element: <p>login page</p> },
      { path: '/profile', element: <p>profile page</p> },
    ],
  });

afterEach(() => {
  vi.clearAllMocks();
  sessionStore.clear();
});

describe('e-mail change confirmation', () => {
  it('posts the link once and goes on with a success message', async () => {
    const api = fakeApi({ [`POST ${API.setEmailConfirm}`]: () => new Response(null, { status: 204 }) });
    renderConfirm();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.emailChanged);
    expect(api.calls.map(({ body }) => body)).toEqual([{ uid: 'MQ', token: 'abc~def' }]);
  });

  it('signed in, keeps the new address as the signed-in one, so the portal bar shows it', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'old@example.com');
    // Account 1, as the link's uid (MQ) names it.
    const account = { id: 1, email: 'new@example.com', first_name: '', last_name: '', is_staff: false };
    fakeApi({
      [`POST ${API.setEmailConfirm}`]: () => new Response(null, { status: 204 }),
      [`GET ${API.me}`]: () => jsonResponse(200, account),
    });
    renderConfirm();
    expect(await screen.findByText('profile page')).toBeInTheDocument();
    expect(sessionStore.get()).toMatchObject({ email: 'new@example.com', user: account });
  });

  it('signed in as another account, names the address confirmed, not as theirs, and goes to login, not to that account’s profile', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'someone.else@example.com');
    const other = { id: 7, email: 'someone.else@example.com', first_name: '', last_name: '', is_staff: false };
    fakeApi({
      [`POST ${API.setEmailConfirm}`]: () => new Response(null, { status: 204 }),
      [`GET ${API.me}`]: () => jsonResponse(200, other),
    });
    renderWithProviders(<ConfirmEmailChange uid="MQ" token={newAddressLink} />, {
      path: `/email/confirm/MQ/${newAddressLink}`,
      pattern: '/email/confirm/:uid/:token',
      strict: true,
      routes: [{ path: '/login', element: <p>login page</p> }],
    });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledTimes(1);
    const said = vi.mocked(toast.success).mock.calls[0]![0] as string;
    expect(said).toBe(
      'The e-mail address was changed to \u2068new@example.com\u2069 for the account that asked for it. You are signed in with another account, which keeps its address.',
    );
    expect(said).not.toMatch(/\byour\b/i);
    expect(sessionStore.get()).toMatchObject({ email: 'someone.else@example.com' });
  });

  const usedLink = newAddressLink;
  const renderUsedLink = () =>
    renderWithProviders(<ConfirmEmailChange uid="MQ" token={usedLink} />, {
      path: `/email/confirm/MQ/${usedLink}`,
      pattern: '/email/confirm/:uid/:token',
      strict: true,
      routes: [
        { path: '/login', element: <p>login page</p> },
        { path: '/profile', element: <p>profile page</p> },
      ],
    });
  const usedLinkRefused = () =>
    jsonResponse(400, {
      token: [
        'This link is no longer valid: it expired, was used already, the change was cancelled or asked for again, or the account changed since.',
      ],
    });

  it('opened again where the change is done (a second tab, a double click), says it was changed, not that it failed', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'old@example.com');
    // Account 1, as the link's uid (MQ) names it.
    const account = { id: 1, email: 'New@Example.com', first_name: '', last_name: '', is_staff: false };
    fakeApi({
      [`POST ${API.setEmailConfirm}`]: usedLinkRefused,
      [`GET ${API.me}`]: () => jsonResponse(200, account),
    });
    renderUsedLink();
    expect(await screen.findByText('profile page')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.emailChanged);
    expect(sessionStore.get()).toMatchObject({ email: 'New@Example.com', user: account });
  });

  it('refused while the account has another address, keeps the reason on the page', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'old@example.com');
    const account = { id: 7, email: 'old@example.com', first_name: '', last_name: '', is_staff: false };
    fakeApi({
      [`POST ${API.setEmailConfirm}`]: usedLinkRefused,
      [`GET ${API.me}`]: () => jsonResponse(200, account),
    });
    renderUsedLink();
    expect(await screen.findByText(AUTH_MESSAGES.emailLinkDidNotChange)).toBeInTheDocument();
    expect(screen.getByText(/was used already/)).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('keeps the reason on the page when the link no longer works', async () => {
    fakeApi({
      [`POST ${API.setEmailConfirm}`]: () => jsonResponse(400, { new_email: ['user with this email already exists.'] }),
    });
    renderConfirm();
    expect(await screen.findByText(AUTH_MESSAGES.emailLinkDidNotChange)).toBeInTheDocument();
    expect(screen.getByText('user with this email already exists.')).toBeInTheDocument();
  });

  it('says a throttled confirmation is to be tried again later, in the words login uses, not the server’s seconds', async () => {
    fakeApi({
      [`POST ${API.setEmailConfirm}`]: () =>
        jsonResponse(429, { detail: 'Request was throttled. Expected available in 766 seconds.' }),
    });
    renderConfirm();
    expect(await screen.findByText(AUTH_MESSAGES.throttled)).toBeInTheDocument();
    expect(screen.queryByText(/766 seconds/)).not.toBeInTheDocument();
  });
});
