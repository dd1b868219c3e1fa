import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AudioItem, Program } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { sessionStore } from '@web/lib/session';
import { ProgramView } from './program-view';
import { everyElementShown } from '@web/test/shown';

// jsdom has no Web Audio: the engine stands in.
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));
afterEach(() => {
  vi.clearAllMocks();
  fakeEngine.reset();
});

function renderProgram(answer: () => Response) {
  fakeApi({
    [`GET ${fillPath(API.program, { slug: 'no-such' })}`]: answer,
    [`GET ${API.plan}`]: () => planStateFor('basic'),
  });
  renderWithProviders(<ProgramView slug="no-such" />);
}

describe('ProgramView', () => {
  it('says a slug that names no program was not found, and leads to the programs instead of trying again', async () => {
    renderProgram(() => jsonResponse(404, { detail: 'Not found.' }));
    expect(await screen.findByRole('heading', { name: 'Program not found' })).toBeVisible();
    expect(
      screen.getByText(
        'The program you asked for does not exist. Check the address, or choose one of all the programs.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'See all programs' })).toHaveAttribute('href', '/programs');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText(/Could not load/)).toBeNull();
  });

  it('keeps Try again for a failure that asking again can mend', async () => {
    renderProgram(() => jsonResponse(500, { detail: 'A server error occurred.', request_id: 'r1' }));
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeVisible();
    // A program is not a list: the error names what it could not load.
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load this program: A server error occurred.');
    expect(screen.queryByRole('heading', { name: 'Program not found' })).toBeNull();
  });
});

describe('ProgramView’s day', () => {
  const program: Program = {
    slug: 'quiet-evenings',
    title: 'Quiet Evenings',
    summary: 'Evenings, quieter.',
    goals: ['calm'],
    days: [
      {
        day: 1,
        title: 'Arriving',
        intro: 'Sit comfortably.',
        minutes: 10,
        messages: ['I arrive'],
        layers: [
          { kind: 'track', audio_kind: 'selfeggio', name: '432 Hz calm', track_id: 3, gain: 0.5 },
          { kind: 'noise', colour: 'pink', gain: 0.2 },
        ],
      },
    ],
    progress: { slug: 'quiet-evenings', completed_days: [], next_day: 1, last_completed_at: null, started_at: null },
  };
  const calm: AudioItem = {
    id: 3,
    name: '432 Hz calm',
    description: '',
    cover_image: 'http://x/media/covers/3.webp',
    audio_file: 'http://x/media/audio/3.mp3',
    date_added: '2026-01-01T00:00:00.000Z',
  };

  it('starts its sound in Safari, which allows it only inside the press, though it starts after the library’s answer (decision 075)', async () => {
    const user = userEvent.setup();
    fakeEngine.pressOnly = true;
    fakeApi({
      [`GET ${fillPath(API.program, { slug: program.slug })}`]: () => program,
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`GET ${API.selfeggio}`]: () => [calm],
    });
    renderWithProviders(<ProgramView slug={program.slug} />);
    await user.click(await screen.findByRole('button', { name: 'Start day 1' }));
    await vi.waitFor(() => expect(fakeSoundEngine.setLayer).toHaveBeenCalledTimes(2));
    expect(fakeEngine.state).toMatchObject({ status: 'playing', refused: false });
    await screen.findByRole('button', { name: 'Stop' });
    expect(fakeEngine.primed).toBe(0);
  });

  it('reads as started once day 1 plays, before anything reaches the server, and as the server then says', async () => {
    const user = userEvent.setup();
    let recorded = false;
    fakeApi({
      [`GET ${fillPath(API.program, { slug: program.slug })}`]: () =>
        recorded ? { ...program, progress: { ...program.progress, started_at: '2026-12-07T18:00:00Z' } } : program,
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`GET ${API.selfeggio}`]: () => [calm],
    });
    const { queryClient } = renderWithProviders(<ProgramView slug={program.slug} />);
    expect(await screen.findByText('Not started')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Start day 1' }));
    await screen.findByRole('button', { name: 'Stop' });
    expect(screen.getByText('Started · 0 of 1 day done')).toBeVisible();
    expect(screen.queryByText('Not started')).toBeNull();
    // Stopped early, its session recorded: the day is not done, and the program stays started.
    recorded = true;
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await queryClient.invalidateQueries();
    await screen.findByRole('button', { name: 'Start day 1' });
    expect(screen.getByText('Started · 0 of 1 day done')).toBeVisible();
  });

  it('keeps the keyboard on Start while the day starts, on Stop as it plays and on Start again once stopped', async () => {
    const user = userEvent.setup();
    let answer = (_tracks: AudioItem[]) => {};
    const library = fakeApi({
      [`GET ${fillPath(API.program, { slug: program.slug })}`]: () => program,
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`GET ${API.selfeggio}`]: () => new Promise((resolve) => (answer = resolve)),
    });
    renderWithProviders(<ProgramView slug={program.slug} />);
    const start = await screen.findByRole('button', { name: 'Start day 1' });
    start.focus();
    await user.keyboard('{Enter}');
    const starting = await screen.findByRole('button', { name: 'Starting…' });
    expect(starting).toHaveAttribute('aria-disabled', 'true');
    expect(starting).toHaveFocus();
    // A second press while it starts asks for nothing more.
    await user.keyboard('{Enter}');
    expect(library.calls.filter((call) => call.path === API.selfeggio)).toHaveLength(1);
    answer([calm]);
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Stop' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Start day 1' })).toHaveFocus());
  });

  it('keeps the keyboard on the dialog’s "Reset progress" while it runs, then hands it to the program’s heading', async () => {
    const user = userEvent.setup();
    everyElementShown();
    let done = false;
    let answer = (_response: Response) => {};
    const begun = {
      ...program,
      progress: {
        ...program.progress,
        completed_days: [1],
        last_completed_at: '2026-12-01T20:00:00Z',
        started_at: '2026-12-01T19:50:00Z',
      },
    };
    const api = fakeApi({
      [`GET ${fillPath(API.program, { slug: program.slug })}`]: () => (done ? program : begun),
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`DELETE ${fillPath(API.programProgress, { slug: program.slug })}`]: () =>
        new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderWithProviders(
      <main id="main">
        <ProgramView slug={program.slug} />
      </main>,
    );
    await user.click(await screen.findByRole('button', { name: 'Reset progress' }));
    const reset = within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset progress' });
    reset.focus();
    await user.keyboard('{Enter}');
    const resetting = await screen.findByRole('button', { name: 'Resetting…' });
    expect(resetting).toHaveAttribute('aria-disabled', 'true');
    expect(resetting).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(api.calls.filter(({ method }) => method === 'DELETE')).toHaveLength(1);

    // Reset, no day is done: the button goes with the dialog, and the keyboard to the page's heading.
    done = true;
    answer(new Response(null, { status: 204 }));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Reset progress' })).toBeNull());
    await vi.waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Quiet Evenings' })).toHaveFocus());
  });

  it('takes the reset’s failure toast away once Reset progress, pressed again, works (decision 150)', async () => {
    const user = userEvent.setup();
    let failing = true;
    const begun = { ...program, progress: { ...program.progress, completed_days: [1] } };
    fakeApi({
      [`GET ${fillPath(API.program, { slug: program.slug })}`]: () => (failing ? begun : program),
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`DELETE ${fillPath(API.programProgress, { slug: program.slug })}`]: () =>
        failing ? jsonResponse(503, null) : new Response(null, { status: 204 }),
    });
    const error = vi.spyOn(toast, 'error');
    const dismiss = vi.spyOn(toast, 'dismiss');
    try {
      renderWithProviders(<ProgramView slug={program.slug} />);
      await user.click(await screen.findByRole('button', { name: 'Reset progress' }));
      const reset = () => within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset progress' });
      await user.click(reset());
      await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(1));
      const failed = error.mock.results[0]!.value as string | number;
      expect(dismiss).not.toHaveBeenCalledWith(failed);
      failing = false;
      await user.click(reset());
      await vi.waitFor(() => expect(dismiss).toHaveBeenCalledWith(failed));
      expect(dismiss).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
      dismiss.mockRestore();
    }
  });

  it('starts nothing and says nothing when the person is signed out while the library answers (decision 085)', async () => {
    const user = userEvent.setup();
    const toastError = vi.spyOn(toast, 'error');
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    fakeApi({
      [`GET ${fillPath(API.program, { slug: program.slug })}`]: () => program,
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`GET ${API.selfeggio}`]: () => {
        // Signed out in another tab while the day's track is looked up.
        sessionStore.clear();
        return [calm];
      },
    });
    renderWithProviders(<ProgramView slug={program.slug} />);
    await user.click(await screen.findByRole('button', { name: 'Start day 1' }));
    expect(await screen.findByRole('button', { name: 'Start day 1' })).toBeEnabled();
    expect(fakeSoundEngine.stop).not.toHaveBeenCalled();
    expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
    expect(fakeEngine.primed).toBe(0);
    expect(toastError).not.toHaveBeenCalled();
  });

  it('gives back the prime of a day whose sound could not be had, so the audio device sleeps again (decision 080)', async () => {
    const user = userEvent.setup();
    fakeEngine.pressOnly = true;
    // Basic plays the day's first sound alone: its track, which the library no longer holds.
    fakeApi({
      [`GET ${fillPath(API.program, { slug: program.slug })}`]: () => program,
      [`GET ${API.plan}`]: () => planStateFor('basic'),
      [`GET ${API.selfeggio}`]: () => [],
    });
    renderWithProviders(<ProgramView slug={program.slug} />);
    await user.click(await screen.findByRole('button', { name: 'Start day 1' }));
    expect(fakeSoundEngine.prime).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('button', { name: 'Start day 1' })).toBeEnabled();
    expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
    expect(fakeEngine.primed).toBe(0);
  });
});
