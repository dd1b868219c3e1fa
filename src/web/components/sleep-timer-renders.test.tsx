import { act, cleanup, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { soundEngine } from '@web/lib/audio/app-engine';
import { pass, stubWebAudio, type FakeAudioContext } from '@web/test/fake-audio-context';
import { everyElementShown } from '@web/test/shown';
import { MiniPlayer } from './mini-player';
import { VolumeSlider } from './volume-slider';

// The app's real engine on a stand-in of Web Audio, its sleep timers 250 times as short (15 minutes run
// 3.6 s, a fade of two minutes 0.48 s), so that its own tick runs as in the app. The clocks read it every
// 250 ms, hence the tens of seconds a check allows.
const audio = vi.hoisted(() => ({ context: null as FakeAudioContext | null }));
vi.mock('@web/lib/audio/app-engine', async () => {
  const { FakeAudioContext } = await import('@web/test/fake-audio-context');
  const { SoundEngine } = await import('@web/lib/audio/sound-engine');
  audio.context = new FakeAudioContext();
  return { soundEngine: new SoundEngine(() => audio.context as unknown as AudioContext, { timeScale: 0.004 }) };
});

const time = () => screen.getByTestId('mini-player-time');

describe('a running sleep timer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    stubWebAudio();
  });

  afterEach(() => {
    soundEngine.stop();
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('re-renders what follows the engine’s state only when it changes, while the mini-player counts down to the end', async () => {
    let renders = 0;
    render(
      <MemoryRouter>
        <MiniPlayer />
        <Profiler id="volume" onRender={() => renders++}>
          <VolumeSlider />
        </Profiler>
      </MemoryRouter>,
    );
    await act(() => soundEngine.setLayer('binaural', { kind: 'binaural', leftHz: 200, rightHz: 206 }, 0.5));
    act(() => soundEngine.setSleepTimer(15 * 60, 120));
    const settled = renders;

    await act(() => pass(audio.context!, 2.8));
    expect(time()).toHaveTextContent(/^0:02 · 3:[23]\d left$/);
    expect(renders).toBe(settled);

    act(() => soundEngine.setVolume(0.5));
    expect(renders).toBe(settled + 1);

    // The fade, then the end: the session stops and the mini-player goes.
    await act(() => pass(audio.context!, 0.5));
    expect(time()).toHaveTextContent(/^Fading out · 1:[0-2]\d left$/);
    await act(() => pass(audio.context!, 0.5));
    expect(soundEngine.getState().status).toBe('stopped');
    expect(screen.queryByTestId('mini-player-time')).toBeNull();
  });

  it('hands the keyboard in the bar to the page’s heading as the timer ends and the bar goes, not to the page’s top', async () => {
    everyElementShown();
    render(
      <MemoryRouter>
        <main id="main">
          <h1>Subliminals</h1>
        </main>
        <MiniPlayer />
      </MemoryRouter>,
    );
    await act(() => soundEngine.setLayer('binaural', { kind: 'binaural', leftHz: 200, rightHz: 206 }, 0.5));
    act(() => soundEngine.setSleepTimer(15 * 60, 10));
    // The timer chosen from the keyboard, which stays on it while the session plays out.
    screen.getByRole('combobox', { name: 'Sleep timer' }).focus();
    await act(() => pass(audio.context!, 3.8));
    expect(soundEngine.getState().status).toBe('stopped');
    expect(screen.queryByRole('region', { name: 'Now playing' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Subliminals' })).toHaveFocus();
  });
});
