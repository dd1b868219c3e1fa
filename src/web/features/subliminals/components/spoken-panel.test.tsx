import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import type { LayerSource, SoundEngineState } from '@web/lib/audio/sound-engine';
import type * as SpeechModule from '@web/lib/audio/speech/speech';
import { fakeApi, planStateFor, renderWithProviders } from '@web/test/render';
import { levelText } from './spoken-controls';
import { SpokenPanel } from './spoken-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

// jsdom has neither Web Audio nor WebAssembly workers: the engine and the synthesiser stand in
// (both are measured in Chromium by e2e/spoken.spec.ts).
const fake = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  const state = {
    current: { status: 'stopped', volume: 0.8, layers: [], timer: null, ended: null } as SoundEngineState,
  };
  const set = (next: Partial<SoundEngineState>) => {
    state.current = { ...state.current, ...next };
    for (const listener of listeners) listener();
  };
  return {
    state,
    set,
    spoken: [] as string[],
    soundEngine: {
      getState: () => state.current,
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      setLayer: vi.fn(async (id: 'voice', source: LayerSource, gain: number) => {
        set({ status: 'playing', layers: [{ id, source, gain, status: 'ready' }] });
      }),
      setVoiceLevel: vi.fn(),
      removeLayer: vi.fn(() => set({ status: 'stopped', layers: [] })),
    },
  };
});
vi.mock('@web/lib/audio/app-engine', () => ({ soundEngine: fake.soundEngine }));
vi.mock('@web/lib/audio/speech/speech', async (original) => ({
  ...(await original<typeof SpeechModule>()),
  speak: async (text: string, voice: string, rate: number) => {
    fake.spoken.push(`${voice}|${rate}|${text}`);
    return { samples: new Float32Array([0, 0.5, -0.25]), sampleRate: 10 };
  },
}));

const withPlan = (plan: 'intermediate' | 'pro') => fakeApi({ [`GET ${API.plan}`]: () => planStateFor(plan) });

beforeEach(() => {
  fake.set({ status: 'stopped', layers: [] });
  fake.spoken.length = 0;
  vi.clearAllMocks();
});

describe('SpokenPanel', () => {
  it('below Pro, names the plan that has spoken affirmations and audio export', async () => {
    withPlan('intermediate');
    renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
    expect(
      await screen.findByRole('button', { name: /Spoken affirmations.*Pro/ }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Audio export.*Pro/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Speak the playlist' })).toBeNull();
  });

  it('speaks every message once in the chosen voice and speed, as a voice layer at the subliminal level', async () => {
    withPlan('pro');
    const user = userEvent.setup();
    renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.']} />);
    await user.selectOptions(await screen.findByLabelText('Voice'), 'en-gb');
    await user.click(screen.getByRole('button', { name: 'Slow' }));
    await user.click(screen.getByRole('button', { name: '4 s' }));
    await user.click(screen.getByRole('button', { name: 'Speak the playlist' }));
    expect(await screen.findByText('Speaking 2 messages, looping.')).toBeInTheDocument();
    expect(fake.spoken).toEqual(['en-gb|120|I am calm.', 'en-gb|120|I rest.']);
    const [id, source] = fake.soundEngine.setLayer.mock.calls[0]!;
    expect(id).toBe('voice');
    // Two clips of 3 samples at 10 Hz, each followed by a 4 s pause, the loudest sample at full scale.
    expect(source).toMatchObject({ kind: 'voice', messages: 2, level: -20 });
    expect(source.kind === 'voice' && source.loop.samples.length).toBe(86);

    const slider = screen.getByRole('slider', { name: 'Subliminal level' });
    expect(slider).toHaveAttribute('aria-valuetext', 'Masked: 20 dB under the other layers');
    fireEvent.change(slider, { target: { value: '0' } });
    expect(fake.soundEngine.setVoiceLevel).toHaveBeenLastCalledWith(0);
    expect(slider).toHaveAttribute('aria-valuetext', 'Audible: as loud as the other layers');

    await user.click(screen.getByRole('button', { name: 'Stop the voice' }));
    expect(fake.soundEngine.removeLayer).toHaveBeenCalledWith('voice');
  });

  it('says the level in words', () => {
    expect(levelText(0)).toBe('Audible: as loud as the other layers');
    expect(levelText(-6)).toBe('6 dB under the other layers');
    expect(levelText(-35)).toBe('Masked: 35 dB under the other layers');
  });

  it('opens the export dialog, which asks for something to play first', async () => {
    withPlan('pro');
    const user = userEvent.setup();
    renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
    await user.click(await screen.findByRole('button', { name: 'Export audio' }));
    expect(screen.getByRole('dialog', { name: 'Export the session as audio' })).toHaveTextContent(/Nothing plays yet/);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Export audio' })).toHaveFocus();
  });
});
