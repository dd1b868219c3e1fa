import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, fillPath, type SharedItem } from '@shared/contract';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { DEFAULT_SETTINGS } from '../lib/player-storage';
import { SHARED_GONE, SharedPage } from './shared-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
afterEach(() => {
  sessionStore.clear();
  vi.clearAllMocks();
});

const TOKEN = 'abcdefghijklmnopqrstuv';
const shared: SharedItem = {
  kind: 'subliminal',
  name: 'Evening calm',
  messages: ['I let the day go', 'I rest deeply'],
  settings: { ...DEFAULT_SETTINGS, theme: 'forest', messageColor: '#bbf7d0' },
  shared_at: '2026-11-20T18:00:00Z',
};

const renderShared = () =>
  renderWithProviders(<SharedPage token={TOKEN} />, {
    path: `/s/${TOKEN}`,
    routes: [{ path: '/subliminals', element: <p>player</p> }],
  });

describe('SharedPage', () => {
  it('shows a visitor the name and messages, asks for no login, and invites them to sign up', async () => {
    const server = fakeApi({ [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => shared });
    renderShared();
    expect(await screen.findByRole('heading', { name: 'Evening calm' })).toBeInTheDocument();
    expect(screen.getByText('I rest deeply')).toBeInTheDocument();
    expect(screen.getByText(/Forest theme/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up free' })).toHaveAttribute('href', '/signup');
    expect(server.calls[0]!.auth).toBeNull();
  });

  it('says plainly when a link was revoked or never existed', async () => {
    fakeApi({ [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => jsonResponse(404, { detail: 'Not found.' }) });
    renderShared();
    expect(await screen.findByRole('alert')).toHaveTextContent(SHARED_GONE);
  });

  it('plays it for a signed-in Basic member with a theme their plan has, and locks the copy', async () => {
    const user = userEvent.setup();
    sessionStore.setTokens({ access: 'a', refresh: 'r' });
    const server = fakeApi({
      [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => shared,
      [`GET ${API.plan}`]: () => planStateFor('basic'),
      [`PUT ${API.player}`]: ({ body }) => ({ ...(body as object), updated_at: '2026-11-23T10:00:00Z' }),
    });
    const { router } = renderShared();
    await user.click(await screen.findByRole('button', { name: 'Play it now' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subliminals'));
    expect(server.calls.find((call) => call.method === 'PUT')?.body).toEqual({
      playlist: [
        { message_text: 'I let the day go', source: 'shared', message_id: 1 },
        { message_text: 'I rest deeply', source: 'shared', message_id: 2 },
      ],
      settings: { ...(shared.kind === 'subliminal' && shared.settings), theme: 'classic' },
    });
  });
});
