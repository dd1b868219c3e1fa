import { afterEach, describe, expect, it } from 'vitest';
import { PortalLayout } from '@web/components/layouts/portal-layout';
import { PORTAL_FRAME_ID } from '@web/lib/portal-frame';
import { renderRoutes } from '@web/test/render';

// A portal page's document carries a pre-rendered frame of the page beside the app's root (built by
// build/vite-plugins.ts): it must stay until the page shows, and never outstay it.

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
});
