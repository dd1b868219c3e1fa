import { act, screen, within } from '@testing-library/react';
import { toast } from 'sonner';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SoundMix, Subliminal } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { CONTROL_CHARACTER_REFUSED, DIRECTION_CONTROL_REFUSED } from '@shared/contract/plain';
import type { SubscriptionPlan } from '@shared/constants';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { fakeApi, jsonResponse, planStateFor, pressToastAction, renderWithProviders } from '@web/test/render';
import { sessionStore } from '@web/lib/session';
import { whyNotWhole } from '@web/test/reads-whole';
import { DEFAULT_SETTINGS, type PlaylistItem } from '../lib/player-storage';
import { SAVED_EMPTY, SavedSubliminalsPanel } from './saved-subliminals-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

// jsdom has no Web Audio: the engine stands in (the real one is measured in Chromium by the e2e).
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));
afterEach(() => {
  vi.clearAllMocks();
  fakeEngine.reset();
});

/** A subliminal saved before the test begins, of one library message. */
const savedEarlier = (name: string, sound: SoundMix | null): Subliminal => ({
  id: 1,
  name,
  playlist: [{ message_text: 'I am calm', source: 'library', message_id: 7 }],
  settings: { ...DEFAULT_SETTINGS },
  sound,
  share: null,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
});

const playlist: PlaylistItem[] = [
  { id: 7, message_text: 'I am calm', source: 'library' },
  { id: 3, message_text: 'I finish what I start', source: 'own' },
];

/** The saved-subliminals calls over one person's list, as the server answers them. */
function savedServer(plan: SubscriptionPlan, existing: Subliminal[] = [], extra: Parameters<typeof fakeApi>[0] = {}) {
  const saved = [...existing];
  const link = { token: 'AAAAAAAAAAAAAAAAAAAAAA', url: 'http://localhost/s/AAAAAAAAAAAAAAAAAAAAAA' };
  const summary = (s: Subliminal) => ({
    id: s.id,
    name: s.name,
    message_count: s.playlist.length,
    theme: s.settings.theme,
    layer_count: s.sound?.layers.length ?? 0,
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
      return jsonResponse(201, { ...made, gone_tracks: [] });
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
    ...extra,
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
    expect(screen.getByTestId('sound-to-save')).toHaveTextContent(/No sound plays now/);
    await user.click(
      screen.getByRole('button', { name: 'Save the current playlist, settings and sound under this name' }),
    );
    expect(server.api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Morning focus',
      playlist: [
        { message_text: 'I am calm', source: 'library', message_id: 7 },
        { message_text: 'I finish what I start', source: 'own', message_id: 3 },
      ],
      settings,
      sound: null,
    });
    expect(await screen.findByText(/2 messages · Ocean · no sound/)).toBeInTheDocument();
    // Each button of the row is named first by the word it shows, so a voice saying "Update" presses it (WCAG 2.5.3).
    const row = screen.getByRole('button', { name: 'Open Morning focus' }).closest('li')!;
    for (const button of within(row).getAllByRole('button')) {
      const shown = button.textContent!.trim();
      if (shown) expect(button.getAttribute('aria-label')).toMatch(new RegExp(`^${shown} `));
    }

    await user.click(screen.getByRole('button', { name: 'Open Morning focus' }));
    await vi.waitFor(() => expect(onOpen).toHaveBeenCalledWith(playlist, settings));

    await user.click(screen.getByRole('button', { name: 'Share Morning focus' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByLabelText('Share link')).toHaveValue(server.link.url);
    // The keyboard goes from "Create link" to Copy, which takes its place, and back from "Stop sharing" (decision 114).
    await vi.waitFor(() => expect(within(dialog).getByRole('button', { name: 'Copy' })).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Stop sharing' }));
    expect(await within(dialog).findByRole('button', { name: 'Create link' })).toBeInTheDocument();
    await vi.waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create link' })).toHaveFocus());
    expect(server.saved[0]!.share).toBeNull();
    expect(server.api.unanswered).toEqual([]);
  });

  it('says at the name, saving or renaming, without sending, that it holds a direction control inside (decision 063)', async () => {
    const user = userEvent.setup();
    const earlier = savedEarlier('Evenings', null);
    const server = savedServer('intermediate', [earlier]);
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    const fields = [await screen.findByLabelText('Name for the current playlist')];
    await user.click(await screen.findByRole('button', { name: 'Edit name of Evenings' }));
    fields.push(screen.getByRole('textbox', { name: 'name of Evenings' }));
    for (const field of fields) {
      await user.click(field);
      await user.paste('Sleep \u202etxt.exe');
      await user.keyboard('{Enter}');
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(DIRECTION_CONTROL_REFUSED);
    }
    expect(server.api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('updates one named with a control character before 063 under that name; renaming, only a name typed anew is refused', async () => {
    const user = userEvent.setup();
    const earlier = savedEarlier('Even\u0007ing', null);
    const puts: unknown[] = [];
    savedServer('intermediate', [earlier], {
      [`PUT ${fillPath(API.subliminal, { id: 1 })}`]: ({ body }) => (
        puts.push(body),
        { ...earlier, ...(body as object), gone_tracks: [] }
      ),
    });
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    await user.click(
      await screen.findByRole('button', { name: 'Update Even\u0007ing with the current playlist, settings and sound' }),
    );
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ name: 'Even\u0007ing', playlist: [{}, {}] });

    // Opened, the name as stored says nothing against it; typed in, it is refused and not sent.
    await user.click(screen.getByRole('button', { name: 'Edit name of Even\u0007ing' }));
    const field = screen.getByRole('textbox', { name: 'name of Even\u0007ing' });
    expect(field).not.toHaveAttribute('aria-invalid');
    await user.type(field, 's');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(CONTROL_CHARACTER_REFUSED);
    await user.keyboard('{Enter}');
    expect(puts).toHaveLength(1);
  });

  it('shows each name whole, wrapping, so two long names that differ at their end tell apart, editable or not (decision 079)', async () => {
    const names = [
      'My evening wind-down for deep restful sleep after long work days — version one',
      'My evening wind-down for deep restful sleep after long work days — version two',
    ];
    for (const plan of ['intermediate', 'basic'] as const) {
      savedServer(
        plan,
        names.map((name, index) => ({ ...savedEarlier(name, null), id: index + 1 })),
      );
      const { unmount } = renderWithProviders(
        <SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />,
      );
      for (const name of names) expect(whyNotWhole(await screen.findByText(name)), `${name} on ${plan}`).toBeNull();
      unmount();
    }
  });

  it('on Basic, offers no saving but names the plan that has it; what was saved before can still be opened', async () => {
    const user = userEvent.setup();
    const earlier = savedEarlier('From my trial', null);
    const server = savedServer('basic', [earlier]);
    const onOpen = vi.fn();
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={onOpen} />);

    expect(await screen.findByText('From my trial')).toBeInTheDocument();
    // Said to be kept, in place of the offer.
    expect(screen.getByText('What you saved is kept: open it, stop sharing it or delete it here.')).toBeInTheDocument();
    expect(screen.queryByText(/^Keep playlists/)).toBeNull();
    expect(screen.queryByLabelText('Name for the current playlist')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Share/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Save the current playlist|Update )/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save & share Intermediate' }));
    expect(
      await screen.findByRole('dialog', { name: 'Saving subliminals is part of the Intermediate plan' }),
    ).toHaveTextContent('Intermediate is $36 a month');
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Open From my trial' }));
    await vi.waitFor(() => expect(onOpen).toHaveBeenCalledOnce());
    expect(server.api.calls.some((call) => call.method !== 'GET')).toBe(false);
  });

  /** Deletes the one subliminal saved, `name`, from the keyboard: Delete and the dialog's Delete pressed with Enter. */
  async function deleteTheLastFromTheKeyboard(plan: SubscriptionPlan, name: string) {
    const user = userEvent.setup();
    const server = savedServer(plan, [savedEarlier(name, null)], {
      [`DELETE ${fillPath(API.subliminal, { id: 1 })}`]: () => {
        server.saved.splice(0, 1);
        return jsonResponse(204);
      },
    });
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    (await screen.findByRole('button', { name: `Delete ${name}` })).focus();
    await user.keyboard('{Enter}');
    within(await screen.findByRole('dialog'))
      .getByRole('button', { name: 'Delete' })
      .focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: `Delete ${name}` })).toBeNull());
  }

  it('hands the keyboard from the last one deleted to the name field that saves the next (decision 151)', async () => {
    await deleteTheLastFromTheKeyboard('intermediate', 'Morning focus');
    await vi.waitFor(() => expect(screen.getByLabelText('Name for the current playlist')).toHaveFocus());
  });

  it('on Basic after a downgrade, hands the keyboard from the last one deleted to the list’s heading (decision 151)', async () => {
    await deleteTheLastFromTheKeyboard('basic', 'From my trial');
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Saved subliminals' })).toHaveFocus());
  });
});

describe('SavedSubliminalsPanel with sound', () => {
  const track = { kind: 'track', audio_kind: 'selfeggio', track_id: 4, name: '432 Hz calm', gain_db: -6 } as const;
  const noise = { kind: 'noise', colour: 'pink', gain_db: -18 } as const;
  const trackSource = { kind: 'track', key: 'selfeggio:4', title: '432 Hz calm', url: 'http://x/a.mp3' } as const;
  /** The engine playing `track` (or another track's source) and `noise` above, as its layers. */
  const playingTrackAndNoise = (source: { kind: 'track'; key: string; title: string; url: string } = trackSource) =>
    fakeEngine.set({
      status: 'playing',
      volume: 0.7,
      layers: [
        {
          id: 'track',
          source,
          gain: 10 ** (-6 / 20),
          status: 'ready',
        },
        { id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 10 ** (-18 / 20), status: 'ready' },
      ],
    });

  it("saves the engine's layers, levels and volume with the playlist", async () => {
    const user = userEvent.setup();
    const server = savedServer('intermediate');
    playingTrackAndNoise();
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    expect(await screen.findByTestId('sound-to-save')).toHaveTextContent(
      'Sound saved with it: \u2068432 Hz calm\u2069 −6 dB · Pink noise −18 dB · volume 70 %.',
    );
    await user.type(screen.getByLabelText('Name for the current playlist'), 'Rain and calm');
    await user.click(
      screen.getByRole('button', { name: 'Save the current playlist, settings and sound under this name' }),
    );
    await vi.waitFor(() =>
      expect(server.api.calls.find((call) => call.method === 'POST')?.body).toMatchObject({
        sound: { volume: 0.7, layers: [track, noise] },
      }),
    );
    expect(await screen.findByText(/2 sound layers/)).toBeInTheDocument();
  });

  it('is drawn again when what plays changes, not on the engine’s ticks while a sleep timer runs', async () => {
    vi.useFakeTimers();
    try {
      savedServer('intermediate');
      playingTrackAndNoise();
      fakeSoundEngine.setSleepTimer(15 * 60, 120);
      let renders = 0;
      renderWithProviders(
        <Profiler id="saved" onRender={() => renders++}>
          <SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />
        </Profiler>,
      );
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(screen.getByTestId('sound-to-save')).toHaveTextContent(/volume 70 %/);
      const settled = renders;

      // Ten seconds of ticks, the timer's clock moving on: nothing the panel shows changes.
      for (let second = 1; second <= 10; second++) {
        fakeEngine.now = second;
        await act(() => vi.advanceTimersByTimeAsync(1000));
      }
      expect(renders).toBe(settled);

      act(() => fakeSoundEngine.setVolume(0.5));
      expect(screen.getByTestId('sound-to-save')).toHaveTextContent(/volume 50 %/);
      expect(renders).toBeGreaterThan(settled);

      // The timer run out, the next tick ends the session, as the engine's does.
      fakeEngine.now = 15 * 60;
      await act(() => vi.advanceTimersByTimeAsync(250));
      expect(screen.getByTestId('sound-to-save')).toHaveTextContent(/No sound plays now/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('updates a saved subliminal with what plays now, and Undo in its toast puts back what it held', async () => {
    const user = userEvent.setup();
    const earlier = savedEarlier('Evening', {
      volume: 0.6,
      layers: [{ kind: 'noise', colour: 'brown', gain_db: -20 }],
    });
    const puts: unknown[] = [];
    savedServer('intermediate', [earlier], {
      [`PUT ${fillPath(API.subliminal, { id: 1 })}`]: ({ body }) => (
        puts.push(body),
        { ...earlier, ...(body as object), gone_tracks: [] }
      ),
    });
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    await user.click(
      await screen.findByRole('button', { name: 'Update Evening with the current playlist, settings and sound' }),
    );
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ name: 'Evening', sound: null, playlist: [{}, {}] });

    act(() => pressToastAction('Saved the playlist, settings and sound as \u2068Evening\u2069.'));
    await vi.waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({
      name: 'Evening',
      playlist: earlier.playlist,
      settings: earlier.settings,
      sound: earlier.sound,
    });
    await vi.waitFor(() =>
      expect(vi.mocked(toast.success)).toHaveBeenCalledWith('\u2068Evening\u2069 is back as it was.'),
    );
  });

  it('puts back what an Update replaced under the name it has now: a rename since stays', async () => {
    const user = userEvent.setup();
    const earlier = savedEarlier('Evening', null);
    const puts: Array<{ name: string }> = [];
    let stored = earlier;
    savedServer('intermediate', [earlier], {
      [`GET ${fillPath(API.subliminal, { id: 1 })}`]: () => stored,
      [`PUT ${fillPath(API.subliminal, { id: 1 })}`]: ({ body }) => {
        puts.push(body as { name: string });
        stored = { ...stored, ...(body as object) };
        return { ...stored, gone_tracks: [] };
      },
    });
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    await user.click(
      await screen.findByRole('button', { name: 'Update Evening with the current playlist, settings and sound' }),
    );
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    // Renamed meanwhile (here, or on another device).
    stored = { ...stored, name: 'Night' };

    pressToastAction('Saved the playlist, settings and sound as \u2068Evening\u2069.');
    await vi.waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ name: 'Night', playlist: earlier.playlist, settings: earlier.settings, sound: null });
    await vi.waitFor(() =>
      expect(vi.mocked(toast.success)).toHaveBeenCalledWith('\u2068Night\u2069 is back as it was.'),
    );
  });

  it('sends one update however often Update is pressed while the server has not answered, and says it is working', async () => {
    const user = userEvent.setup();
    const earlier = savedEarlier('Evening', null);
    const puts: unknown[] = [];
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    savedServer('intermediate', [earlier], {
      [`PUT ${fillPath(API.subliminal, { id: 1 })}`]: async ({ body }) => {
        puts.push(body);
        await held;
        return { ...earlier, ...(body as object), gone_tracks: [] };
      },
    });
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    const update = await screen.findByRole('button', {
      name: 'Update Evening with the current playlist, settings and sound',
    });
    await user.click(update);
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    // Waiting on its call: unavailable, yet the keyboard stays on it (decision 114).
    expect(update).toHaveAttribute('aria-disabled', 'true');
    expect(update).toHaveFocus();
    expect(update).toHaveTextContent('Updating…');
    await user.click(update);
    await user.click(update);

    answer();
    await vi.waitFor(() =>
      expect(vi.mocked(toast.success)).toHaveBeenCalledWith(
        'Saved the playlist, settings and sound as \u2068Evening\u2069.',
        expect.anything(),
      ),
    );
    await vi.waitFor(() => expect(update).toHaveTextContent('Update'));
    expect(update).toBeEnabled();
    expect(puts).toHaveLength(1);
    expect(vi.mocked(toast.success)).toHaveBeenCalledTimes(1);
  });

  it('saves, new or as an update, without a library track staff removed while it played: it stops, and the toast and a note name it', async () => {
    const user = userEvent.setup();
    const earlier = savedEarlier('Evening', null);
    // As the server answers it: saved without the track, which it names.
    const withoutTrack = (body: unknown) => ({
      ...earlier,
      ...(body as object),
      sound: { volume: 0.7, layers: [noise] },
      gone_tracks: ['432 Hz calm'],
    });
    const server = savedServer('intermediate', [earlier], {
      [`POST ${API.subliminals}`]: ({ body }) => jsonResponse(201, { ...withoutTrack(body), id: 2 }),
      [`PUT ${fillPath(API.subliminal, { id: 1 })}`]: ({ body }) => withoutTrack(body),
    });
    const leftOut = 'Left out: \u2068432 Hz calm\u2069 (no longer in the library).';
    act(() => playingTrackAndNoise());
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    await user.type(await screen.findByLabelText('Name for the current playlist'), 'Rain');
    await user.click(
      screen.getByRole('button', { name: 'Save the current playlist, settings and sound under this name' }),
    );
    await vi.waitFor(() => expect(vi.mocked(toast.success)).toHaveBeenCalledWith(`Saved \u2068Rain\u2069. ${leftOut}`));
    expect(screen.getByRole('status')).toHaveTextContent(`\u2068Rain\u2069: ${leftOut}`);
    expect(fakeEngine.state.layers.map((layer) => layer.id)).toEqual(['noise']);
    expect(screen.getByTestId('sound-to-save')).toHaveTextContent(
      'Sound saved with it: Pink noise −18 dB · volume 70 %.',
    );

    act(() => playingTrackAndNoise());
    await user.click(
      screen.getByRole('button', { name: 'Update Evening with the current playlist, settings and sound' }),
    );
    await vi.waitFor(() =>
      expect(vi.mocked(toast.success)).toHaveBeenCalledWith(
        `Saved the playlist, settings and sound as \u2068Evening\u2069. ${leftOut}`,
        expect.anything(),
      ),
    );
    expect(screen.getByRole('status')).toHaveTextContent(`\u2068Evening\u2069: ${leftOut}`);
    expect(fakeEngine.state.layers.map((layer) => layer.id)).toEqual(['noise']);
    expect(server.api.calls.filter((call) => call.method !== 'GET').map((call) => call.body)).toMatchObject([
      { sound: { layers: [track, noise] } },
      { sound: { layers: [track, noise] } },
    ]);
  });

  it('saves without an own track deleted in another tab while it played: it stops, and the toast and a note say it is no longer in your music', async () => {
    const user = userEvent.setup();
    const earlier = savedEarlier('Evening', null);
    const server = savedServer('pro', [earlier], {
      [`PUT ${fillPath(API.subliminal, { id: 1 })}`]: ({ body }) => ({
        ...earlier,
        ...(body as object),
        sound: { volume: 0.7, layers: [noise] },
        gone_tracks: ['Sea at night'],
      }),
    });
    playingTrackAndNoise({ kind: 'track', key: 'own:9', title: 'Sea at night', url: 'http://x/own.mp3' });
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    await user.click(
      await screen.findByRole('button', { name: 'Update Evening with the current playlist, settings and sound' }),
    );
    const leftOut = 'Left out: \u2068Sea at night\u2069 (no longer in your music).';
    await vi.waitFor(() =>
      expect(vi.mocked(toast.success)).toHaveBeenCalledWith(
        `Saved the playlist, settings and sound as \u2068Evening\u2069. ${leftOut}`,
        expect.anything(),
      ),
    );
    expect(screen.getByRole('status')).toHaveTextContent(`\u2068Evening\u2069: ${leftOut}`);
    expect(fakeEngine.state.layers.map((layer) => layer.id)).toEqual(['noise']);
    expect(server.api.calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toMatchObject([
      { sound: { layers: [{ kind: 'own_track', track_id: 9, name: 'Sea at night' }, noise] } },
    ]);
  });

  it('opens with exactly the saved layers its plan plays, and names those of a higher plan it left out', async () => {
    const user = userEvent.setup();
    const sound: SoundMix = {
      volume: 0.6,
      layers: [
        { kind: 'own_track', track_id: 9, name: 'Sea at night', gain_db: -3 },
        noise,
        { kind: 'voice', voice: 'en-us', rate: 145, pause_s: 2, level_db: -20, gain_db: -6 },
      ],
    };
    const earlier = savedEarlier('Evening', sound);
    savedServer('intermediate', [earlier]);
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    expect(await screen.findByText(/3 sound layers/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open Evening' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      '\u2068Evening\u2069: Left out: \u2068Sea at night\u2069 (part of the Pro plan); Spoken affirmations (part of the Pro plan).',
    );
    expect(fakeSoundEngine.setVolume).toHaveBeenCalledWith(0.6);
    expect(fakeSoundEngine.setLayer).toHaveBeenCalledTimes(1);
    expect(fakeSoundEngine.setLayer).toHaveBeenCalledWith(
      'noise',
      { kind: 'noise', colour: 'pink' },
      10 ** (-18 / 20),
      {
        exclusive: true,
      },
    );
  });

  it('skips a library track that no longer exists, with a note, and plays the rest at their levels', async () => {
    const user = userEvent.setup();
    const binaural = { kind: 'binaural', left_hz: 200, right_hz: 206, gain_db: -12 } as const;
    const earlier = savedEarlier('Focus', { volume: 0.5, layers: [track, binaural] });
    savedServer('pro', [earlier], { [`GET ${API.selfeggio}`]: () => [] });
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Open Focus' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      '\u2068Focus\u2069: Left out: \u2068432 Hz calm\u2069 (no longer in the library).',
    );
    expect(fakeSoundEngine.setLayer).toHaveBeenCalledWith(
      'binaural',
      { kind: 'binaural', leftHz: 200, rightHz: 206 },
      10 ** (-12 / 20),
      { exclusive: true },
    );
    expect(fakeEngine.state.volume).toBe(0.5);
  });

  it('starts its sound in Safari, which allows it only inside the press, though it starts after the server’s answers (decision 075)', async () => {
    const user = userEvent.setup();
    fakeEngine.pressOnly = true;
    const binaural = { kind: 'binaural', left_hz: 200, right_hz: 206, gain_db: -12 } as const;
    savedServer('pro', [savedEarlier('Focus', { volume: 0.5, layers: [binaural] })]);
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Open Focus' }));
    await vi.waitFor(() => expect(fakeSoundEngine.setLayer).toHaveBeenCalled());
    expect(fakeEngine.state).toMatchObject({ status: 'playing', refused: false });
    // The start came: the press's prime is given back (the sound keeps the context awake by itself).
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalled());
    expect(fakeEngine.primed).toBe(0);
  });

  it('opens nothing, plays nothing and says nothing when the person is signed out while the server answers (decision 085)', async () => {
    const user = userEvent.setup();
    const binaural = { kind: 'binaural', left_hz: 200, right_hz: 206, gain_db: -12 } as const;
    const focus = savedEarlier('Focus', { volume: 0.5, layers: [binaural] });
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    savedServer('pro', [focus], {
      [`GET ${fillPath(API.subliminal, { id: 1 })}`]: () => {
        // Signed out in another tab while the subliminal is on its way.
        sessionStore.clear();
        return focus;
      },
    });
    const onOpen = vi.fn();
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={onOpen} />);
    await user.click(await screen.findByRole('button', { name: 'Open Focus' }));
    expect(fakeSoundEngine.prime).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(fakeEngine.primed).toBe(0));
    expect(onOpen).not.toHaveBeenCalled();
    expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('gives back the prime of an Open that failed, so a paused session sleeps again at once (decision 080)', async () => {
    const user = userEvent.setup();
    fakeEngine.pressOnly = true;
    const binaural = { kind: 'binaural', left_hz: 200, right_hz: 206, gain_db: -12 } as const;
    savedServer('pro', [savedEarlier('Focus', { volume: 0.5, layers: [binaural] })], {
      [`GET ${fillPath(API.subliminal, { id: 1 })}`]: () => jsonResponse(500, { detail: 'A server error occurred.' }),
    });
    // A session paused by the person, as the mini-player shows it.
    act(() =>
      fakeEngine.set({
        status: 'paused',
        layers: [{ id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 0.5, status: 'ready' }],
      }),
    );
    renderWithProviders(<SavedSubliminalsPanel current={{ playlist, settings: DEFAULT_SETTINGS }} onOpen={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Open Focus' }));
    expect(fakeSoundEngine.prime).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(fakeEngine.primed).toBe(0);
    expect(fakeEngine.state.status).toBe('paused');
    expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
  });
});
