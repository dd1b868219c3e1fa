import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, fillPath } from '@shared/contract/paths';
import { SHARED_GONE } from '@web/features/subliminals/components/shared-view';
import { setHandOverRetry } from '@web/lib/hand-over';
import { documentNavigation, NavigationProvider } from '@web/lib/link';
import { fakeApi, jsonResponse } from '@web/test/render';
import { SharedDocument } from './shared';

// The pre-rendered shared page (docs/decisions/020-lean-pre-rendered-auth-pages.md): a visitor sees
// the item the document started reading; a revoked link says so; a subliminal with sound hands over.

const TOKEN = 'abcdefghijklmnopqrstuv';
const PATH = fillPath(API.shared, { token: TOKEN });
const item = {
  kind: 'subliminal',
  name: 'Evening calm',
  messages: ['I let the day go', 'I rest deeply'],
  settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#bbf7d0', fontSize: 20, theme: 'forest' },
  sound: null,
  private_tracks: [],
  gone_tracks: [],
  shared_at: '2026-11-20T18:00:00Z',
};

const renderDocument = (navigate = vi.fn()) =>
  render(
    <NavigationProvider value={{ ...documentNavigation, useNavigate: () => navigate }}>
      <SharedDocument token={TOKEN} />
    </NavigationProvider>,
  );

afterEach(() => {
  window.__innerwaveShared = undefined;
  setHandOverRetry(null);
});

describe('SharedDocument', () => {
  it('shows a visitor the item from the read the document started, without asking again', async () => {
    const server = fakeApi({});
    window.__innerwaveShared = { path: PATH, response: Promise.resolve(jsonResponse(200, item)) };
    renderDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(await screen.findByRole('heading', { name: 'Evening calm' })).toBeInTheDocument();
    expect(screen.getByText('I rest deeply')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      `/login?redirect=${encodeURIComponent(window.location.pathname)}`,
    );
    expect(server.calls).toEqual([]);
  });

  it('says plainly when the link was revoked or never existed', async () => {
    fakeApi({ [`GET ${PATH}`]: () => jsonResponse(404, { detail: 'Not found.' }) });
    renderDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(SHARED_GONE);
  });

  it('hands a subliminal with sound over to the app in place, showing its top meanwhile', async () => {
    const navigate = vi.fn();
    fakeApi({ [`GET ${PATH}`]: () => ({ ...item, private_tracks: ['My rain'] }) });
    renderDocument(navigate);
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith(window.location.pathname, { replace: true }));
    expect(screen.getByRole('heading', { level: 1, name: 'Evening calm' })).toBeInTheDocument();
    // What it plays, what a visitor can do and its messages are the app's page's, below.
    expect(screen.queryByRole('heading', { name: 'Messages' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sign up free' })).toBeNull();
  });

  it('says under the top when the app it hands over to cannot be fetched, offers Try again, and goes once it came', async () => {
    fakeApi({ [`GET ${PATH}`]: () => ({ ...item, private_tracks: ['My rain'] }) });
    renderDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Evening calm' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();

    const retry = vi.fn();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => setHandOverRetry(retry));
    expect(screen.getByRole('status')).toHaveTextContent(
      'You seem to be offline. This page opens by itself once you are back online.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);

    act(() => setHandOverRetry(null));
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    vi.restoreAllMocks();
  });
});
