import {
  clampGain,
  FADE_SECONDS,
  fadeOutGain,
  fadeOutPoints,
  GLIDE_SECONDS,
  headroomFor,
  loopBounds,
  planSleepTimer,
  type SleepTimerPlan,
  voiceGain,
} from './mixer';
import { noiseLoop, type NoiseColour } from './noise';
import type { SpokenClip } from './voice-loop';

// The portal's one audio engine, on the Web Audio API with no React inside. A session is a set of
// layers, each with its own gain, summed into one master:
//
//   layer sources → layer gain ─┐
//   layer sources → layer gain ─┼→ headroom (the limiter's gain law) → volume → sleep timer → envelope → out
//   layer sources → layer gain ─┘
//
// headroom = 1 / max(1, Σ layer gains), and every source peaks at most at full scale, so the sum
// never passes the chosen volume (docs/decisions/016-one-audio-engine-of-layers.md). Start, stop,
// pause, every change and the timer's end are ramps: nothing ever steps.

export type LayerId = 'track' | 'binaural' | 'isochronic' | 'noise' | 'voice';

export type LayerSource =
  | { kind: 'binaural'; leftHz: number; rightHz: number }
  /** A carrier whose loudness pulses smoothly (raised cosine) at `pulseHz`: heard on speakers too. */
  | { kind: 'isochronic'; carrierHz: number; pulseHz: number }
  | { kind: 'noise'; colour: NoiseColour }
  /** A library track, looped sample-accurately from its decoded buffer. */
  | { kind: 'track'; key: string; title: string; url: string }
  /**
   * Spoken affirmations: the messages' synthesised speech with pauses, as one loop (voice-loop.ts),
   * played `level` dB under the loudest other layer (0 = as loud; its own gain when alone).
   */
  | {
      kind: 'voice';
      loop: SpokenClip;
      messages: number;
      level: number;
      /** How the loop was spoken, so a saved subliminal can speak it again the same way. */
      spoken?: { voice: string; rate: number; pause: number };
    };

export interface LayerState {
  id: LayerId;
  source: LayerSource;
  gain: number;
  /** A track is 'loading' while it is fetched and decoded. */
  status: 'loading' | 'ready';
}

export interface SleepTimerState extends SleepTimerPlan {
  /** As chosen, in real seconds (before any test time scale). */
  seconds: number;
  fadeSeconds: number;
}

export interface SoundEngineState {
  status: 'stopped' | 'playing' | 'paused';
  /**
   * Paused because the browser would not let the sound start (no gesture of the person's yet): the play
   * button's press starts it (docs/decisions/072-sound-the-browser-refuses-waits-paused.md).
   */
  refused: boolean;
  /**
   * A start or a resume still waiting for the browser to run the sound, past STARTING_SHOWN_MS: controls say
   * "Starting…" rather than that it plays (docs/decisions/075-a-start-inside-the-press-that-asked-for-it.md).
   */
  starting: boolean;
  /** The master volume, 0–1: nothing is ever louder. */
  volume: number;
  layers: readonly LayerState[];
  timer: SleepTimerState | null;
  /**
   * How the last session that ended came to its end (stopped, or timed out: the session screen stops with it), and
   * its track's key for the list to show (null without a track); null when its one track never played.
   */
  ended: { key: string | null; by: 'stop' | 'timer' } | null;
}

export interface SoundEngineOptions {
  /** Fetches a track's bytes; the default is fetch(). */
  load?: (url: string) => Promise<ArrayBuffer>;
  /** Multiplies the sleep timer's minutes (an e2e hook to shorten time; 1 in the app). */
  timeScale?: number;
  /** The master volume before anyone moves it. */
  volume?: number;
  /**
   * Plays as if the session had already run this many seconds: every source starts where it would
   * then be (same phase, same place in its loop) and nothing fades in. The export renders a long
   * session as chunks this way, each continuing the last (docs/decisions/019-…).
   */
  offset?: number;
  /** Buffers to share with other engines; the export's chunks share one set (see SoundBuffers). */
  buffers?: SoundBuffers;
}

/**
 * What an engine decodes or generates once and keeps: usable by other engines whose contexts run at
 * the same rate, as an AudioBuffer belongs to no context.
 */
export interface SoundBuffers {
  /** Decoded tracks by URL (the last few). */
  tracks: Map<string, Promise<AudioBuffer>>;
  /** Noise loops by colour. */
  noise: Map<NoiseColour, AudioBuffer>;
}

type ContextSource = BaseAudioContext | (() => BaseAudioContext);

interface Voice {
  nodes: AudioScheduledSourceNode[];
  output: AudioNode;
  /** Where each looping buffer source starts in its buffer (seconds). */
  offsets?: number[];
}

interface TrackVoice {
  source: AudioBufferSourceNode;
  gain: GainNode;
  /** Engine time at which buffer offset `offset` played. */
  startedAt: number;
  offset: number;
}

interface Layer {
  state: LayerState;
  gain: GainNode;
  voice: Voice | null;
  /** Tracks: the decoded buffer, its loop and the current voice (seek replaces it). */
  track?: { buffer: AudioBuffer; loopStart: number; loopEnd: number; voice: TrackVoice };
  /** Bumped when the layer is replaced, so a slow decode does not start a stale track. */
  token: number;
}

interface Session {
  headroom: GainNode;
  volume: GainNode;
  timer: GainNode;
  envelope: GainNode;
  layers: Map<LayerId, Layer>;
}

/** The state of an engine with nothing playing, as it starts. */
export const STOPPED_ENGINE_STATE: SoundEngineState = {
  status: 'stopped',
  refused: false,
  starting: false,
  volume: 0.8,
  layers: [],
  timer: null,
  ended: null,
};
/**
 * How long a start waits for the context to run before it counts as refused: a browser that refuses
 * leaves resume() pending (Chromium) or rejects it (Safari); one that allows runs within milliseconds.
 */
export const START_WAIT_MS = 500;
/**
 * How long a start waits for the context before controls say "Starting…": a browser that allows the sound
 * runs it in well under this (0.1 ms in Chromium once a click has been made), so the usual start shows no flash.
 */
export const STARTING_SHOWN_MS = 150;
/** How long a context primed for a start that neither came nor was given up (`prime`) runs before it sleeps again. */
export const PRIME_IDLE_MS = 10_000;
const LAYER_ORDER: readonly LayerId[] = ['track', 'binaural', 'isochronic', 'noise', 'voice'];

// What every parameter the engine moves is scheduled to be, as a function of engine time. Reading
// AudioParam.value instead is unreliable: an OfflineAudioContext suspended mid-render reported a
// finished ramp's start value, and the next ramp then began with a step (a click, and the limiter
// overshooting), which the offline render test caught.
const schedules = new WeakMap<AudioParam, (time: number) => number>();

const valueAt = (param: AudioParam, time: number) => schedules.get(param)?.(time) ?? param.defaultValue;

function linear(t0: number, v0: number, t1: number, v1: number) {
  return (time: number) => (time <= t0 ? v0 : time >= t1 ? v1 : v0 + ((v1 - v0) * (time - t0)) / (t1 - t0));
}

/** Sets a parameter's value from `time` on. */
function setAt(param: AudioParam, value: number, time: number) {
  param.cancelScheduledValues(time);
  param.setValueAtTime(value, time);
  schedules.set(param, () => value);
}

/**
 * Holds the parameter from `from` where it is then, and from `at` (default: at once) ramps in a
 * straight line to `target` over `seconds`: whatever ramp was under way, nothing steps.
 */
function rampTo(param: AudioParam, target: number, from: number, at = from, seconds = FADE_SECONDS) {
  const current = valueAt(param, from);
  param.cancelScheduledValues(from);
  param.setValueAtTime(current, from);
  if (at > from) param.setValueAtTime(current, at);
  param.linearRampToValueAtTime(target, at + seconds);
  schedules.set(param, linear(at, current, at + seconds, target));
}

/** Frequency changes while playing glide (no zipper noise, no jump in pitch). */
function glide(param: AudioParam, target: number, now: number) {
  rampTo(param, target, now, now, GLIDE_SECONDS);
}

/** Whether a layer makes sound: a generated one at once, a track once decoded and started. */
const sounding = (layer: Layer) => Boolean(layer.voice || layer.track);

function isRealtime(context: BaseAudioContext): context is AudioContext {
  return typeof AudioContext !== 'undefined' && context instanceof AudioContext;
}

export class SoundEngine {
  private context: BaseAudioContext | null = null;
  private session: Session | null = null;
  private state: SoundEngineState;
  private readonly listeners = new Set<() => void>();
  private readonly buffers: SoundBuffers;
  private tokens = 0;
  /** Asks to run the context still unanswered (`run`): the context's own changes meanwhile are theirs. */
  private starting = 0;
  /** Primes not yet released (`prime`): while one waits for its start, the context is left running. */
  private primes = 0;
  /** Primes made so far: a refused start the context runs for afterwards runs for that press's start (`run`). */
  private primesMade = 0;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private readonly load: (url: string) => Promise<ArrayBuffer>;
  readonly timeScale: number;
  private readonly offset: number;

  /**
   * A context, or a factory for one. The factory runs on the first start, i.e. inside the
   * person's click, which browsers require before audio may play.
   */
  constructor(
    private readonly contextSource: ContextSource,
    options: SoundEngineOptions = {},
  ) {
    this.load =
      options.load ??
      (async (url) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        return response.arrayBuffer();
      });
    this.timeScale = options.timeScale && options.timeScale > 0 ? options.timeScale : 1;
    this.offset = options.offset && options.offset > 0 && Number.isFinite(options.offset) ? options.offset : 0;
    this.buffers = options.buffers ?? { tracks: new Map(), noise: new Map() };
    this.state = { ...STOPPED_ENGINE_STATE, volume: clampGain(options.volume ?? STOPPED_ENGINE_STATE.volume) };
  }

  getState = (): SoundEngineState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Engine-clock seconds (the context's; frozen while paused). */
  now(): number {
    return this.context?.currentTime ?? 0;
  }

  /** Seconds until the sleep timer ends everything, or null when there is none. */
  remaining(): number | null {
    const timer = this.state.timer;
    return timer ? Math.max(0, (timer.endsAt - this.now()) / this.timeScale) : null;
  }

  /** Whether the sleep timer's fade has begun. */
  fading(): boolean {
    const timer = this.state.timer;
    return timer !== null && this.now() >= timer.fadeStartsAt;
  }

  /** Where the track layer is in its loop, in seconds of the track, and the loop's length. */
  trackPosition(): { position: number; duration: number } | null {
    const track = this.session?.layers.get('track')?.track;
    if (!track) return null;
    const rate = track.buffer.sampleRate;
    const duration = (track.loopEnd - track.loopStart) / rate;
    const played = Math.max(0, this.now() - track.voice.startedAt) + track.voice.offset;
    return { position: played % duration, duration };
  }

  /**
   * Makes the context and asks it to run, synchronously, as the first thing a control that starts sound
   * after an await does in its click handler. Safari lets a context start only within the person's gesture,
   * and a start that comes after calls to the server (a saved sound's Open, a share link's "Play it now", a
   * program's day) comes too late; a context started within the gesture may run again without one, so the
   * later start finds it running.
   *
   * Returns the release, which the control calls once its start has come or will not (it failed, or there
   * was nothing to play): the context goes back to sleep unless sound plays, another prime waits or a start
   * is under way, so a paused session stays paused with its audio device asleep. A prime never released
   * (a start that hangs) is released after PRIME_IDLE_MS
   * (docs/decisions/080-a-primed-sound-sleeps-when-nothing-plays.md). A refused session waiting for the context
   * is left paused by the run a press brings about: its play button, or the press's own start, plays it
   * (docs/decisions/085-a-start-belongs-to-its-press-and-its-portal-visit.md).
   */
  prime(): () => void {
    const context = this.ensureContext();
    if (!isRealtime(context) || (context.state === 'running' && this.state.status === 'playing')) return () => {};
    this.primes++;
    this.primesMade++;
    let released = false;
    // Chromium may answer the resume after the start was given up (released): the context then sleeps again.
    if (context.state !== 'running')
      context.resume().then(
        () => released && this.sleepWhenIdle(context),
        () => undefined,
      );
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(idle);
      this.primes--;
      this.sleepWhenIdle(context);
    };
    const idle = setTimeout(release, PRIME_IDLE_MS);
    return release;
  }

  /**
   * Adds a layer, or replaces the one with the same id (a new track, another noise colour...).
   * `exclusive` first removes every other layer (one sound at a time). Starts the session when
   * stopped, resumes it when paused. Rejects when the track cannot load; a start the browser refuses
   * leaves the session paused, its layers ready (`run`).
   */
  async setLayer(id: LayerId, source: LayerSource, gain: number, options: { exclusive?: boolean } = {}): Promise<void> {
    const context = this.ensureContext();
    const session = this.session ?? this.startSession(context);
    const resumed = this.state.status === 'paused' ? this.resumeSession(context) : null;
    if (options.exclusive) {
      for (const [other, layer] of session.layers) {
        if (other === id) continue;
        session.layers.delete(other);
        this.releaseLayer(layer, context.currentTime);
      }
    }

    const previous = session.layers.get(id);
    if (previous) this.releaseLayer(previous, context.currentTime);
    const layer: Layer = {
      state: { id, source, gain: clampGain(gain), status: source.kind === 'track' ? 'loading' : 'ready' },
      gain: context.createGain(),
      voice: null,
      token: ++this.tokens,
    };
    setAt(layer.gain.gain, 0, context.currentTime);
    layer.gain.connect(session.headroom);
    session.layers.set(id, layer);
    // Generated sounds start at once (an offline render may already be running); a track once decoded.
    if (source.kind !== 'track') {
      layer.voice = this.createVoice(context, source);
      layer.voice.output.connect(layer.gain);
      layer.voice.nodes.forEach((node, index) =>
        node instanceof AudioBufferSourceNode
          ? node.start(context.currentTime, layer.voice?.offsets?.[index] ?? 0)
          : node.start(context.currentTime),
      );
      this.applyGains(session, context.currentTime);
    }
    this.publish();

    // A track is fetched and decoded while the context is asked to run: a context the browser keeps
    // suspended still decodes, and the track then waits, paused, for the play button.
    const running = resumed ?? this.run(context, session);
    try {
      if (source.kind !== 'track') await running;
      else {
        const buffer = await this.decode(context, source.url);
        if (session.layers.get(id) !== layer || this.session !== session) return;
        this.startTrack(context, layer, buffer, this.offset);
        layer.state = { ...layer.state, status: 'ready' };
        this.applyGains(session, context.currentTime);
        this.publish();
      }
    } catch (error) {
      // A track that never played did not end: its card goes back to idle.
      if (session.layers.get(id) === layer) this.removeLayer(id, { neverPlayed: true });
      throw error;
    }
  }

  /** Fades a layer out and releases it; the session stops with its last layer. */
  removeLayer(id: LayerId, options: { neverPlayed?: boolean } = {}): void {
    const session = this.session;
    const layer = session?.layers.get(id);
    if (!session || !layer || !this.context) return;
    if (session.layers.size === 1) {
      this.stop('stop', options);
      return;
    }
    session.layers.delete(id);
    this.releaseLayer(layer, this.context.currentTime);
    this.applyGains(session, this.context.currentTime + FADE_SECONDS);
    this.publish();
  }

  /** Glides a layer's gain (0–1). */
  setLayerGain(id: LayerId, gain: number): void {
    const layer = this.session?.layers.get(id);
    if (!layer || !this.session || !this.context) return;
    layer.state = { ...layer.state, gain: clampGain(gain) };
    this.applyGains(this.session, this.context.currentTime);
    this.publish();
  }

  /** Glides a binaural or isochronic layer to new frequencies. */
  retune(
    id: 'binaural' | 'isochronic',
    changes: Partial<{ leftHz: number; rightHz: number; carrierHz: number; pulseHz: number }>,
  ) {
    const layer = this.session?.layers.get(id);
    if (!layer?.voice || !this.context) return;
    const now = this.context.currentTime;
    const [first, second] = layer.voice.nodes as OscillatorNode[];
    const source = layer.state.source;
    if (source.kind === 'binaural') {
      const next = { ...source, ...pick(changes, ['leftHz', 'rightHz']) };
      if (changes.leftHz !== undefined && first) glide(first.frequency, next.leftHz, now);
      if (changes.rightHz !== undefined && second) glide(second.frequency, next.rightHz, now);
      layer.state = { ...layer.state, source: next };
    } else if (source.kind === 'isochronic') {
      const next = { ...source, ...pick(changes, ['carrierHz', 'pulseHz']) };
      if (changes.carrierHz !== undefined && first) glide(first.frequency, next.carrierHz, now);
      if (changes.pulseHz !== undefined && second) glide(second.frequency, next.pulseHz, now);
      layer.state = { ...layer.state, source: next };
    }
    this.publish();
  }

  /** Moves the track layer to `seconds` into its loop, crossfading so the jump does not click. */
  seekTrack(seconds: number): void {
    const layer = this.session?.layers.get('track');
    const context = this.context;
    if (!layer?.track || !context) return;
    const { buffer, loopStart, loopEnd } = layer.track;
    const duration = (loopEnd - loopStart) / buffer.sampleRate;
    const offset = Math.min(Math.max(0, Number.isFinite(seconds) ? seconds : 0), duration - 1 / buffer.sampleRate);
    const old = layer.track.voice;
    const now = context.currentTime;
    rampTo(old.gain.gain, 0, now);
    old.source.stop(now + FADE_SECONDS + 0.02);
    old.source.onended = () => old.gain.disconnect();
    this.startTrack(context, layer, buffer, offset, true);
    this.publish();
  }

  /** Moves the voice layer's subliminal level (dB under the loudest other layer), gliding. */
  setVoiceLevel(level: number): void {
    const layer = this.session?.layers.get('voice');
    if (!layer || layer.state.source.kind !== 'voice' || !this.session || !this.context) return;
    layer.state = { ...layer.state, source: { ...layer.state.source, level } };
    this.applyGains(this.session, this.context.currentTime);
    this.publish();
  }

  /** Glides the master volume (0–1). */
  setVolume(volume: number): void {
    const next = clampGain(volume);
    this.state = { ...this.state, volume: next };
    if (this.session && this.context) rampTo(this.session.volume.gain, next, this.context.currentTime);
    this.publish();
  }

  /**
   * Sets the sleep timer: after `seconds` everything has faded out over `fadeSeconds` (≤ 10 min)
   * and stops; null clears it (the sound comes back up if it was fading).
   */
  setSleepTimer(seconds: number | null, fadeSeconds = 60): void {
    const session = this.session;
    const context = this.context;
    if (!session || !context) return;
    const now = context.currentTime;
    const param = session.timer.gain;
    if (seconds === null) {
      rampTo(param, 1, now, now, 0.5);
      this.state = { ...this.state, timer: null };
    } else {
      const plan = planSleepTimer(now, seconds * this.timeScale, fadeSeconds * this.timeScale);
      // Back to full first (if a previous fade had begun), then the whole fade as short straight ramps.
      const upBy = Math.min(now + 0.5, plan.fadeStartsAt);
      rampTo(param, 1, now, now, upBy - now);
      const up = schedules.get(param)!;
      if (plan.fadeStartsAt > upBy) param.setValueAtTime(1, plan.fadeStartsAt);
      const fade = plan.endsAt - plan.fadeStartsAt;
      for (const [time, gain] of fadeOutPoints(plan.fadeStartsAt, fade).slice(1)) {
        if (time > upBy) param.linearRampToValueAtTime(gain, time);
      }
      schedules.set(param, (time) =>
        time < plan.fadeStartsAt || fade <= 0
          ? time >= plan.endsAt
            ? 0
            : up(time)
          : fadeOutGain((time - plan.fadeStartsAt) / fade),
      );
      // The sound reaches silence on the audio clock by itself; tick() then releases the session.
      this.state = { ...this.state, timer: { ...plan, seconds, fadeSeconds: Math.min(fadeSeconds, seconds) } };
    }
    this.publish();
  }

  /** Fades out and suspends everything, keeping each layer where it is. */
  pause(): void {
    const session = this.session;
    const context = this.context;
    if (!session || !context || this.state.status !== 'playing') return;
    rampTo(session.envelope.gain, 0, context.currentTime);
    this.state = { ...this.state, status: 'paused', starting: false };
    this.publish();
    if (isRealtime(context)) {
      setTimeout(
        () => {
          // A press's prime meanwhile wants the context running for the start it waits for.
          if (this.session === session && this.state.status === 'paused' && this.primes === 0) void context.suspend();
        },
        (FADE_SECONDS + 0.03) * 1000,
      );
    }
  }

  /** Comes back from a pause with a fade-in; refused again, it stays paused (never rejects). */
  async resume(): Promise<void> {
    if (!this.session || !this.context || this.state.status !== 'paused') return;
    await this.resumeSession(this.context);
  }

  /** Fades out and releases the whole session; a no-op when nothing plays. */
  stop(by: 'stop' | 'timer' = 'stop', { neverPlayed = false }: { neverPlayed?: boolean } = {}): void {
    const session = this.session;
    const context = this.context;
    if (!session || !context) return;
    this.session = null;
    const now = context.currentTime;
    rampTo(session.envelope.gain, 0, now);
    const end = now + FADE_SECONDS + 0.02;
    for (const layer of session.layers.values()) this.stopSourcesAt(layer, end);
    const track = session.layers.get('track')?.state.source;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    this.state = {
      ...this.state,
      status: 'stopped',
      refused: false,
      starting: false,
      layers: [],
      timer: null,
      ended: neverPlayed ? null : { key: track?.kind === 'track' ? track.key : null, by },
    };
    this.publish();
    if (isRealtime(context)) {
      // Runs out the paused sources' scheduled stops; a browser that refuses (no gesture) has nothing to release.
      if (context.state === 'suspended') context.resume().catch(() => undefined);
      setTimeout(
        () => {
          session.envelope.disconnect();
          // Idle: let the audio device sleep (a start resumes it) unless a new session or a prime's start began.
          this.sleepWhenIdle(context);
        },
        (FADE_SECONDS + 0.1) * 1000,
      );
    }
  }

  /** Lets the audio device sleep when nothing plays, no prime waits for its start and no start is under way. */
  private sleepWhenIdle(context: AudioContext) {
    const idle = this.state.status !== 'playing' && this.primes === 0 && this.starting === 0;
    if (idle && context.state === 'running') void context.suspend();
  }

  private ensureContext(): BaseAudioContext {
    if (!this.context) {
      this.context = typeof this.contextSource === 'function' ? this.contextSource() : this.contextSource;
      if (isRealtime(this.context)) this.followContext(this.context);
    }
    return this.context;
  }

  private startSession(context: BaseAudioContext): Session {
    const now = context.currentTime;
    const node = (value: number) => {
      const gain = context.createGain();
      setAt(gain.gain, value, now);
      return gain;
    };
    const session: Session = {
      headroom: node(1),
      volume: node(this.state.volume),
      timer: node(1),
      envelope: node(0),
      layers: new Map(),
    };
    if (this.offset) setAt(session.envelope.gain, 1, now);
    else rampTo(session.envelope.gain, 1, now);
    session.headroom
      .connect(session.volume)
      .connect(session.timer)
      .connect(session.envelope)
      .connect(context.destination);
    this.session = session;
    this.state = { ...this.state, status: 'playing', refused: false, timer: null, ended: null };
    if (isRealtime(context)) this.ticker = setInterval(() => this.tick(), 250);
    return session;
  }

  private async resumeSession(context: BaseAudioContext) {
    const session = this.session!;
    this.state = { ...this.state, status: 'playing', refused: false };
    rampTo(session.envelope.gain, 1, context.currentTime);
    this.publish();
    await this.run(context, session);
  }

  /**
   * Asks a realtime context to run, and settles once it does or the browser has refused: resume()
   * rejected (Safari: NotAllowedError), or still pending after START_WAIT_MS with the context suspended
   * (Chromium, before any gesture of the person's on the page). Refused, the session pauses, so no
   * control says it plays while nothing sounds, and its play button (a gesture) starts it. A refusal
   * that was only slowness plays on once the context runs, unless a press has primed since: the context then runs for
   * that press's start, which may not come (decision 085). Never rejects.
   */
  private run(context: BaseAudioContext, session: Session): Promise<void> {
    if (!isRealtime(context)) return Promise.resolve();
    this.starting++;
    const primesBefore = this.primesMade;
    return new Promise<void>((settle) => {
      let refused = false;
      const answered = () => {
        clearTimeout(shown);
        clearTimeout(timer);
        this.showStarting(false);
      };
      const refuse = () => {
        refused = true;
        answered();
        this.refuse(session);
        settle();
      };
      // Only a start that is slow to be answered says so: the usual one runs long before this.
      const shown = setTimeout(() => {
        if (context.state !== 'running' && this.session === session) this.showStarting(true);
      }, STARTING_SHOWN_MS);
      const timer = setTimeout(() => (context.state === 'running' ? (answered(), settle()) : refuse()), START_WAIT_MS);
      context.resume().then(
        () => {
          answered();
          const slow = refused && this.primesMade === primesBefore;
          if (slow && this.session === session && this.state.refused) void this.resumeSession(context);
          settle();
          // Answered after the run gave up: a session stopped meanwhile leaves the device nothing to play.
          if (refused) this.sleepWhenIdle(context);
        },
        () => {
          if (!refused) refuse();
        },
      );
    }).finally(() => {
      this.starting--;
      // A session stopped while its start waited: the stop could not put the device to sleep under a start.
      this.sleepWhenIdle(context);
    });
  }

  private showStarting(starting: boolean) {
    if (this.state.starting === starting || (starting && this.state.status !== 'playing')) return;
    this.state = { ...this.state, starting };
    this.publish();
  }

  /** The browser refused (or stopped) the sound while the session plays: it shows paused, as it is. */
  private refuse(session: Session, refused = true) {
    const context = this.context;
    if (this.session !== session || this.state.status !== 'playing' || !context) return;
    rampTo(session.envelope.gain, 0, context.currentTime);
    this.state = { ...this.state, status: 'paused', refused, starting: false };
    this.publish();
  }

  /**
   * The system stopping the context while it plays (iOS on a locked screen or a call: 'suspended' or
   * 'interrupted') pauses the session; coming back, its play button starts it again.
   */
  private followContext(context: AudioContext) {
    context.addEventListener('statechange', () => {
      if (this.session && this.starting === 0 && context.state !== 'running' && context.state !== 'closed') {
        this.refuse(this.session, false);
      }
    });
  }

  /**
   * The realtime clock's housekeeping: a finished sleep timer ends the session. Nothing is published
   * while it runs, as only time passes: clocks read the time left through useEngineClock.
   */
  private tick() {
    const timer = this.state.timer;
    if (timer && this.now() >= timer.endsAt) this.stop('timer');
  }

  /**
   * Sets every layer's gain and the headroom so that at no instant does the sum pass full scale:
   * when the headroom must fall it falls first and the layers follow; when it may rise, the layers
   * change first and it follows.
   */
  private applyGains(session: Session, from: number) {
    const layers = [...session.layers.values()];
    const others = layers.filter((layer) => sounding(layer) && layer.state.id !== 'voice').map((l) => l.state.gain);
    const gainOf = (layer: Layer) => {
      const source = layer.state.source;
      return source.kind === 'voice' ? voiceGain(layer.state.gain, others, source.level) : layer.state.gain;
    };
    const target = headroomFor(layers.map((layer) => (sounding(layer) ? gainOf(layer) : 0)));
    if (this.offset && from === 0) {
      // A continued render (the export's later chunks) starts at its levels, with no fade.
      setAt(session.headroom.gain, target, from);
      for (const layer of layers) if (sounding(layer)) setAt(layer.gain.gain, gainOf(layer), from);
      return;
    }
    const current = valueAt(session.headroom.gain, from);
    const headroomFirst = target < current;
    const later = from + FADE_SECONDS;
    rampTo(session.headroom.gain, target, from, headroomFirst ? from : later);
    for (const layer of layers) {
      if (sounding(layer)) rampTo(layer.gain.gain, gainOf(layer), from, headroomFirst ? later : from);
    }
  }

  private releaseLayer(layer: Layer, now: number) {
    rampTo(layer.gain.gain, 0, now);
    this.stopSourcesAt(layer, now + FADE_SECONDS + 0.02);
    const last = layer.voice?.nodes[0] ?? layer.track?.voice.source;
    if (last) last.onended = () => layer.gain.disconnect();
  }

  private stopSourcesAt(layer: Layer, time: number) {
    for (const node of layer.voice?.nodes ?? []) node.stop(time);
    layer.track?.voice.source.stop(time);
  }

  private createVoice(context: BaseAudioContext, source: Exclude<LayerSource, { kind: 'track' }>): Voice {
    const now = context.currentTime;
    const oscillator = (hz: number) => {
      const node = context.createOscillator();
      node.type = 'sine';
      if (this.offset) {
        // sin(2πf·(t + offset)): the phase the tone would have reached, as a one-harmonic wave.
        const phase = 2 * Math.PI * ((hz * this.offset) % 1);
        const real = new Float32Array([0, Math.sin(phase)]);
        const imag = new Float32Array([0, Math.cos(phase)]);
        node.setPeriodicWave(context.createPeriodicWave(real, imag, { disableNormalization: true }));
      }
      setAt(node.frequency, hz, now);
      return node;
    };
    if (source.kind === 'binaural') {
      // A StereoPannerNode at ±1 puts the whole of a mono input in one ear (equal-power law:
      // cos 0 = 1, cos π/2 = 0), so each ear peaks exactly at the layer's gain.
      const merger = context.createGain();
      const ears = ([source.leftHz, source.rightHz] as const).map((hz, index) => {
        const ear = oscillator(hz);
        const panner = context.createStereoPanner();
        panner.pan.setValueAtTime(index === 0 ? -1 : 1, now);
        ear.connect(panner).connect(merger);
        return ear;
      });
      return { nodes: ears, output: merger };
    }
    if (source.kind === 'isochronic') {
      // carrier × (0.5 − 0.5 cos 2πft): smooth pulses from silence to full, no edge to click.
      const carrier = oscillator(source.carrierHz);
      const pulse = oscillator(source.pulseHz);
      const amplitude = context.createGain();
      amplitude.gain.setValueAtTime(0.5, now);
      const depth = context.createGain();
      depth.gain.setValueAtTime(0.5, now);
      pulse.connect(depth).connect(amplitude.gain);
      carrier.connect(amplitude);
      return { nodes: [carrier, pulse], output: amplitude };
    }
    const node = context.createBufferSource();
    if (source.kind === 'voice') {
      const { samples, sampleRate } = source.loop;
      const buffer = context.createBuffer(1, Math.max(1, samples.length), sampleRate);
      buffer.copyToChannel(samples, 0);
      node.buffer = buffer;
    } else {
      node.buffer = this.noiseBuffer(context, source.colour);
    }
    node.loop = true;
    return { nodes: [node], output: node, offsets: [this.offset % node.buffer.duration] };
  }

  /** Eight seconds of a colour at the context's rate, peak 1, generated once per colour. */
  noiseBuffer(context: BaseAudioContext, colour: NoiseColour): AudioBuffer {
    const cached = this.buffers.noise.get(colour);
    if (cached && cached.sampleRate === context.sampleRate) return cached;
    const frames = Math.round(context.sampleRate * 8);
    const buffer = context.createBuffer(1, frames, context.sampleRate);
    buffer.copyToChannel(noiseLoop(colour, frames) as Float32Array<ArrayBuffer>, 0);
    this.buffers.noise.set(colour, buffer);
    return buffer;
  }

  private decode(context: BaseAudioContext, url: string): Promise<AudioBuffer> {
    const tracks = this.buffers.tracks;
    let buffer = tracks.get(url);
    if (!buffer) {
      buffer = this.load(url).then((bytes) => context.decodeAudioData(bytes));
      buffer.catch(() => tracks.delete(url));
      tracks.set(url, buffer);
      // Keep the last few decoded tracks (a minute of audio is ~10 MB as floats).
      if (tracks.size > 4) tracks.delete(tracks.keys().next().value!);
    }
    return buffer;
  }

  /** Starts the track `seconds` of playing into its loop (wrapping round the loop as it would have). */
  private startTrack(context: BaseAudioContext, layer: Layer, buffer: AudioBuffer, seconds: number, fadeIn = false) {
    const { start, end } =
      layer.track?.buffer === buffer
        ? { start: layer.track.loopStart, end: layer.track.loopEnd }
        : loopBounds(Array.from({ length: buffer.numberOfChannels }, (_, index) => buffer.getChannelData(index)));
    // Modulo the loop, not the buffer: the silence trimmed off its ends never plays.
    const offset = end > start ? seconds % ((end - start) / buffer.sampleRate) : 0;
    const now = context.currentTime;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.loop = true;
    source.loopStart = start / buffer.sampleRate;
    source.loopEnd = end / buffer.sampleRate;
    const gain = context.createGain();
    setAt(gain.gain, fadeIn ? 0 : 1, now);
    if (fadeIn) rampTo(gain.gain, 1, now);
    source.connect(gain).connect(layer.gain);
    source.start(now, start / buffer.sampleRate + offset);
    layer.track = { buffer, loopStart: start, loopEnd: end, voice: { source, gain, startedAt: now, offset } };
  }

  private publish() {
    const layers = this.session
      ? LAYER_ORDER.flatMap((id) => {
          const layer = this.session!.layers.get(id);
          return layer ? [layer.state] : [];
        })
      : [];
    this.state = { ...this.state, layers };
    for (const listener of this.listeners) listener();
  }
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
