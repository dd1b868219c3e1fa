import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AdaptiveLayout } from '@web/components/layouts/adaptive-layout';
import { PortalLayout } from '@web/components/layouts/portal-layout';
import { startLeanPage } from '@web/lean-page';
import { PORTAL_FRAME_ID } from '@web/lib/portal-frame';
import { renderRoutes } from '@web/test/render';

// A page's document carries a pre-rendered portal frame of the page beside the app's root for a signed-in
// visit (built by build/vite-plugins.ts): it must stay until the page shows, and never outstay it.

function addFrame(path: string) {
  const frame = document.createElement('div');
  frame.id = PORTAL_FRAME_ID;
  frame.dataset.path = path;
  document.body.prepend(frame);
}

const frameOnPage = () => document.getElementById(PORTAL_FRAME_ID) !== null;

const portalPage = (settling: boolean) => [
  {
    path: '/subliminals',
    element: <PortalLayout noticeSettling={settling} />,
    children: [{ index: true, element: <h1>Subliminals</h1> }],
  },
];

describe('a portal page’s pre-rendered frame', () => {
  afterEach(() => document.getElementById(PORTAL_FRAME_ID)?.remove());

  it('stays while the page waits to know whether the invitation comes, and goes when the page shows', () => {
    addFrame('/subliminals');
    const waiting = renderRoutes(portalPage(true), { path: '/subliminals' });
    expect(frameOnPage()).toBe(true);
    waiting.unmount();
    renderRoutes(portalPage(false), { path: '/subliminals' });
    expect(frameOnPage()).toBe(false);
  });

  it('goes at once when the app shows another page than its own (signed out: login)', () => {
    addFrame('/music');
    const own = renderRoutes([{ path: '/music', element: <p>loading</p> }], { path: '/music' });
    expect(frameOnPage()).toBe(true);
    own.unmount();
    renderRoutes([{ path: '/login', element: <h1>Log in</h1> }], { path: '/login' });
    expect(frameOnPage()).toBe(false);
  });

  it('stays on a share link for the frame of every share link, and goes on another page', () => {
    addFrame('/s/*');
    const shared = renderRoutes([{ path: '/s/:token', element: <p>loading</p> }], { path: '/s/abc' });
    expect(frameOnPage()).toBe(true);
    shared.unmount();
    renderRoutes([{ path: '/sx', element: <h1>Not found</h1> }], { path: '/sx' });
    expect(frameOnPage()).toBe(false);
  });

  it('goes when a page open to everyone shows signed out: the session ended after the document put it there', () => {
    addFrame('/terms/');
    renderRoutes([{ element: <AdaptiveLayout />, children: [{ path: '/terms/', element: <h1>Terms</h1> }] }], {
      path: '/terms/',
    });
    expect(frameOnPage()).toBe(false);
  });

  it('goes when the page’s own script starts it signed out, as it does not start the app', async () => {
    addFrame('/terms/');
    const root = document.createElement('div');
    root.id = 'root';
    document.body.append(root);
    await act(async () => startLeanPage(<h1>Terms</h1>, { spaWhenSignedIn: true }));
    expect(frameOnPage()).toBe(false);
    expect(root).toHaveTextContent('Terms');
    root.remove();
  });
});
