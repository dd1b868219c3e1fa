import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, fillPath, type Subliminal } from '@shared/contract';
import type { SubscriptionPlan } from '@shared/constants';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { DEFAULT_SETTINGS, type PlaylistItem } from '../lib/player-storage';
import { SAVED_EMPTY, SavedSubliminalsPanel } from './saved-subliminals-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
afterEach(() => vi.clearAllMocks());

const playlist: PlaylistItem[] = [
  { id: 7, message_text: 'I am calm', source: 'library' },
  { id: 3, message_text: 'I finish what I start', source: 'own' },
];

/** The saved-subliminals calls over one person's list, as the server answers them. */
function savedServer(plan: SubscriptionPlan, existing: Subliminal[] = []) {
  const saved = [...existing];
  const link = { token: 'AAAAAAAAAAAAAAAAAAAAAA', url: 'http://localhost/s/AAAAAAAAAAAAAAAAAAAAAA' };
  const summary = (s: Subliminal) => ({
    id: s.id,
    name: s.name,
    message_count: s.playlist.length,
    theme: s.settings.theme,
    shared: s.share !== null,
    updated_at: s.updated_at,
  });
  const api = fakeApi({
    [`GET ${API.plan}`]: () => planStateFor(plan),
    [`GET ${API.subliminals}`]: () => saved.map(summary),
    [`POST ${API.subliminals}`]: ({ body }) => {
      const made = {
        ...(body as Omit<Subliminal, 'id'>),
        id: 1,
        share: null,
        created_at: '2026-11-23T10:00:00Z',
        updated_at: '2026-11-23T10:00:00Z',
      };
      saved.push(made);
      return jsonResponse(201, made);
    },
    [`GET ${fillPath(API.subliminal, { id: 1 })}`]: () => saved[0],
    [`POST ${fillPath(API.subliminalShare, { id: 1 })}`]: () => {
      saved[0] = { ...saved[0]!, share: link };
      return jsonResponse(201, link);
    },
    [`DELETE ${fillPath(API.subliminalShare, { id: 1 })}`]: () => {
      saved[0] = { ...saved[0]!, share: null };
      return jsonResponse(204);
    },
  });
  return { api, saved, link };
}

describe('SavedSubliminalsPanel', () => {
  it('saves the current playlist and settings under a name, opens it again and shares it by link', async () => {
    const user = userEvent.setup();
    const server = savedServer('intermediate');
    const onOpen = vi.fn();
    const settings = { ...DEFAULT_SETTINGS, theme: 'ocean', messageColor: '#7dd3fc' };
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings }} onOpen={onOpen} />);
    expect(await screen.findByText(SAVED_EMPTY)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Name for the current playlist'), 'Morning focus');
    await user.click(screen.getByRole('button', { name: 'Save the current playlist and settings under this name' }));
    expect(server.api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Morning focus',
      playlist: [
        { message_text: 'I am calm', source: 'library', message_id: 7 },
        { message_text: 'I finish what I start', source: 'own', message_id: 3 },
      ],
      settings,
    });
    expect(await screen.findByText(/2 messages · Ocean/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open Morning focus' }));
    await vi.waitFor(() => expect(onOpen).toHaveBeenCalledWith(playlist, settings));

    await user.click(screen.getByRole('button', { name: 'Share Morning focus' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByLabelText('Share link')).toHaveValue(server.link.url);
    await user.click(within(dialog).getByRole('button', { name: 'Stop sharing' }));
    expect(await within(dialog).findByRole('button', { name: 'Create link' })).toBeInTheDocument();
    expect(server.saved[0]!.share).toBeNull();
    expect(server.api.unanswered).toEqual([]);
  });

  it('on Basic, offers no saving but names the plan that has it; what was saved before can still be opened', async () => {
    const user = userEvent.setup();
    const earlier: Subliminal = {
      id: 1,
      name: 'From my trial',
      playlist: [{ message_text: 'I am calm', source: 'library', message_id: 7 }],
      settings: { ...DEFAULT_SETTINGS },
      share: null,
      created_at: '2026-11-01T10:00:00Z',
      updated_at: '2026-11-01T10:00:00Z',
    };
    const server = savedServer('basic', [earlier]);
    const onOpen = vi.fn();
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={onOpen} />);

    expect(await screen.findByText('From my trial')).toBeInTheDocument();
    expect(screen.queryByLabelText('Name for the current playlist')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Share/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Save the current playlist/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save & share Intermediate' }));
    expect(
      await screen.findByRole('dialog', { name: 'Saving subliminals is part of the Intermediate plan' }),
    ).toHaveTextContent('Intermediate is $36 a month');
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Open From my trial' }));
    await vi.waitFor(() => expect(onOpen).toHaveBeenCalledOnce());
    expect(server.api.calls.some((call) => call.method !== 'GET')).toBe(false);
  });
});
