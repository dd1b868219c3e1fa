import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, MESSAGES } from '@shared/contract';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { AUTH_MESSAGES } from '../messages';
import { LoginForm } from './login-form';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const renderLogin = () => renderWithProviders(<LoginForm />, { path: '/login', pattern: '/login' });

async function logIn(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

afterEach(() => {
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
  sessionStore.clear();
});

describe('login form', () => {
  it('keeps the spec’s message for a wrong password and offers no resend', async () => {
    fakeApi({ [`POST ${API.tokenCreate}`]: () => jsonResponse(401, { detail: MESSAGES.badCredentials }) });
    renderLogin();
    await logIn('ada@example.com', 'Wrong-one-1');
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(AUTH_MESSAGES.loginFailed));
    expect(screen.queryByRole('button', { name: 'Resend the activation link' })).toBeNull();
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

  it('says offline, not "incorrect", when the server cannot be reached', async () => {
    fakeApi({ [`POST ${API.tokenCreate}`]: () => Promise.reject(new TypeError('Failed to fetch')) });
    renderLogin();
    await logIn('ada@example.com', 'Quiet-Harbour-58');
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(AUTH_MESSAGES.offline));
    expect(toast.error).not.toHaveBeenCalledWith(AUTH_MESSAGES.loginFailed);
  });
});
