import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '@web/lib/session';
import { renderRoutes } from '@web/test/render';
import { paths } from '@web/lib/paths';
import { PortalHub } from './portal-hub';

describe('the portal hub', () => {
  afterEach(() => sessionStore.clear());

  it('asks a visitor to sign in, and not someone who is signed in', () => {
    const { unmount } = renderRoutes([{ path: '*', element: <PortalHub /> }]);
    expect(screen.getByText(/Sign in to use them/)).toBeInTheDocument();
    unmount();

    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'maya@example.com');
    renderRoutes([{ path: '*', element: <PortalHub /> }]);
    expect(screen.queryByText(/Sign in to use them/)).toBeNull();
    expect(screen.getByText(/Pick up where you left off/)).toBeInTheDocument();
  });

  it('leads to every page of the portal menu a member uses', () => {
    renderRoutes([{ path: '*', element: <PortalHub /> }]);
    const offers = screen.getByRole('heading', { name: 'What the portal offers' }).closest('section');
    const targets = [...(offers?.querySelectorAll('a') ?? [])].map((link) => link.getAttribute('href'));
    for (const page of [
      paths.subliminals,
      paths.music,
      paths.programs,
      paths.practice,
      paths.applications,
      paths.profile,
      paths.support,
    ])
      expect(targets).toContain(page);
  });
});
