import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import type * as MicrophoneModule from '@web/lib/audio/microphone';
import type * as SpeechModule from '@web/lib/audio/speech/speech';
import { PressOnlyAudio } from '@web/test/fake-audio-context';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders, type ApiHandler } from '@web/test/render';
import { sessionStore } from '@web/lib/session';
import { SESSION_EXPIRED_MESSAGE, startSessionLifecycle } from '@web/lib/session-refresh';
import { toast } from 'sonner';
import { MICROPHONE_BLOCKED } from '@web/lib/audio/microphone';
import { levelTake, SPEECH_LEVEL_DB, speechLevel } from '@web/lib/audio/voice-take';
import { readWav } from '@web/lib/audio/wav';
import { NOTHING_HEARD } from './own-voice';
import { LISTEN_REFUSED, RECORDING_UNPLAYABLE } from '../lib/take-listening';
import { levelText, NOTHING_RECORDED } from './spoken-controls';
import { SpokenPanel } from './spoken-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

// The microphone and the browser's decoder stand in: a take is what the test says was heard, and a
// recording fetched back decodes to a clip of its own.
const mic = vi.hoisted(() => ({
  heard: [] as number[],
  blocked: false,
  takes: 0,
  /** While set, the microphone opens once it settles (the browser's permission prompt). */
  opening: null as Promise<void> | null,
}));
vi.mock('@web/lib/audio/microphone', async (original) => ({
  ...(await original<typeof MicrophoneModule>()),
  startMicrophoneTake: vi.fn(async () => {
    await mic.opening;
    if (mic.blocked) throw new Error((await original<typeof MicrophoneModule>()).MICROPHONE_BLOCKED);
    mic.takes++;
    let stop = () => {};
    const recorded = new Promise<Blob>((resolve) => {
      stop = () => resolve(new Blob(['take'], { type: 'audio/webm' }));
    });
    return { stop: () => stop(), recorded, startedAt: Date.now() };
  }),
  decodeToTake: vi.fn(async (audio: Blob | ArrayBuffer) =>
    audio instanceof Blob
      ? { samples: new Float32Array(mic.heard), sampleRate: 1000 }
      : { samples: new Float32Array([0.1, -0.2]), sampleRate: 22_050 },
  ),
}));

// jsdom has neither Web Audio nor WebAssembly workers: the engine and the synthesiser stand in
// (both are measured in Chromium by e2e/spoken.spec.ts).
const fake = vi.hoisted(() => ({
  spoken: [] as string[],
  whileSpeaking: null as (() => void) | null,
  /** While set, each message is prepared once it settles. */
  hold: null as Promise<void> | null,
}));
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));
vi.mock('@web/lib/audio/speech/speech', async (original) => ({
  ...(await original<typeof SpeechModule>()),
  speak: async (text: string, voice: string, rate: number) => {
    await fake.hold;
    fake.spoken.push(`${voice}|${rate}|${text}`);
    fake.whileSpeaking?.();
    return { samples: new Float32Array([0, 0.5, -0.25]), sampleRate: 10 };
  },
}));

const withPlan = (plan: 'intermediate' | 'pro') => fakeApi({ [`GET ${API.plan}`]: () => planStateFor(plan) });

beforeEach(() => {
  fakeEngine.reset();
  fake.spoken.length = 0;
  fake.whileSpeaking = null;
  fake.hold = null;
  vi.clearAllMocks();
});

describe('SpokenPanel', () => {
  it('below Pro, names the plan that has spoken affirmations and audio export', async () => {
    withPlan('intermediate');
    renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
    expect(await screen.findByRole('button', { name: /Spoken affirmations.*Pro/ })).toBeInTheDocument();
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
    const [id, source] = fakeSoundEngine.setLayer.mock.calls[0]!;
    expect(id).toBe('voice');
    // Two clips of 3 samples at 10 Hz, each followed by a 4 s pause, the loudest sample at full scale.
    expect(source).toMatchObject({ kind: 'voice', messages: 2, level: -20 });
    expect(source.kind === 'voice' && source.loop.samples.length).toBe(86);

    const slider = screen.getByRole('slider', { name: 'Subliminal level' });
    expect(slider).toHaveAttribute('aria-valuetext', 'Masked: 20 dB under the other layers');
    fireEvent.change(slider, { target: { value: '0' } });
    expect(fakeSoundEngine.setVoiceLevel).toHaveBeenLastCalledWith(0);
    expect(slider).toHaveAttribute('aria-valuetext', 'Audible: as loud as the other layers');

    await user.click(screen.getByRole('button', { name: 'Stop the voice' }));
    expect(fakeSoundEngine.removeLayer).toHaveBeenCalledWith('voice');
  });

  it('keeps the keyboard on "Speak the playlist" while the voice is prepared, and brings it back from "Stop the voice"', async () => {
    withPlan('pro');
    const user = userEvent.setup();
    renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.']} />);
    const speak = await screen.findByRole('button', { name: 'Speak the playlist' });
    let prepare = () => {};
    fake.hold = new Promise((resolve) => (prepare = resolve));
    speak.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Preparing the voice… 0 of 2 messages')).toBeInTheDocument();
    // Unavailable while the voice is prepared, yet not disabled, which would drop the keyboard.
    expect(speak).toHaveAttribute('aria-disabled', 'true');
    expect(speak).toBeEnabled();
    expect(speak).toHaveFocus();
    // A second press meanwhile asks for nothing more.
    await user.keyboard('{Enter}');
    prepare();
    expect(await screen.findByText('Speaking 2 messages, looping.')).toBeInTheDocument();
    expect(fake.spoken).toHaveLength(2);
    expect(fakeSoundEngine.setLayer).toHaveBeenCalledTimes(1);
    expect(speak).toHaveAccessibleName('Speak the playlist again');
    expect(speak).not.toHaveAttribute('aria-disabled');
    expect(speak).toHaveFocus();

    await user.tab();
    expect(screen.getByRole('button', { name: 'Stop the voice' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('button', { name: 'Stop the voice' })).toBeNull();
    expect(speak).toHaveFocus();
  });

  it('says the voice is paused, not speaking, while the sound waits for a press (decision 072)', async () => {
    withPlan('pro');
    const user = userEvent.setup();
    renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.']} />);
    await user.click(await screen.findByRole('button', { name: 'Speak the playlist' }));
    expect(await screen.findByText('Speaking 2 messages, looping.')).toBeInTheDocument();
    // The browser would not start it without a press: the engine shows it paused.
    act(() => fakeEngine.set({ status: 'paused', refused: true }));
    expect(screen.getByText('Paused: speaking 2 messages, looping.')).toBeInTheDocument();
    expect(screen.queryByText('Speaking 2 messages, looping.')).toBeNull();
  });

  it('says the voice is starting, not speaking, while the browser has not let the sound start (decision 075)', async () => {
    withPlan('pro');
    const user = userEvent.setup();
    renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.']} />);
    await user.click(await screen.findByRole('button', { name: 'Speak the playlist' }));
    expect(await screen.findByText('Speaking 2 messages, looping.')).toBeInTheDocument();
    act(() => fakeEngine.set({ starting: true }));
    expect(screen.getByText('Starting to speak 2 messages, looping.')).toBeInTheDocument();
  });

  it('speaks in Safari, which starts sound only inside the press, though the voice is ready after it (decision 075)', async () => {
    withPlan('pro');
    const user = userEvent.setup();
    fakeEngine.pressOnly = true;
    renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.']} />);
    await user.click(await screen.findByRole('button', { name: 'Speak the playlist' }));
    expect(await screen.findByText('Speaking 2 messages, looping.')).toBeInTheDocument();
    expect(fakeEngine.state).toMatchObject({ status: 'playing', refused: false });
    await vi.waitFor(() => expect(fakeEngine.primed).toBe(0));
  });

  it('speaks nothing, and says nothing, when the person is signed out while the voice is prepared (decision 085)', async () => {
    withPlan('pro');
    const user = userEvent.setup();
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    // Signed out (in another tab, or sent to log in) while eSpeak NG speaks the messages.
    fake.whileSpeaking = () => sessionStore.clear();
    renderWithProviders(<SpokenPanel messages={['I let go of the day.']} />);
    await user.click(await screen.findByRole('button', { name: 'Speak the playlist' }));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Speak the playlist' })).toBeEnabled());
    expect(fake.spoken).toEqual(['en-us|145|I let go of the day.']);
    expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
    expect(fakeEngine.primed).toBe(0);
    expect(toast.error).not.toHaveBeenCalled();
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

  describe('in one’s own voice', () => {
    const recording = (id: number, text: string) => ({
      id,
      text,
      url: `/media/own-voice/9/${id}.wav`,
      duration_ms: 1200,
      bytes: 2000,
      created_at: '2026-11-29T10:00:00Z',
    });

    function withVoice(recordings: ReturnType<typeof recording>[], media: Record<string, ApiHandler> = {}) {
      const kept: FormData[] = [];
      const api = fakeApi({
        [`GET ${API.plan}`]: () => planStateFor('pro'),
        [`GET ${API.myVoice}`]: () => ({ recordings, max_recordings: 100, max_seconds: 20 }),
        [`DELETE ${API.myVoice}3/`]: () => {
          recordings.splice(
            recordings.findIndex((take) => take.id === 3),
            1,
          );
          return new Response(null, { status: 204 });
        },
        [`POST ${API.myVoice}`]: ({ body }) => {
          const form = body as FormData;
          kept.push(form);
          const made = recording(Math.max(...recordings.map((take) => take.id)) + 1, String(form.get('text')));
          recordings.push(made);
          return new Response(JSON.stringify(made), { status: 201 });
        },
        'GET /media/own-voice/9/1.wav': () => new Response(new Uint8Array(48)),
        'GET /media/own-voice/9/2.wav': () => new Response(new Uint8Array(48)),
        ...media,
      });
      return { api, kept };
    }

    beforeEach(() => {
      mic.heard = [];
      mic.blocked = false;
      mic.takes = 0;
      mic.opening = null;
    });

    it('records a message, keeps it, and speaks the recorded messages in the person’s voice', async () => {
      const { kept } = withVoice([recording(1, 'I am calm.'), recording(3, 'An old message.')]);
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.', 'I am calm.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      expect(screen.queryByRole('button', { name: 'Slow' })).toBeNull();
      expect(await screen.findByText('1 of 2 messages recorded')).toBeInTheDocument();
      expect(screen.getAllByText('Recorded, 1.2 s')).toHaveLength(2);
      // A recording of a text the playlist no longer holds stays reachable, to listen to or delete.
      expect(screen.getByText('You keep 2 of 100 recordings.')).toBeInTheDocument();
      await user.click(screen.getByText('1 recording of messages not in this playlist'));
      await user.click(screen.getByRole('button', { name: 'Delete the recording of “An old message.”' }));
      await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('You keep 1 of 100 recordings.')).toBeInTheDocument();
      expect(screen.queryByText(/not in this playlist/)).toBeNull();

      // Half a second of words between silences.
      mic.heard = [...new Array(400).fill(0), ...new Array(500).fill(0.5), ...new Array(400).fill(0)];
      await user.click(screen.getByRole('button', { name: 'Record “I rest.”' }));
      expect(await screen.findByText(/^Recording… 0:00 of 0:20$/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Record again “I am calm.”' })).toBeDisabled();
      await user.click(screen.getByRole('button', { name: 'Stop recording “I rest.”' }));
      expect(await screen.findByText('2 of 2 messages recorded')).toBeInTheDocument();
      expect(kept).toHaveLength(1);
      expect(kept[0]!.get('text')).toBe('I rest.');
      const wav = kept[0]!.get('audio_file') as File;
      // The words and 150 ms either side, one channel of 16 bits, after a 44-byte header.
      expect([wav.type, wav.size]).toEqual(['audio/wav', 44 + (500 + 300) * 2]);
      // Heard at −6 dBFS, kept at the one speech level of every take (to within its frames' edges).
      const { samples } = readWav(await wav.arrayBuffer());
      expect(20 * Math.log10(samples[150 + 250]!)).toBeCloseTo(SPEECH_LEVEL_DB, 0);
      expect(toast.success).toHaveBeenCalledWith('Recording saved.');

      await user.click(screen.getByRole('button', { name: 'Speak the playlist' }));
      expect(await screen.findByText('Speaking 3 messages in your voice, looping.')).toBeInTheDocument();
      expect(fake.spoken).toEqual([]);
      const [, source] = fakeSoundEngine.setLayer.mock.calls[0]!;
      expect(source).toMatchObject({ kind: 'voice', messages: 3, spoken: { voice: 'own' } });
    });

    it('opens one take for two presses of Record while the microphone opens, the keyboard staying on it', async () => {
      const { api } = withVoice([]);
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      expect(await screen.findByText('0 of 2 messages recorded')).toBeInTheDocument();
      let allow = () => {};
      mic.opening = new Promise<void>((resolve) => (allow = resolve));

      const record = screen.getByRole('button', { name: 'Record “I am calm.”' });
      record.focus();
      await user.keyboard('{Enter}');
      await vi.waitFor(() => expect(record).toHaveAttribute('aria-disabled', 'true'));
      expect(screen.getByText('Waiting for the microphone…')).toBeInTheDocument();
      await user.keyboard('{Enter}');
      await user.keyboard(' ');
      // Another message's Record waits for this take: unavailable.
      expect(screen.getByRole('button', { name: 'Record “I rest.”' })).toBeDisabled();
      expect(record).toHaveFocus();

      allow();
      // The one button becomes the take's Stop, the keyboard still on it.
      const stop = await screen.findByRole('button', { name: 'Stop recording “I am calm.”' });
      expect(stop).toBe(record);
      expect(stop).toHaveFocus();
      await user.keyboard('{Enter}');
      // Nothing heard by the stand-in microphone: said, and nothing kept.
      await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(NOTHING_HEARD));
      const { startMicrophoneTake } = await import('@web/lib/audio/microphone');
      expect(vi.mocked(startMicrophoneTake)).toHaveBeenCalledTimes(1);
      expect(api.calls.filter(({ method }) => method === 'POST')).toHaveLength(0);
    });

    it('asks before a take is deleted, as elsewhere a made thing is (decision 144): Cancel keeps it, Delete waits while its call runs, a second press sending nothing', async () => {
      let answer = () => {};
      const recordings = [recording(1, 'I am calm.')];
      const { api } = withVoice(recordings, {
        [`DELETE ${API.myVoice}1/`]: () =>
          new Promise<Response>(
            (resolve) =>
              (answer = () => {
                recordings.splice(0, 1);
                resolve(new Response(null, { status: 204 }));
              }),
          ),
      });
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      const remove = await screen.findByRole('button', { name: 'Delete the recording of “I am calm.”' });
      remove.focus();
      await user.keyboard('{Enter}');
      const asking = await screen.findByRole('dialog', { name: 'Delete the recording of “I am calm.”?' });
      expect(asking).toHaveTextContent('It is removed from your account. You can record the message again.');
      await user.click(within(asking).getByRole('button', { name: 'Cancel' }));
      await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(remove).toHaveFocus();
      expect(api.calls.filter(({ method }) => method === 'DELETE')).toHaveLength(0);

      await user.keyboard('{Enter}');
      const confirm = within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' });
      confirm.focus();
      await user.keyboard('{Enter}');
      await vi.waitFor(() => expect(confirm).toHaveAttribute('aria-disabled', 'true'));
      expect(confirm).toHaveFocus();
      await user.keyboard('{Enter}');
      await user.keyboard(' ');
      expect(api.calls.filter(({ method }) => method === 'DELETE')).toHaveLength(1);
      answer();
      await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Record “I am calm.”' })).toHaveFocus());
    });

    it('hands the keyboard on from a deleted recording’s Delete: to its message’s Record, or to the next row’s Delete', async () => {
      const recordings = [
        recording(1, 'I am calm.'),
        recording(3, 'An old message.'),
        recording(4, 'Another old one.'),
      ];
      withVoice(recordings, {
        [`DELETE ${API.myVoice}1/`]: () => {
          recordings.splice(0, 1);
          return new Response(null, { status: 204 });
        },
      });
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      await user.click(await screen.findByText('2 recordings of messages not in this playlist'));

      // A row of a message not in the playlist goes whole: the keyboard goes to the Delete of the row in its place.
      screen.getByRole('button', { name: 'Delete the recording of “An old message.”' }).focus();
      await user.keyboard('{Enter}');
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
      const next = screen.getByRole('button', { name: 'Delete the recording of “Another old one.”' });
      await vi.waitFor(() => expect(next).toHaveFocus());

      // The playlist's message stays, its Listen and Delete going: the keyboard goes to its Record.
      screen.getByRole('button', { name: 'Delete the recording of “I am calm.”' }).focus();
      await user.keyboard('{Enter}');
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('0 of 2 messages recorded')).toBeInTheDocument();
      await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Record “I am calm.”' })).toHaveFocus());
    });

    it('listens to a kept take as the session speaks it: levelled, from a clip of its own, until stopped or ended', async () => {
      // jsdom plays nothing and makes no object URLs: a player and the URLs stand in, as they were used.
      const players: {
        src: string;
        play: ReturnType<typeof vi.fn>;
        pause: ReturnType<typeof vi.fn>;
        onended: (() => void) | null;
      }[] = [];
      vi.stubGlobal(
        'Audio',
        vi.fn(function (this: (typeof players)[number], src: string) {
          Object.assign(this, { src, play: vi.fn(async () => {}), pause: vi.fn(), onended: null });
          players.push(this);
        }),
      );
      const clips = new Map<string, Blob>();
      const revoked: string[] = [];
      vi.stubGlobal(
        'URL',
        Object.assign(URL, {
          createObjectURL: (blob: Blob) => {
            const url = `blob:clip-${clips.size + 1}`;
            clips.set(url, blob);
            return url;
          },
          revokeObjectURL: (url: string) => revoked.push(url),
        }),
      );
      // A take kept before takes were levelled (its file decodes to a clip 4 dB over the speech level),
      // and one whose file cannot be had. Their own created_at: a clip is decoded once per take.
      const { api } = withVoice(
        [
          { ...recording(5, 'I am calm.'), created_at: '2026-11-30T08:00:00Z' },
          { ...recording(6, 'I rest.'), created_at: '2026-11-30T08:00:00Z' },
        ],
        {
          'GET /media/own-voice/9/5.wav': () => new Response(new Uint8Array(48)),
          'GET /media/own-voice/9/6.wav': () => new Response(null, { status: 500 }),
        },
      );
      const user = userEvent.setup();
      const { unmount } = renderWithProviders(<SpokenPanel messages={['I am calm.', 'I rest.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      expect(await screen.findByText('2 of 2 messages recorded')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Listen to “I am calm.”' }));
      const stop = screen.getByRole('button', { name: 'Stop listening to “I am calm.”' });
      expect(stop).toHaveFocus();
      await vi.waitFor(() => expect(players).toHaveLength(1));
      // Not the file as it was kept, but the clip the session speaks: levelled to the one speech level.
      const [first] = players;
      expect(first!.src).toBe('blob:clip-1');
      expect(first!.play).toHaveBeenCalled();
      const played = readWav(await clips.get(first!.src)!.arrayBuffer());
      expect(played.sampleRate).toBe(22_050);
      const levelled = levelTake(new Float32Array([0.1, -0.2]), 22_050);
      expect(Array.from(played.samples)).toEqual(Array.from(levelled).map((sample) => expect.closeTo(sample, 4)));
      expect(20 * Math.log10(speechLevel(played.samples, 22_050))).toBeCloseTo(SPEECH_LEVEL_DB, 1);

      await user.click(stop);
      expect(first!.pause).toHaveBeenCalled();
      expect(revoked).toEqual(['blob:clip-1']);
      expect(screen.getByRole('button', { name: 'Listen to “I am calm.”' })).toHaveFocus();

      // Again: the decoded clip is reused; played to its end, the button says Listen again.
      await user.click(screen.getByRole('button', { name: 'Listen to “I am calm.”' }));
      await vi.waitFor(() => expect(players).toHaveLength(2));
      act(() => players[1]!.onended!());
      expect(screen.getByRole('button', { name: 'Listen to “I am calm.”' })).toHaveFocus();
      expect(revoked).toEqual(['blob:clip-1', 'blob:clip-2']);
      expect(api.calls.filter((call) => call.path === '/media/own-voice/9/5.wav')).toHaveLength(1);

      // A recording that cannot be fetched stops listening and says so: its player, started in the press, is
      // stopped without ever being given a clip.
      await user.click(screen.getByRole('button', { name: 'Listen to “I rest.”' }));
      await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(RECORDING_UNPLAYABLE));
      expect(screen.getByRole('button', { name: 'Listen to “I rest.”' })).toHaveFocus();
      expect(players).toHaveLength(3);
      expect(players[2]!.src).toBeUndefined();
      expect(players[2]!.pause).toHaveBeenCalled();
      expect(revoked).toEqual(['blob:clip-1', 'blob:clip-2']);

      // Leaving the panel while a take plays stops it and frees its clip.
      await user.click(screen.getByRole('button', { name: 'Listen to “I am calm.”' }));
      await vi.waitFor(() => expect(players[3]?.src).toBe('blob:clip-3'));
      unmount();
      expect(players[3]!.pause).toHaveBeenCalled();
      expect(revoked).toEqual(['blob:clip-1', 'blob:clip-2', 'blob:clip-3']);
    });

    it('says the browser did not let a take play, and nothing when a Stop aborts it (decision 075)', async () => {
      // Each play() waits for the test: refused by the browser, or aborted by the pause a Stop makes.
      const players: { play: ReturnType<typeof vi.fn>; pause: ReturnType<typeof vi.fn>; refuse(name: string): void }[] =
        [];
      vi.stubGlobal(
        'Audio',
        vi.fn(function (this: (typeof players)[number]) {
          let refuse = (_name: string) => {};
          const play = vi.fn(
            () => new Promise<void>((_, reject) => (refuse = (name) => reject(new DOMException('No.', name)))),
          );
          const pause = vi.fn(() => refuse('AbortError'));
          Object.assign(this, { play, pause, refuse: (name: string) => refuse(name), onended: null });
          players.push(this);
        }),
      );
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:clip', revokeObjectURL: () => {} }));
      withVoice([{ ...recording(5, 'I am calm.'), created_at: '2026-11-30T09:00:00Z' }], {
        'GET /media/own-voice/9/5.wav': () => new Response(new Uint8Array(48)),
      });
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      const listen = await screen.findByRole('button', { name: 'Listen to “I am calm.”' });

      // A browser that refuses it all the same.
      await user.click(listen);
      await vi.waitFor(() => expect(players).toHaveLength(1));
      act(() => players[0]!.refuse('NotAllowedError'));
      await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(LISTEN_REFUSED));
      expect(screen.getByRole('button', { name: 'Listen to “I am calm.”' })).toBeInTheDocument();

      // Stopped before it began: the play() the pause aborts says nothing.
      vi.mocked(toast.error).mockClear();
      await user.click(screen.getByRole('button', { name: 'Listen to “I am calm.”' }));
      await vi.waitFor(() => expect(players).toHaveLength(2));
      await user.click(screen.getByRole('button', { name: 'Stop listening to “I am calm.”' }));
      expect(players[1]!.pause).toHaveBeenCalled();
      await act(() => Promise.resolve());
      expect(toast.error).not.toHaveBeenCalled();
      expect(screen.getByRole('button', { name: 'Listen to “I am calm.”' })).toBeInTheDocument();
    });

    it('plays a take in Safari, which lets a player play only once a press has played it, though its clip comes after the press (decision 080)', async () => {
      PressOnlyAudio.made = [];
      vi.stubGlobal('Audio', PressOnlyAudio);
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:clip', revokeObjectURL: () => {} }));
      withVoice([{ ...recording(5, 'I am calm.'), created_at: '2026-11-30T10:00:00Z' }], {
        'GET /media/own-voice/9/5.wav': () => new Response(new Uint8Array(48)),
      });
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      await user.click(await screen.findByRole('button', { name: 'Listen to “I am calm.”' }));
      // The clip is fetched and decoded after the press has ended; the player the press started plays it.
      await vi.waitFor(() => expect(PressOnlyAudio.made.at(-1)?.src).toBe('blob:clip'));
      await act(() => Promise.resolve());
      expect(PressOnlyAudio.made).toHaveLength(1);
      expect(PressOnlyAudio.made[0]!.paused).toBe(false);
      expect(toast.error).not.toHaveBeenCalled();
      expect(screen.getByRole('button', { name: 'Stop listening to “I am calm.”' })).toBeInTheDocument();
    });

    it('plays nothing of a take whose clip comes after the person was signed out (decision 085)', async () => {
      PressOnlyAudio.made = [];
      vi.stubGlobal('Audio', PressOnlyAudio);
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:clip', revokeObjectURL: () => {} }));
      sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
      withVoice([{ ...recording(6, 'I am calm.'), created_at: '2026-11-30T11:00:00Z' }], {
        'GET /media/own-voice/9/6.wav': () => {
          sessionStore.clear();
          return new Response(new Uint8Array(48));
        },
      });
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      await user.click(await screen.findByRole('button', { name: 'Listen to “I am calm.”' }));
      expect(await screen.findByRole('button', { name: 'Listen to “I am calm.”' })).toBeInTheDocument();
      await act(() => Promise.resolve());
      expect(PressOnlyAudio.made.map((audio) => [audio.src, audio.paused])).toEqual([['', true]]);
      expect(toast.error).not.toHaveBeenCalled();
    });

    it('says only that the session expired when reading the recordings to speak finds it ended elsewhere', async () => {
      const refused = () => jsonResponse(401, { detail: 'Given token not valid for any token type' });
      let signedOutElsewhere = false;
      withVoice([recording(1, 'I am calm.')], {
        [`GET ${API.myVoice}`]: () =>
          signedOutElsewhere
            ? refused()
            : { recordings: [recording(1, 'I am calm.')], max_recordings: 100, max_seconds: 20 },
        [`POST ${API.tokenRefresh}`]: refused,
      });
      const navigateTo = vi.fn<(to: string) => void>();
      startSessionLifecycle(navigateTo)();
      sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      expect(await screen.findByText('1 of 1 message recorded')).toBeInTheDocument();
      signedOutElsewhere = true;
      await user.click(screen.getByRole('button', { name: 'Speak the playlist' }));
      await vi.waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/login'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(vi.mocked(toast.error).mock.calls).toEqual([[SESSION_EXPIRED_MESSAGE, expect.anything()]]);
      sessionStore.clear();
    });

    it('says when nothing was heard, when the microphone is blocked, and when nothing is recorded', async () => {
      const { kept } = withVoice([]);
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'My own voice (recorded)');
      expect(await screen.findByText('0 of 1 message recorded')).toBeInTheDocument();

      mic.heard = new Array(2000).fill(0.001);
      await user.click(screen.getByRole('button', { name: 'Record “I am calm.”' }));
      await user.click(await screen.findByRole('button', { name: 'Stop recording “I am calm.”' }));
      await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(NOTHING_HEARD));
      expect(kept).toHaveLength(0);

      mic.blocked = true;
      await user.click(await screen.findByRole('button', { name: 'Record “I am calm.”' }));
      await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(MICROPHONE_BLOCKED));
      expect(screen.getByText('Not recorded yet')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Speak the playlist' }));
      await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(NOTHING_RECORDED));
      expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
      // Nothing to speak: the press's prime is given back, and the audio device sleeps again (decision 080).
      expect(fakeSoundEngine.prime).toHaveBeenCalledTimes(1);
      expect(fakeEngine.primed).toBe(0);
    });

    it('below Pro, lists the recordings a Pro plan left, to listen to or delete after asking, and offers no new take', async () => {
      // jsdom plays nothing and makes no object URLs: a player and the URLs stand in.
      const players: { src: string; pause: ReturnType<typeof vi.fn> }[] = [];
      vi.stubGlobal(
        'Audio',
        vi.fn(function (this: (typeof players)[number]) {
          Object.assign(this, { play: vi.fn(async () => {}), pause: vi.fn(), onended: null });
          players.push(this);
        }),
      );
      vi.stubGlobal(
        'URL',
        Object.assign(URL, { createObjectURL: () => 'blob:kept-clip', revokeObjectURL: () => undefined }),
      );
      const recordings = [recording(1, 'I am calm.'), recording(3, 'An old message.')];
      const deleteTake = (id: number) => () => {
        recordings.splice(
          recordings.findIndex((take) => take.id === id),
          1,
        );
        return new Response(null, { status: 204 });
      };
      const api = fakeApi({
        [`GET ${API.plan}`]: () => planStateFor('intermediate'),
        [`GET ${API.myVoice}`]: () => ({ recordings, max_recordings: 100, max_seconds: 20 }),
        [`DELETE ${API.myVoice}1/`]: deleteTake(1),
        [`DELETE ${API.myVoice}3/`]: deleteTake(3),
        'GET /media/own-voice/9/1.wav': () => new Response(new Uint8Array(48)),
      });
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.']} />);

      // Said to be kept, every recording listed, whether the playlist holds its message or not; no new take.
      expect(
        await screen.findByText('Your recordings are kept: listen to them or delete them here.'),
      ).toBeInTheDocument();
      expect(await screen.findByText('An old message.')).toBeInTheDocument();
      expect(screen.getAllByText('Recorded, 1.2 s')).toHaveLength(2);
      expect(screen.getByRole('button', { name: /Spoken affirmations.*Pro/ })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Record/ })).toBeNull();
      expect(screen.queryByLabelText('Voice')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Speak the playlist' })).toBeNull();

      // Listened to as on Pro: the clip the session would speak, until stopped.
      await user.click(screen.getByRole('button', { name: 'Listen to “I am calm.”' }));
      await vi.waitFor(() => expect(players[0]?.src).toBe('blob:kept-clip'));
      await user.click(screen.getByRole('button', { name: 'Stop listening to “I am calm.”' }));
      expect(players[0]!.pause).toHaveBeenCalled();
      expect(screen.getByRole('button', { name: 'Listen to “I am calm.”' })).toHaveFocus();

      // Deleting asks first, as nothing brings a recording back below Pro; Cancel sends nothing.
      await user.click(screen.getByRole('button', { name: 'Delete the recording of “An old message.”' }));
      const asking = screen.getByRole('dialog', { name: 'Delete the recording of “An old message.”?' });
      expect(asking).toHaveTextContent('Recording your voice again is part of the Pro plan.');
      await user.click(within(asking).getByRole('button', { name: 'Cancel' }));
      expect(api.calls.filter(({ method }) => method === 'DELETE')).toHaveLength(0);

      // Confirmed, it goes, and the keyboard goes to the Delete of the row left.
      await user.click(screen.getByRole('button', { name: 'Delete the recording of “An old message.”' }));
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      await vi.waitFor(() => expect(screen.queryByText('An old message.')).toBeNull());
      expect(toast.success).toHaveBeenCalledWith('Recording deleted.');
      await vi.waitFor(() =>
        expect(screen.getByRole('button', { name: 'Delete the recording of “I am calm.”' })).toHaveFocus(),
      );

      // The last one gone, the line goes with the list, and the keyboard to the plan's lock.
      await user.keyboard('{Enter}');
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      await vi.waitFor(() => expect(screen.queryByText(/recordings are kept/)).toBeNull());
      await vi.waitFor(() => expect(screen.getByRole('button', { name: /Spoken affirmations.*Pro/ })).toHaveFocus());
      expect(api.calls.filter(({ method }) => method === 'DELETE').map(({ path }) => path)).toEqual([
        `${API.myVoice}3/`,
        `${API.myVoice}1/`,
      ]);
    });

    it('on Pro, reads no recordings until the own voice is chosen, and shows no kept list', async () => {
      const { api } = withVoice([recording(1, 'I am calm.')]);
      const user = userEvent.setup();
      renderWithProviders(<SpokenPanel messages={['I am calm.']} />);
      await user.selectOptions(await screen.findByLabelText('Voice'), 'en-gb');
      expect(api.calls.filter(({ path }) => path === API.myVoice)).toHaveLength(0);
      await user.selectOptions(screen.getByLabelText('Voice'), 'My own voice (recorded)');
      expect(await screen.findByText('1 of 1 message recorded')).toBeInTheDocument();
      expect(screen.queryByText(/recordings are kept/)).toBeNull();
    });
  });
});
