import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignupForm } from './signup-form';

function renderSignup() {
  const router = createMemoryRouter(
    [
      { path: '/signup', element: <SignupForm /> },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: ['/signup'] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

async function fill(email: string, password: string, again: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), again);
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('signup form', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names missing fields and sends nothing', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    renderSignup();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Your e-mail is missing')).toBeInTheDocument();
    expect(screen.getAllByText('Your password is missing')).toHaveLength(2);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('really checks that the passwords match and sends nothing when they do not', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-59');
    expect(await screen.findByText('The password does not match')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("shows the server's field errors under their fields", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              email: ['user with this email already exists.'],
              password: ['This password is too common.'],
            }),
            { status: 400 },
          ),
      ),
    );
    renderSignup();
    await fill('ada@example.com', 'password1', 'password1');
    expect(await screen.findByText('user with this email already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('This password is too common.')).toBeInTheDocument();
  });

  it('goes to login after a 201', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ id: 1, email: 'ada@example.com' }), { status: 201 })),
    );
    renderSignup();
    await fill('ada@example.com', 'Quiet-Harbour-58', 'Quiet-Harbour-58');
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });
});
