import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeEngine } from '@web/test/fake-sound-engine';
import { sessionEnds } from '@web/lib/audio/app-session-ends';
import { MiniPlayer } from './mini-player';

vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

const track = {
  id: 'track',
  source: { kind: 'track', key: 'selfeggio:12', title: '528 Hz', url: '/media/x' },
  gain: 1,
  status: 'ready',
} as const;
const alpha = {
  id: 'binaural',
  source: { kind: 'binaural', leftHz: 200, rightHz: 210 },
  gain: 0.5,
  status: 'ready',
} as const;

const time = () => screen.getByTestId('mini-player-time');
const tick = (seconds: number) =>
  act(() => {
    fakeEngine.now += seconds;
    vi.advanceTimersByTime(250);
  });

describe('the mini-player’s clock', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('starts again with a sound that replaces another, as history records it, and says looping only for a track', () => {
    vi.useFakeTimers();
    const ended: number[] = [];
    const stopListening = sessionEnds.onEnd((session) => ended.push(session.seconds));
    fakeEngine.set({ status: 'playing', layers: [track] });
    render(
      <MemoryRouter>
        <MiniPlayer />
      </MemoryRouter>,
    );
    tick(6);
    act(() => fakeEngine.set({ status: 'paused' }));
    act(() => fakeEngine.set({ status: 'playing' }));
    tick(4);
    expect(time()).toHaveTextContent(/^0:10 · looping$/);

    // The Alpha preset takes the track's place (one sound at a time).
    act(() => fakeEngine.set({ layers: [alpha] }));
    tick(3);
    expect(ended).toEqual([10]);
    // A generated tone goes on, it does not loop.
    expect(time()).toHaveTextContent(/^0:03$/);
    act(() => fakeEngine.set({ status: 'stopped', layers: [] }));
    expect(ended).toEqual([10, 3]);
    stopListening();
  });
});
