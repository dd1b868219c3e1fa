import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MixLayer, SoundMix } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { AUDIO_LIBRARIES } from '@shared/contract/portal-plain';
import type * as MicrophoneModule from '@web/lib/audio/microphone';
import type * as SpeechModule from '@web/lib/audio/speech/speech';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { fakeApi } from '@web/test/render';
import { PortalLeftError, portalVisit } from '@web/lib/portal-presence';
import { sessionStore } from '@web/lib/session';
import { startSavedSound } from './saved-sound';

// A saved sound's voice layer, synthesised or in one's own recordings. jsdom has no Web Audio: the
// engine, the synthesiser and the decoder stand in (measured in Chromium by e2e/spoken.spec.ts and
// e2e/own-voice.spec.ts).
const fake = vi.hoisted(() => ({ spoken: [] as string[] }));
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));
vi.mock('@web/lib/audio/speech/speech', async (original) => ({
  ...(await original<typeof SpeechModule>()),
  speak: async (text: string, voice: string) => {
    fake.spoken.push(`${voice}|${text}`);
    return { samples: new Float32Array([0.5]), sampleRate: 22_050 };
  },
}));
vi.mock('@web/lib/audio/microphone', async (original) => ({
  ...(await original<typeof MicrophoneModule>()),
  decodeToTake: async () => ({ samples: new Float32Array([0.25, -0.5]), sampleRate: 22_050 }),
}));

const voice = (name: string): Extract<MixLayer, { kind: 'voice' }> => ({
  kind: 'voice',
  voice: name,
  rate: 145,
  pause_s: 1,
  level_db: -20,
  gain_db: -6,
});
const mixOf = (layer: MixLayer): SoundMix => ({ volume: 0.7, layers: [layer] });
/** "I rest." recorded in the person's voice as recording `id` (a clip of its own); `whileFetched` runs as it is fetched. */
function recordedInOwnVoice(id: number, whileFetched = () => {}) {
  const url = `/media/own-voice/1/${id}.wav`;
  fakeApi({
    [`GET ${API.myVoice}`]: () => ({
      recordings: [{ id, text: 'I rest.', url, duration_ms: 900, bytes: 90, created_at: 'x' }],
      max_recordings: 100,
      max_seconds: 20,
    }),
    [`GET ${url}`]: () => {
      whileFetched();
      return new Response(new Uint8Array(8));
    },
  });
}
const start = (mix: SoundMix, messages: string[]) =>
  startSavedSound(mix, { plan: 'pro', messages, queryClient: new QueryClient(), visit: portalVisit() });

beforeEach(() => {
  fake.spoken.length = 0;
  vi.clearAllMocks();
  fakeEngine.reset();
});

describe('a saved sound’s voice', () => {
  it('speaks the messages in the saved synthesised voice', async () => {
    fakeApi({});
    expect(await start(mixOf(voice('en-gb')), ['I am calm.', 'I rest.'])).toEqual({ started: 1, skipped: [] });
    expect(fake.spoken).toEqual(['en-gb|I am calm.', 'en-gb|I rest.']);
    expect(fakeSoundEngine.setLayer).toHaveBeenCalledWith(
      'voice',
      expect.objectContaining({ kind: 'voice', messages: 2, spoken: { voice: 'en-gb', rate: 145, pause: 1 } }),
      expect.any(Number),
      { exclusive: true },
    );
  });

  it('speaks in the own voice the messages the person recorded, and nothing synthesised', async () => {
    recordedInOwnVoice(4);
    expect(await start(mixOf(voice('own')), ['I am calm.', 'I rest.'])).toEqual({ started: 1, skipped: [] });
    expect(fake.spoken).toEqual([]);
    expect(fakeSoundEngine.setLayer).toHaveBeenCalledWith(
      'voice',
      expect.objectContaining({ kind: 'voice', messages: 1, spoken: expect.objectContaining({ voice: 'own' }) }),
      expect.any(Number),
      { exclusive: true },
    );
  });

  it('starts nothing, and stops nothing, when the session ends while the own voice is fetched (decision 085)', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    // Signed out in another tab while the recording is on its way.
    recordedInOwnVoice(5, () => sessionStore.clear());
    await expect(start(mixOf(voice('own')), ['I rest.'])).rejects.toBeInstanceOf(PortalLeftError);
    expect(fakeSoundEngine.stop).not.toHaveBeenCalled();
    expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
  });

  it('leaves the own voice out, saying why, for someone with no recording of these messages', async () => {
    fakeApi({ [`GET ${API.myVoice}`]: () => ({ recordings: [], max_recordings: 100, max_seconds: 20 }) });
    expect(await start(mixOf(voice('own')), ['I am calm.'])).toEqual({
      started: 0,
      skipped: [
        {
          label: 'Spoken affirmations in your own voice',
          reason: 'none of these messages is recorded in your voice',
        },
      ],
    });
    expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
  });
});

describe('a saved sound whose library track was removed', () => {
  it('leaves the track out before the plan is asked, so a free account plays the layer after it', async () => {
    fakeApi({ [`GET ${AUDIO_LIBRARIES.selfeggio.path}`]: () => [] });
    const track: MixLayer = { kind: 'track', audio_kind: 'selfeggio', track_id: 6, name: '432 Hz', gain_db: 0 };
    const binaural: MixLayer = { kind: 'binaural', left_hz: 200, right_hz: 206, gain_db: -12 };
    const started = await startSavedSound(
      { volume: 0.7, layers: [track, binaural] },
      { plan: 'basic', messages: ['I rest.'], queryClient: new QueryClient(), visit: portalVisit() },
    );
    expect(started).toEqual({
      started: 1,
      skipped: [{ label: '\u2068432 Hz\u2069', reason: 'no longer in the library' }],
    });
    expect(fakeSoundEngine.setLayer).toHaveBeenCalledWith(
      'binaural',
      { kind: 'binaural', leftHz: 200, rightHz: 206 },
      expect.any(Number),
      { exclusive: true },
    );
  });
});
