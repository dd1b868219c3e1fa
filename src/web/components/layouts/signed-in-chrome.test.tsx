import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '@web/lib/session';
import { renderRoutes } from '@web/test/render';
import { PublicChrome } from './public-chrome';
import { PortalLayout } from './portal-layout';

const user = { id: 7, email: 'maya@example.com', first_name: 'Maya', last_name: 'Lindqvist', is_staff: false };

function signIn() {
  sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
  sessionStore.setUser(user);
}

describe('the bars of a signed-in person', () => {
  afterEach(() => sessionStore.clear());

  it('the public bar offers a visitor "Log in" and someone signed in their avatar and the portal', () => {
    const { unmount } = renderRoutes([{ path: '*', element: <PublicChrome>page</PublicChrome> }]);
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    unmount();

    signIn();
    renderRoutes([{ path: '*', element: <PublicChrome>page</PublicChrome> }]);
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
    const portal = screen.getByRole('link', { name: /Open the portal/ });
    expect(portal).toHaveAttribute('href', '/subliminals');
    expect(portal.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'ML');
    // The name and the address each in a box of their own (decision 064).
    expect(portal).toHaveAttribute('title', 'Signed in as \u2068Maya Lindqvist\u2069 (\u2068maya@example.com\u2069)');
    // Without a name, the address alone, in its box.
    act(() => sessionStore.setUser({ ...user, first_name: '', last_name: '' }));
    expect(portal).toHaveAttribute('title', 'Signed in as \u2068maya@example.com\u2069');
  });

  it('the public bar’s "Log in", and its phone menu’s, come back to a share page and to no other page', async () => {
    const TOKEN = 'abcdefghijklmnopqrstuv';
    const back = `/login?redirect=%2Fs%2F${TOKEN}`;
    const { unmount } = renderRoutes([{ path: '*', element: <PublicChrome>page</PublicChrome> }], {
      path: `/s/${TOKEN}`,
    });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', back);
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    expect(within(menu).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', back);
    unmount();

    // Any other page logs in to the player, as the spec has it: only a share page is carried (decision 052).
    renderRoutes([{ path: '*', element: <PublicChrome>page</PublicChrome> }], { path: '/portal/home/' });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(
      within(await screen.findByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Log in' }),
    ).toHaveAttribute('href', '/login');
  });

  it('the pre-rendered page is signed out for everyone and turns signed in after hydration', async () => {
    signIn();
    const page = <PublicChrome>home</PublicChrome>;
    const container = document.createElement('div');
    container.innerHTML = renderToString(page);
    document.body.append(container);
    expect(within(container).getByRole('link', { name: 'Log in' })).toBeInTheDocument();
    const recoverable = vi.fn();
    const root = await act(async () => hydrateRoot(container, page, { onRecoverableError: recoverable }));
    expect(within(container).getByRole('link', { name: /Open the portal/ })).toBeInTheDocument();
    expect(recoverable).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });

  it('the logo leads home, in either bar: a visitor to the site’s home, someone signed in to the portal home (decision 092)', async () => {
    const logo = () => screen.getByRole('link', { name: 'Innerwave home' });
    const visitor = renderRoutes([{ path: '*', element: <PublicChrome>page</PublicChrome> }]);
    expect(logo()).toHaveAttribute('href', '/');
    visitor.unmount();

    signIn();
    const member = renderRoutes([{ path: '*', element: <PublicChrome>page</PublicChrome> }]);
    expect(logo()).toHaveAttribute('href', '/portal/home/');
    member.unmount();
    renderRoutes([{ element: <PortalLayout />, children: [{ path: '*', element: <p>portal page</p> }] }]);
    expect(logo()).toHaveAttribute('href', '/portal/home/');

    // A pre-rendered page, for no one, holds both, each shown to its own visit before the script runs; hydrated,
    // the visit's stays.
    const page = <PublicChrome>home</PublicChrome>;
    const container = document.createElement('div');
    container.innerHTML = renderToString(page);
    document.body.append(container);
    const logos = () => within(container).getAllByRole('link', { name: 'Innerwave home' });
    expect(logos().map((link) => [link.getAttribute('href'), link.classList.contains('signed-out:hidden')])).toEqual([
      ['/portal/home/', true],
      ['/', false],
    ]);
    expect(logos()[1]).toHaveClass('signed-in:hidden');
    const root = await act(async () => hydrateRoot(container, page));
    expect(logos().map((link) => link.getAttribute('href'))).toEqual(['/portal/home/']);
    act(() => root.unmount());
    container.remove();
  });

  it('the portal bar names the account menu by what it shows and leads back to the site', async () => {
    signIn();
    renderRoutes([{ element: <PortalLayout />, children: [{ path: '*', element: <p>portal page</p> }] }]);
    const sidebar = screen.getByRole('navigation', { name: 'Portal' });
    expect(sidebar).toContainElement(screen.getByRole('link', { name: 'Back to the site' }));
    // The portal home first, one press from every portal page (decision 086).
    expect(within(sidebar).getAllByRole('link')[0]).toHaveAccessibleName('Portal home');
    expect(within(sidebar).getByRole('link', { name: 'Portal home' })).toHaveAttribute('href', '/portal/home/');
    // WCAG 2.5.3: the accessible name starts with the visible text.
    const menu = screen.getByRole('button', { name: 'maya@example.com, account menu' });
    expect(menu).toHaveTextContent('maya@example.com');
    await userEvent.setup().click(menu);
    expect(await screen.findByText('Maya Lindqvist')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Back to the site' })).toHaveAttribute('href', '/');
  });
});
