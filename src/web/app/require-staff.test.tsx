import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '@web/lib/session';
import { PortalLayout } from '@web/components/layouts/portal-layout';
import { renderRoutes } from '@web/test/render';
import { RequireStaff } from './require-staff';

const signIn = (isStaff: boolean) => {
  sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
  sessionStore.setUser({ id: 1, email: 'someone@example.com', first_name: '', last_name: '', is_staff: isStaff });
};

const renderAdmin = () =>
  renderRoutes(
    [
      {
        element: <PortalLayout />,
        children: [
          { path: '/admin', element: <RequireStaff />, children: [{ index: true, element: <p>admin screens</p> }] },
        ],
      },
    ],
    { path: '/admin' },
  );

describe('staff guard and Admin link', () => {
  afterEach(() => sessionStore.clear());

  it('shows the admin screens and the Admin link to staff', () => {
    signIn(true);
    renderAdmin();
    expect(screen.getByText('admin screens')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });

  it('refuses a member and hides the Admin link', () => {
    signIn(false);
    renderAdmin();
    expect(screen.queryByText('admin screens')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Staff only' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });
});
