import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeEngine } from '@web/test/fake-sound-engine';
import { MESSAGE_SECONDS, MessageReader } from './message-reader';

vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

const noise = {
  id: 'noise',
  source: { kind: 'noise', colour: 'brown' },
  gain: 0.25,
  status: 'ready',
} as const;
const MESSAGES = ['The day is done.', 'I let it go.', 'My breath slows.', 'I rest.'];

const tick = (seconds: number) =>
  act(() => {
    fakeEngine.now += seconds;
    vi.advanceTimersByTime(seconds * 1000);
  });

describe("a program day's messages", () => {
  afterEach(() => {
    act(() => fakeEngine.set({ status: 'stopped', layers: [] }));
    cleanup();
    vi.useRealTimers();
  });

  it('go on from the message of the moment when the page shows again while the day plays, and hold while paused', () => {
    vi.useFakeTimers();
    act(() => fakeEngine.set({ status: 'playing', layers: [noise] }));
    const first = render(<MessageReader messages={MESSAGES} playing />);
    tick(MESSAGE_SECONDS + 1);
    expect(screen.getByRole('figure')).toHaveTextContent('Message 2 of 4');
    // Another portal page meanwhile, the day playing on; then back to the day's page.
    first.unmount();
    tick(MESSAGE_SECONDS);
    render(<MessageReader messages={MESSAGES} playing />);
    expect(screen.getByRole('figure')).toHaveTextContent('My breath slows.');
    expect(screen.getByRole('figure')).toHaveTextContent('Message 3 of 4');

    act(() => fakeEngine.set({ status: 'paused' }));
    tick(MESSAGE_SECONDS * 2);
    expect(screen.getByRole('figure')).toHaveTextContent('Message 3 of 4');
  });
});
