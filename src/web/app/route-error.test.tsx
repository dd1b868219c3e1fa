import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '@web/lib/paths';
import { PageError, ROUTE_ERROR_TITLE } from './route-error';
import { routes } from './router';

/** The routes under the one whose `lazy` loads the portal's shell. */
function portalShellChildren(table: RouteObject[]): RouteObject[] | undefined {
  for (const route of table) {
    if (route.lazy && String(route.lazy).includes('portal-shell')) return route.children;
    const found = portalShellChildren(route.children ?? []);
    if (found) return found;
  }
  return undefined;
}

describe('a portal page that fails as it renders', () => {
  it('is caught inside the portal’s layout, for every portal page', () => {
    const children = portalShellChildren(routes);
    expect(children).toHaveLength(1);
    expect(children![0]!.errorElement).toBeTruthy();
    const pagePaths = children![0]!.children!.map((route) => route.path);
    expect(pagePaths).toEqual(expect.arrayContaining([paths.subliminals, paths.profile, paths.music, paths.admin]));
  });

  it('says so in the page’s place, keeps the layout, and renders the page anew on Try again', async () => {
    let broken = true;
    function Page() {
      if (broken) throw new Error('render failed');
      return <h1>Profile</h1>;
    }
    const router = createMemoryRouter(
      [
        {
          element: (
            <div>
              <nav aria-label="Portal menu" />
              <Outlet />
            </div>
          ),
          children: [{ errorElement: <PageError />, children: [{ path: '/profile', element: <Page /> }] }],
        },
      ],
      { initialEntries: ['/profile'] },
    );
    // React reports the caught render error on the console; the page says it on screen.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(<RouterProvider router={router} />);
      expect(await screen.findByRole('heading', { name: ROUTE_ERROR_TITLE })).toBeInTheDocument();
      expect(screen.getByRole('navigation', { name: 'Portal menu' })).toBeInTheDocument();
      expect(screen.getAllByRole('alert')).toHaveLength(1);
      expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', paths.home);
      broken = false;
      await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    } finally {
      consoleError.mockRestore();
    }
  });
});
