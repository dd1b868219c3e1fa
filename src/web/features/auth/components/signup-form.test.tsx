import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { AUTH_MESSAGES } from '../messages';
import { SignupForm } from './signup-form';

function renderSignup() {
  renderWithProviders(<SignupForm />, {
    path: '/signup',
    pattern: '/signup',
    routes: [{ path: '/login', element: <p>login page</p> }],
  });
}

async function fill(email: string, password: string, again: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), again);
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('signup form', () => {
  it('names missing fields and sends nothing', async () => {
    const api = fakeApi({});
    renderSignup();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Your e-mail is missing')).toBeInTheDocument();
    expect(screen.getAllByText('Your password is missing')).toHaveLength(2);
    expect(api.calls).toEqual([]);
  });

  it('really checks that the passwords match and sends nothing when they do not', async () => {
    const api = fakeApi({});
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-59');
    expect(await screen.findByText('The password does not match')).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it("shows the server's field errors under their fields", async () => {
    fakeApi({
      [`POST ${API.signup}`]: () =>
        jsonResponse(400, {
          email: ['user with this email already exists.'],
          password: ['This password is too common.'],
        }),
    });
    renderSignup();
    await fill('ada@example.com', 'password1', 'password1');
    expect(await screen.findByText('user with this email already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('This password is too common.')).toBeInTheDocument();
  });

  it('goes to login after a 201', async () => {
    const api = fakeApi({ [`POST ${API.signup}`]: () => jsonResponse(201, { id: 1, email: 'ada@example.com' }) });
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(api.calls.map(({ body }) => body)).toEqual([
      { email: 'ada@example.com', password: 'Quiet-Harbour-58', re_password: 'Quiet-Harbour-58' },
    ]);
  });

  it('says to wait when the server limits attempts, as login does', async () => {
    const error = vi.spyOn(toast, 'error');
    fakeApi({ [`POST ${API.signup}`]: () => jsonResponse(429, { detail: 'Request was throttled.' }) });
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith(AUTH_MESSAGES.throttled));
    error.mockRestore();
  });
});
