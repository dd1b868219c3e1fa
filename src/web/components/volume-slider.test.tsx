import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { VolumeSlider } from './volume-slider';

// jsdom has no Web Audio: the engine stands in with its state.
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));

const noise = { id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 0.5, status: 'ready' } as const;

describe('VolumeSlider', () => {
  afterEach(() => {
    cleanup();
    vi.clearAllMocks();
    fakeEngine.reset();
  });

  it('shows the master volume in per cent, follows the engine and sets it', () => {
    fakeEngine.set({ status: 'playing', layers: [noise], volume: 0.8 });
    render(<VolumeSlider />);
    const slider = screen.getByRole('slider', { name: 'Volume' });
    expect(slider).toHaveValue('0.8');
    expect(slider).toHaveAttribute('aria-valuetext', '80%');

    act(() => fakeEngine.set({ volume: 0.25 }));
    expect(slider).toHaveAttribute('aria-valuetext', '25%');

    fireEvent.change(slider, { target: { value: '0.5' } });
    expect(fakeSoundEngine.setVolume).toHaveBeenCalledWith(0.5);
  });

  it('is named "Master volume" where layers have levels of their own, showing "Volume"', () => {
    render(<VolumeSlider master />);
    // The label's text, as Chromium names the slider (jsdom's role query drops the space).
    expect(screen.getByLabelText(/^master volume$/i)).toHaveAttribute('type', 'range');
    expect(screen.getByText('Master')).toHaveClass('sr-only');
  });
});
