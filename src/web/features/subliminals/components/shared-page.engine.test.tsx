import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SharedItem } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { sessionStore } from '@web/lib/session';
import { FakeAudioContext, stubWebAudio } from '@web/test/fake-audio-context';
import { fakeApi, planStateFor, renderWithProviders } from '@web/test/render';
import { DEFAULT_SETTINGS } from '../lib/player-storage';
import { SharedPage } from './shared-page';

// "Play it now" on the app's real engine, whose code comes after the page's (decision 020), on a stand-in of
// Web Audio that runs only as Safari lets it: here the engine's code is held back until the test lets it come.
const chunk = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrive: () => arrive(), arrived };
});
vi.mock('@web/lib/audio/app-engine', async (original) => {
  await chunk.arrived;
  return original();
});
vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

/** Safari's context: suspended, and let run only when asked inside a person's press. */
class SafariContext extends FakeAudioContext {
  constructor() {
    super();
    this.state = 'suspended';
    this.autoplay = 'press';
  }
}

const TOKEN = 'abcdefghijklmnopqrstuv';
const withBeats: SharedItem = {
  kind: 'subliminal',
  name: 'Evening calm',
  messages: ['I let the day go'],
  settings: DEFAULT_SETTINGS,
  sound: {
    volume: 0.7,
    layers: [
      { kind: 'binaural', left_hz: 200, right_hz: 206, gain_db: -12 },
      { kind: 'isochronic', carrier_hz: 200, pulse_hz: 10, gain_db: -18 },
    ],
  },
  private_tracks: [],
  gone_tracks: [],
  shared_at: '2026-11-20T18:00:00Z',
};

beforeEach(() => {
  stubWebAudio();
  vi.stubGlobal('AudioContext', SafariContext);
});
afterEach(async () => {
  (await import('@web/lib/audio/app-engine')).soundEngine.stop();
  sessionStore.clear();
  vi.unstubAllGlobals();
});

describe('SharedPage: Play it now pressed while the engine’s code is on its way (decision 085)', () => {
  it('starts the sound in Safari once the engine is here, as the press readied the audio', async () => {
    const user = userEvent.setup();
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    fakeApi({
      [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => withBeats,
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`PUT ${API.player}`]: ({ body }) => ({ ...(body as object), updated_at: '2026-11-23T10:00:00Z' }),
    });
    const { router } = renderWithProviders(<SharedPage token={TOKEN} />, {
      path: `/s/${TOKEN}`,
      routes: [{ path: '/subliminals', element: <p>player</p> }],
    });
    await user.click(await screen.findByRole('button', { name: 'Play it now' }));
    chunk.arrive();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subliminals'));
    const { soundEngine } = await import('@web/lib/audio/app-engine');
    expect(soundEngine.getState()).toMatchObject({ status: 'playing', refused: false });
    expect(soundEngine.getState().layers.map((layer) => layer.id)).toEqual(['binaural', 'isochronic']);
  });
});
