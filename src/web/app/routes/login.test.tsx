import { wholeText } from '@web/test/reads-whole';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '@web/lib/session';
import { renderWithProviders } from '@web/test/render';
import { Component as LoginRoute } from './login';

describe('/login', () => {
  afterEach(() => sessionStore.clear());

  it('shows a visitor the form', () => {
    renderWithProviders(<LoginRoute />, { path: '/login' });
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('shows someone signed in their account and the way in, not a second login', () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    sessionStore.setUser({ id: 7, email: 'maya@example.com', first_name: 'Maya', last_name: '', is_staff: false });
    renderWithProviders(<LoginRoute />, { path: '/login?redirect=%2Fmusic' });
    expect(screen.getByRole('heading', { name: 'You are signed in' })).toBeInTheDocument();
    expect(screen.getByText('Maya')).toBeInTheDocument();
    expect(screen.getByText(wholeText('maya@example.com'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the portal' })).toHaveAttribute('href', '/music');
    expect(screen.getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/logout');
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it.each(['/logout', '/LOGOUT', '/%6Cogout'])('leads someone signed in to the portal, not to %s', (target) => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    sessionStore.setUser({ id: 7, email: 'maya@example.com', first_name: 'Maya', last_name: '', is_staff: false });
    renderWithProviders(<LoginRoute />, { path: `/login?redirect=${encodeURIComponent(target)}` });
    expect(screen.getByRole('link', { name: 'Open the portal' })).toHaveAttribute('href', '/subliminals');
  });
});
