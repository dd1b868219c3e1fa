import { act, cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { soundEngine } from '@web/lib/audio/app-engine';
import { START_WAIT_MS, STARTING_SHOWN_MS } from '@web/lib/audio/sound-engine';
import { FakeAudioContext, stubWebAudio } from '@web/test/fake-audio-context';
import { sessionStore } from '@web/lib/session';
import { PORTAL_LEFT_MS, usePortalShown } from '@web/lib/portal-presence';
import { MiniPlayer, PRESS_PLAY, STARTING } from './mini-player';
import { everyElementShown } from '@web/test/shown';

/** A portal layout, with its mini-player. */
function Layout() {
  usePortalShown(true);
  return <MiniPlayer />;
}

const player = () =>
  render(
    <MemoryRouter>
      <Layout />
    </MemoryRouter>,
  );

describe('MiniPlayer: the sound stops when the portal is left', () => {
  let stop: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.useFakeTimers();
    stop = vi.spyOn(soundEngine, 'stop').mockImplementation(() => undefined);
    sessionStore.setTokens({ access: 'a.e30.s', refresh: 'r' }, 'ada@example.com');
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.restoreAllMocks();
    sessionStore.clear();
  });

  it('keeps playing when one layout’s player gives way to the next (a shared link’s page → /subliminals)', () => {
    player().unmount();
    vi.advanceTimersByTime(PORTAL_LEFT_MS / 2);
    player();
    vi.advanceTimersByTime(PORTAL_LEFT_MS * 2);
    expect(stop).not.toHaveBeenCalled();
  });

  it('stops once no player has come back in time (a page outside the portal)', () => {
    player().unmount();
    vi.advanceTimersByTime(PORTAL_LEFT_MS - 1);
    expect(stop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('stops at once on signing out', () => {
    const view = player();
    sessionStore.clear();
    view.unmount();
    expect(stop).toHaveBeenCalledTimes(1);
  });
});

describe('MiniPlayer: a sound the browser would not start (docs/decisions/072-sound-the-browser-refuses-waits-paused.md)', () => {
  /** The app engine's context: Chromium's before any gesture of the person's, suspended, its resume() unanswered. */
  const contexts: FakeAudioContext[] = [];
  class RefusingContext extends FakeAudioContext {
    constructor() {
      super();
      this.state = 'suspended';
      this.autoplay = 'pending';
      contexts.push(this);
    }
  }
  beforeEach(() => {
    vi.useFakeTimers();
    stubWebAudio();
    vi.stubGlobal('AudioContext', RefusingContext);
  });
  afterEach(() => {
    soundEngine.stop();
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the play button and says to press it, never Pause, and plays once it is pressed', async () => {
    const view = player();
    let started: Promise<void> | undefined;
    act(() => {
      started = soundEngine.setLayer('binaural', { kind: 'binaural', leftHz: 200, rightHz: 206 }, 0.5);
    });
    await act(() => vi.advanceTimersByTimeAsync(START_WAIT_MS + 100));
    await started;
    expect(view.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(view.getByTestId('mini-player-time').textContent).toBe(PRESS_PLAY);

    // The press is the gesture the browser waits for.
    contexts.at(-1)!.autoplay = 'allowed';
    await act(async () => view.getByRole('button', { name: 'Play' }).click());
    expect(view.getByRole('button', { name: 'Pause' })).toBeTruthy();
    expect(view.getByTestId('mini-player-time').textContent).not.toBe(PRESS_PLAY);
  });

  it('says Starting…, not a time, while the browser has not answered, with no flip of its button (decision 075)', async () => {
    // The engine's one context, made by an earlier test or by this one: suspended, its resume() unanswered.
    const earlier = contexts.at(-1);
    if (earlier) [earlier.state, earlier.autoplay] = ['suspended', 'pending'];
    const view = player();
    act(() => void soundEngine.setLayer('binaural', { kind: 'binaural', leftHz: 200, rightHz: 206 }, 0.5));
    const time = () => view.getByTestId('mini-player-time').textContent;
    await act(() => vi.advanceTimersByTimeAsync(STARTING_SHOWN_MS - 50));
    expect(time()).not.toBe(STARTING);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(time()).toBe(STARTING);
    expect(view.getByRole('button', { name: 'Pause' })).toBeTruthy();

    // A device slow to open runs after all: the time shows.
    await act(async () => contexts.at(-1)!.run());
    expect(time()).toMatch(/^0:00/);
  });
});

describe('MiniPlayer: its Stop from the keyboard', () => {
  beforeEach(() => {
    stubWebAudio();
    everyElementShown();
  });
  afterEach(() => {
    soundEngine.stop();
    cleanup();
    vi.unstubAllGlobals();
  });

  it('hands the keyboard to the page’s heading as the bar goes with what it played, not to the page’s top', async () => {
    const user = userEvent.setup();
    const view = render(
      <MemoryRouter>
        <main id="main">
          <h1>Meditation Music</h1>
        </main>
        <Layout />
      </MemoryRouter>,
    );
    await act(() => soundEngine.setLayer('binaural', { kind: 'binaural', leftHz: 200, rightHz: 206 }, 0.5));
    const stop = view.getByRole('button', { name: 'Stop' });
    stop.focus();
    await user.keyboard('{Enter}');
    expect(view.queryByRole('region', { name: 'Now playing' })).toBeNull();
    expect(view.getByRole('heading', { name: 'Meditation Music' })).toHaveFocus();
  });
});
