import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MiniPlayer } from '@web/components/mini-player';
import { flashSessions } from '@web/lib/audio/app-session-ends';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { DEFAULT_SETTINGS } from '../lib/player-storage';
import { FlashOverlay } from './flash-overlay';

// jsdom has no Web Audio: the engine stands in with its state and its clock (the real one is measured
// in Chromium by the e2e).
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

const noise = { id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 0.5, status: 'ready' } as const;

function renderSession() {
  render(
    <MemoryRouter>
      <MiniPlayer />
      <FlashOverlay
        playlist={[{ id: 1, message_text: 'I breathe slowly.' }]}
        settings={DEFAULT_SETTINGS}
        onStop={vi.fn()}
      />
    </MemoryRouter>,
  );
  // In the corner, as a person sees the two clocks side by side.
  act(() => screen.getByRole('button', { name: 'In a corner' }).click());
}

const sessionTime = () => screen.getByTestId('session-time');
const miniPlayer = () => within(screen.getByRole('region', { name: 'Now playing' }));

describe('the session screen’s clock', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.clearAllMocks();
    fakeEngine.reset();
    document.body.innerHTML = '';
  });

  it('shows the time the mini-player shows for the sound that plays, as it runs', () => {
    vi.useFakeTimers();
    // The sound began before the messages did (Speak the playlist, then Start).
    fakeEngine.set({ status: 'playing', layers: [noise] });
    fakeEngine.now = 95.4;
    renderSession();
    expect(miniPlayer().getByTestId('mini-player-time')).toHaveTextContent(/^1:35$/);
    expect(sessionTime()).toHaveTextContent('1:35');

    fakeEngine.now = 101.2;
    act(() => vi.advanceTimersByTime(250));
    expect(miniPlayer().getByTestId('mini-player-time')).toHaveTextContent(/^1:41$/);
    expect(sessionTime()).toHaveTextContent('1:41');
  });

  it('says Starting…, as the mini-player does, while the browser has not let the sound start (decision 075)', () => {
    fakeEngine.set({ status: 'playing', starting: true, layers: [noise] });
    renderSession();
    expect(sessionTime()).toHaveTextContent(/^Starting…$/);
    expect(miniPlayer().getByTestId('mini-player-time')).toHaveTextContent(/^Starting…$/);
    expect(screen.getAllByRole('button', { name: 'Pause' })).toHaveLength(2);
    act(() => fakeEngine.set({ starting: false }));
    expect(sessionTime()).toHaveTextContent(/^0:00/);
  });

  it('is paused when the mini-player pauses the sound, and resumes both from its own Resume', () => {
    fakeEngine.set({ status: 'playing', layers: [noise] });
    fakeEngine.now = 42;
    renderSession();
    fireEvent.click(miniPlayer().getByRole('button', { name: 'Pause' }));
    expect(miniPlayer().getByTestId('mini-player-time')).toHaveTextContent('Paused · 0:42');
    expect(sessionTime()).toHaveTextContent(/^Paused · 0:42/);

    fireEvent.click(within(screen.getByTestId('flash-overlay')).getByRole('button', { name: 'Resume' }));
    expect(fakeSoundEngine.resume).toHaveBeenCalledTimes(1);
    expect(sessionTime()).not.toHaveTextContent('Paused');
    expect(miniPlayer().getByTestId('mini-player-time')).toHaveTextContent(/^0:42$/);
  });

  it('full size, has the master volume the mini-player has: moving one moves the other', () => {
    fakeEngine.set({ status: 'playing', layers: [noise], volume: 0.8 });
    render(
      <MemoryRouter>
        <MiniPlayer />
        <FlashOverlay playlist={[{ id: 1, message_text: 'I am here.' }]} settings={DEFAULT_SETTINGS} onStop={vi.fn()} />
      </MemoryRouter>,
    );
    const session = within(screen.getByTestId('flash-overlay')).getByRole('slider', { name: 'Volume' });
    fireEvent.change(session, { target: { value: '0.3' } });
    expect(fakeSoundEngine.setVolume).toHaveBeenCalledWith(0.3);
    expect(miniPlayer().getByLabelText(/^master volume$/i)).toHaveAttribute('aria-valuetext', '30%');
    expect(session).toHaveAttribute('aria-valuetext', '30%');
  });

  it('without sound, counts the messages’ own time from Start, pauses excluded, in the corner and back', () => {
    vi.useFakeTimers();
    render(
      <FlashOverlay playlist={[{ id: 1, message_text: 'I am here.' }]} settings={DEFAULT_SETTINGS} onStop={vi.fn()} />,
    );
    act(() => vi.advanceTimersByTime(65_000));
    expect(sessionTime()).toHaveTextContent(/^1:05 so far/);
    act(() => screen.getByRole('button', { name: 'Pause' }).click());
    act(() => vi.advanceTimersByTime(100_000));
    expect(sessionTime()).toHaveTextContent(/^Paused · 1:05 so far/);
    act(() => screen.getByRole('button', { name: 'In a corner' }).click());
    expect(sessionTime()).toHaveTextContent(/^Paused · 1:05 so far/);
    act(() => screen.getByRole('button', { name: 'Resume' }).click());
    act(() => vi.advanceTimersByTime(10_000));
    expect(sessionTime()).toHaveTextContent(/^1:15 so far/);
  });

  it('shows the silent flashes as history records them: a new session from 0:00 once the sound that came has gone', () => {
    vi.useFakeTimers();
    const recorded: number[] = [];
    const stopListening = flashSessions.onEnd((session) => recorded.push(session.seconds));
    render(
      <FlashOverlay playlist={[{ id: 1, message_text: 'I am here.' }]} settings={DEFAULT_SETTINGS} onStop={vi.fn()} />,
    );
    act(() => vi.advanceTimersByTime(60_000));
    expect(sessionTime()).toHaveTextContent(/^1:00 so far/);

    // A sound plays for 30 s under the flashes (the sound is the session then), and stops.
    act(() => fakeEngine.set({ status: 'playing', layers: [noise] }));
    act(() => {
      fakeEngine.now += 30;
      vi.advanceTimersByTime(30_000);
    });
    expect(sessionTime()).toHaveTextContent(/^0:30 so far/);
    act(() => fakeEngine.set({ status: 'stopped', layers: [] }));
    act(() => vi.advanceTimersByTime(10_000));

    expect(recorded).toEqual([60]);
    expect(sessionTime()).toHaveTextContent(/^0:10 so far/);
    cleanup();
    expect(recorded).toEqual([60, 10]);
    stopListening();
  });
});
