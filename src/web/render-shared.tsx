import { StrictMode } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { needsApp, SharedDocument, SharedFramePage } from './app/documents/shared';
import type { ServedShared } from '@shared/contract';
import { SHARED_DATA_ID } from './features/subliminals/api/shared-item';
import { SHARED_GONE_HEADING, sharedItemTitle, sharedTitle } from './features/subliminals/components/shared-view';
import { HANDS_OVER_CLASS } from './lib/hand-over';
import { documentNavigation, NavigationProvider } from './lib/link';
import { PORTAL_FRAME_ID } from './lib/portal-frame';

// Used by the server only: the build writes it to dist/render (build/vite-plugins.ts) and the server
// loads that file (src/server/http/web.ts). It fills the share page's document with what its link
// shares, so the page paints whole from its first response
// (docs/decisions/024-the-server-fills-the-share-page.md).

/** Where the data block goes: before the document's early read of the link (src/web/shared.html). */
const EARLY_READ = '<script data-shared-read>';

/** The page in the share page's portal frame, for a signed-in visit (docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md). */
const renderFramePage = (served?: ServedShared) => renderToString(<SharedFramePage served={served} />);

/** The data block: JSON that no text in it can end (`</script>`, `<!--`). */
const dataBlock = (served: ServedShared) =>
  `<script type="application/json" id="${SHARED_DATA_ID}">${JSON.stringify(served).replace(/</g, '\\u003c')}</script>`;

/**
 * A filler of the share page's document `template` (the loading document the build made, or one with
 * an empty #root), or undefined when it has no place for what it would fill in. The filler answers
 * the document for a link's path (for a subliminal with sound, its top: the SPA shows the rest, from
 * the data block).
 */
export function sharedPageFiller(template: string): ((served: ServedShared, pathname: string) => string) | undefined {
  // As prerender.tsx renders the page while loading: at its path in build/pages.ts.
  const loading = renderToString(
    <StrictMode>
      <NavigationProvider value={{ ...documentNavigation, usePathname: () => '/s/*' }}>
        <SharedDocument token="" />
      </NavigationProvider>
    </StrictMode>,
  );
  const root = [`<div id="root">${loading}</div>`, '<div id="root"></div>'].find((html) => template.includes(html));
  const readAt = template.indexOf(EARLY_READ);
  if (root === undefined || readAt < 0 || template.indexOf(root) < readAt) return undefined;
  const head = template.slice(0, readAt);
  const [middle, tail] = [
    template.slice(readAt, template.indexOf(root)),
    template.slice(template.indexOf(root) + root.length),
  ];
  // The portal frame the build put before the root, if it did: the portal's chrome around the page while
  // loading. The chrome stays the build's (no router or menus to load and render here); the page is filled.
  const frameStart = middle.indexOf(`<template><div id="${PORTAL_FRAME_ID}"`);
  const loadingPage = renderFramePage();
  const pageAt = frameStart < 0 ? -1 : middle.indexOf(loadingPage, frameStart);
  const withFrame = (served: ServedShared) =>
    pageAt < 0
      ? middle
      : `${middle.slice(0, pageAt)}${renderFramePage(served)}${middle.slice(pageAt + loadingPage.length)}`;
  return (served, pathname) => {
    const token = pathname.split('/')[2] ?? '';
    const page = renderToString(
      <StrictMode>
        <NavigationProvider value={{ ...documentNavigation, usePathname: () => pathname }}>
          <SharedDocument token={token} served={served} />
        </NavigationProvider>
      </StrictMode>,
    );
    // The tab names what is shared (escaped as React escapes text), as the page will once it runs.
    const title = renderToStaticMarkup(
      <title>{served.status === 'ready' ? sharedItemTitle(served.item.name) : sharedTitle(SHARED_GONE_HEADING)}</title>,
    );
    // A page that hands over to the app says so to its loader, which then asks for the app's code beside the
    // page's own (build/vite-plugins.ts, startAfterFirstPaint; docs/decisions/097-the-app-comes-sooner-builds-when-needed-and-sizes-read-well.md).
    const handsOver = served.status === 'ready' && needsApp(served.item);
    const filledHead = head
      .replace(/<title>[^<]*<\/title>/, () => title)
      .replace(/<html\b[^>]*(?=>)/, (tag) => (handsOver ? `${tag} class="${HANDS_OVER_CLASS}"` : tag));
    return `${filledHead}${dataBlock(served)}\n    ${withFrame(served)}<div id="root">${page}</div>${tail}`;
  };
}
