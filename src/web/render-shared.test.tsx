import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedDocument } from './app/documents/shared';
import { SHARED_GONE } from './features/subliminals/components/shared-view';
import type { ServedShared } from '@shared/contract';
import { releaseServedShared, servedSharedForPage } from './features/subliminals/api/shared-item';
import { startLeanPage } from './lean-page';
import { renderPage, renderPortalFrame } from './prerender';
import { sharedPageFiller } from './render-shared';
import { fakeApi } from './test/render';

// The SPA a subliminal with sound is handed over to: that it starts is what is asserted here.
const spa = vi.hoisted(() => ({ startSpa: vi.fn() }));
vi.mock('./spa', () => spa);

// The share page as the server fills it (render-shared.tsx) and as the browser then starts it
// (shared.tsx): hydrated from the data block, nothing read again
// (docs/decisions/024-the-server-fills-the-share-page.md).

const TOKEN = 'abcdefghijklmnopqrstuv';
const TEMPLATE =
  '<!doctype html><html lang="en"><head><title>Innerwave</title><script data-shared-read>window.read=1</script></head><body><div id="root"></div></body></html>';
const item = {
  kind: 'subliminal' as const,
  name: 'Evening </script> calm',
  messages: ['I let the day go', 'I rest <deeply>'],
  settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#bbf7d0', fontSize: 20, theme: 'forest' },
  sound: null,
  private_tracks: [],
  gone_tracks: [],
  shared_at: '2026-11-20T23:30:00Z',
};

/** Puts the document the server would send for this page's path into jsdom's (its scripts do not run). */
function loadServedDocument(served: ServedShared) {
  const html = sharedPageFiller(TEMPLATE)?.(served, window.location.pathname);
  if (html === undefined) throw new Error('the renderer filled nothing');
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.head.replaceChildren(...parsed.head.childNodes);
  document.body.replaceChildren(...parsed.body.childNodes);
}

const start = () =>
  act(async () => {
    startLeanPage(<SharedDocument token={TOKEN} served={servedSharedForPage()} />, { spaWhenSignedIn: true });
  });

afterEach(() => {
  releaseServedShared();
  document.head.replaceChildren();
  document.body.replaceChildren();
});

describe('the share page the server filled', () => {
  it('hydrates from the data block without reading the link again', async () => {
    const server = fakeApi({});
    loadServedDocument({ status: 'ready', item });
    const heading = screen.getByRole('heading', { name: 'Evening </script> calm' });
    expect(screen.getByText('I rest <deeply>')).toBeInTheDocument();
    await start();
    // The same elements, now live (a mismatch would have replaced them and logged a console error).
    expect(screen.getByRole('heading', { name: 'Evening </script> calm' })).toBe(heading);
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      `/login?redirect=${encodeURIComponent(window.location.pathname)}`,
    );
    expect(screen.getByRole('link', { name: 'Sign up free' })).toHaveAttribute(
      'href',
      `/signup?redirect=${encodeURIComponent(window.location.pathname)}`,
    );
    // After hydration, the date as the visitor's browser writes it.
    expect(screen.getByText(/messages, shared on/)).toHaveTextContent(
      new Date(item.shared_at).toLocaleDateString(undefined, { dateStyle: 'long' }),
    );
    expect(server.calls).toEqual([]);
  });

  it('names what is shared, or that the link is gone, in the tab before and after the page starts', async () => {
    const html = sharedPageFiller(TEMPLATE)?.({ status: 'ready', item }, `/s/${TOKEN}`);
    expect(html).toContain('<title>\u2068Evening &lt;/script&gt; calm\u2069 · Innerwave</title>');
    loadServedDocument({ status: 'ready', item });
    expect(document.title).toBe('\u2068Evening </script> calm\u2069 · Innerwave');
    document.title = 'changed';
    await start();
    expect(document.title).toBe('\u2068Evening </script> calm\u2069 · Innerwave');
    expect(sharedPageFiller(TEMPLATE)?.({ status: 'gone' }, `/s/${TOKEN}`)).toContain(
      '<title>Link not found · Innerwave</title>',
    );
  });

  it('renders a fixed date on the server, whatever the visitor’s locale and time zone', () => {
    loadServedDocument({ status: 'ready', item });
    expect(document.body.textContent).toContain('shared on November 20, 2026');
  });

  it('says a revoked or unknown link is gone, without reading it', async () => {
    const server = fakeApi({});
    loadServedDocument({ status: 'gone' });
    await start();
    expect(screen.getByRole('heading', { name: 'Link not found' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(SHARED_GONE);
    expect(server.calls).toEqual([]);
  });

  it('fills the portal frame the build put in the document for a signed-in visit: the top of the item, or gone', () => {
    // As build/vite-plugins.ts puts it before the root, rendered while loading.
    const frame = `<template><div id="portal-frame" inert data-path="/s/*">${renderPortalFrame('shared', '/s/*')}</div></template><script>show()</script>`;
    const template = TEMPLATE.replace('<div id="root">', `${frame}<div id="root">`);
    // The template's content, put on the page as its script does.
    const frameOf = (html: string | undefined) => {
      const content = new DOMParser().parseFromString(html ?? '', 'text/html').querySelector('template')?.content;
      if (!content) throw new Error('the document has no frame');
      document.body.replaceChildren(document.importNode(content, true));
      return within(document.body);
    };
    const ready = frameOf(sharedPageFiller(template)?.({ status: 'ready', item }, `/s/${TOKEN}`));
    expect(ready.getByRole('heading', { level: 1, name: 'Evening </script> calm' })).toBeInTheDocument();
    expect(ready.getByText(/2 messages, shared on November 20, 2026/)).toBeInTheDocument();
    expect(ready.getByRole('navigation', { name: 'Portal' })).toBeInTheDocument();
    // Its top only: what a signed-in person can do, and the messages, come with the app below it.
    expect(ready.queryByText('I rest <deeply>')).toBeNull();
    expect(ready.queryByRole('link', { name: 'Sign up free' })).toBeNull();
    const gone = frameOf(sharedPageFiller(template)?.({ status: 'gone' }, `/s/${TOKEN}`));
    expect(gone.getByRole('heading', { level: 1, name: 'Link not found' })).toBeInTheDocument();
  });

  it('paints the top of a subliminal with sound and hands it over, with what it was served, to the SPA’s page', async () => {
    const server = fakeApi({});
    window.history.replaceState(null, '', `/s/${TOKEN}`);
    const withSound = { ...item, private_tracks: ['My rain'] };
    loadServedDocument({ status: 'ready', item: withSound });
    expect(screen.getByRole('heading', { level: 1, name: 'Evening </script> calm' })).toBeInTheDocument();
    expect(screen.getByText(/Forest theme/)).toBeInTheDocument();
    // Its sound, actions and messages are the SPA's to show, below the top.
    expect(screen.queryByText('I rest <deeply>')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sign up free' })).toBeNull();
    const heading = screen.getByRole('heading', { level: 1 });
    await start();
    expect(screen.getByRole('heading', { level: 1 })).toBe(heading);
    await waitFor(() =>
      expect(spa.startSpa).toHaveBeenCalledWith(document.getElementById('root'), expect.any(Function)),
    );
    // In place: the same address, written as the router writes its entries.
    expect(window.location.pathname).toBe(`/s/${TOKEN}`);
    expect(window.history.state).toMatchObject({ idx: 0 });
    window.history.replaceState(null, '', '/');
    // The SPA's page starts from it (SharedPage), reading nothing.
    expect(servedSharedForPage()).toEqual({ status: 'ready', item: withSound });
    expect(server.calls).toEqual([]);
  });

  it('sends the bar’s "Log in" back to the link, in the page the server filled and once it runs', async () => {
    window.history.replaceState(null, '', `/s/${TOKEN}`);
    const back = `/login?redirect=%2Fs%2F${TOKEN}`;
    const barLogin = () => within(screen.getAllByRole('banner')[0]!).getByRole('link', { name: 'Log in' });
    loadServedDocument({ status: 'ready', item });
    expect(barLogin()).toHaveAttribute('href', back);
    await start();
    expect(barLogin()).toHaveAttribute('href', back);
    window.history.replaceState(null, '', '/');
  });

  it('renders the build’s loading document afresh for its link, so its bar’s "Log in" comes back to it', async () => {
    fakeApi({ [`GET /api/shared/${TOKEN}/`]: () => item });
    // The document as the server sends it when it fills nothing (past the limit, say): the build rendered
    // it for no link, outside a browser (at its pattern, build/pages.ts).
    window.history.replaceState(null, '', '/');
    document.body.innerHTML = `<div id="root">${renderPage('shared', '/s/*')}</div>`;
    window.history.replaceState(null, '', `/s/${TOKEN}`);
    const barLogin = () => within(screen.getAllByRole('banner')[0]!).getByRole('link', { name: 'Log in' });
    expect(barLogin()).toHaveAttribute('href', '/login');
    await act(async () => {
      await import('./shared');
    });
    await screen.findByRole('heading', { name: 'Evening </script> calm' });
    expect(barLogin()).toHaveAttribute('href', `/login?redirect=%2Fs%2F${TOKEN}`);
    window.history.replaceState(null, '', '/');
  });

  it('has no filler for a document without the early read', () => {
    expect(sharedPageFiller(TEMPLATE.replace(' data-shared-read', ''))).toBeUndefined();
  });
});
