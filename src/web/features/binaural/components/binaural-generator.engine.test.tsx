import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { fakeApi, planStateFor, renderWithProviders } from '@web/test/render';
import { BinauralGenerator } from './binaural-generator';

// The generator beside the rest of the portal's sound: beats started elsewhere, on the app's one engine
// (a stand-in here, as jsdom has no Web Audio).
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

afterEach(() => {
  act(() => fakeEngine.reset());
  vi.clearAllMocks();
});

const renderGenerator = () => {
  fakeApi({ [`GET ${API.plan}`]: () => planStateFor('pro') });
  return renderWithProviders(<BinauralGenerator />);
};

/** Beats as a saved subliminal or a share link starts them: 180 / 190 Hz at −12 dB. */
const playElsewhere = (leftHz: number, rightHz: number, gain: number) =>
  act(() =>
    fakeEngine.set({
      status: 'playing',
      layers: [{ id: 'binaural', source: { kind: 'binaural', leftHz, rightHz }, gain, status: 'ready' }],
    }),
  );

describe('binaural generator with beats started elsewhere', () => {
  it('shows the frequencies and the level that play, and keeps them once they stop', async () => {
    playElsewhere(180, 190, 0.25);
    renderGenerator();
    const left = screen.getByRole('spinbutton', { name: 'Left frequency (Hz)' });
    const right = screen.getByRole('spinbutton', { name: 'Right frequency (Hz)' });
    expect(left).toHaveValue(180);
    expect(right).toHaveValue(190);
    expect(screen.getByRole('slider', { name: 'Volume' })).toHaveValue('0.25');
    expect(screen.getByText('25%')).toBeInTheDocument();
    expect(screen.getByText('Playing a 10 Hz beat')).toBeInTheDocument();

    // Another saved subliminal opened while the generator shows, then the Levels slider moved.
    playElsewhere(150, 154, 0.5);
    expect(left).toHaveValue(150);
    expect(right).toHaveValue(154);
    expect(screen.getByText('50%')).toBeInTheDocument();
    playElsewhere(150, 154, 0.1);
    expect(screen.getByText('10%')).toBeInTheDocument();

    act(() => fakeEngine.reset());
    expect(screen.getByText('Stopped')).toBeInTheDocument();
    expect(left).toHaveValue(150);
  });

  it('leaves a field emptied while playing empty, saying what still plays', async () => {
    const user = userEvent.setup();
    playElsewhere(180, 190, 0.25);
    renderGenerator();
    const left = screen.getByRole('spinbutton', { name: 'Left frequency (Hz)' });
    await user.clear(left);
    // The Levels slider moves meanwhile: the level follows, the field the person is typing in does not.
    playElsewhere(180, 190, 0.4);
    expect(left).toHaveValue(null);
    expect(screen.getByText('Still playing 180 Hz: type a frequency to change it')).toBeInTheDocument();
    expect(screen.getByText('40%')).toBeInTheDocument();
  });
});

describe('binaural generator while the sound is paused', () => {
  it('says the beats are paused, not playing, when the browser has not let them start', () => {
    renderGenerator();
    // docs/decisions/072-sound-the-browser-refuses-waits-paused.md: the engine waits, paused, for a press.
    act(() =>
      fakeEngine.set({
        status: 'paused',
        refused: true,
        layers: [
          { id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 210 }, gain: 0.5, status: 'ready' },
        ],
      }),
    );
    expect(screen.getByText('Paused · a 10 Hz beat')).toBeInTheDocument();
    expect(screen.queryByText('Playing a 10 Hz beat')).toBeNull();
    act(() => fakeEngine.set({ status: 'playing', refused: false }));
    expect(screen.getByText('Playing a 10 Hz beat')).toBeInTheDocument();
  });

  it('says the beats are starting, not playing, while the browser has not answered (decision 075)', () => {
    renderGenerator();
    const layer = { id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz: 210 }, gain: 0.5 } as const;
    act(() => fakeEngine.set({ status: 'playing', starting: true, layers: [{ ...layer, status: 'ready' }] }));
    expect(screen.getByText('Starting a 10 Hz beat…')).toBeInTheDocument();
    act(() => fakeEngine.set({ starting: false }));
    expect(screen.getByText('Playing a 10 Hz beat')).toBeInTheDocument();
  });
});

describe('binaural generator from the keyboard', () => {
  it('keeps the keyboard on Stop once the beats stop, where a second press does nothing', async () => {
    const user = userEvent.setup();
    playElsewhere(200, 210, 0.5);
    renderGenerator();
    const stop = screen.getByRole('button', { name: 'Stop' });
    expect(stop).not.toHaveAttribute('aria-disabled');
    stop.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('Stopped')).toBeInTheDocument();
    expect(stop).toHaveAttribute('aria-disabled', 'true');
    expect(stop).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(fakeSoundEngine.removeLayer).toHaveBeenCalledTimes(1);
  });
});
