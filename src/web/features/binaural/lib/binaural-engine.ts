import { clampHz, clampSettings, clampVolume, type BinauralSettings } from '@shared/binaural';

// The binaural beats engine on the Web Audio API, with no React inside:
//   left sine → StereoPanner(−1) ─┐
//                                  ├→ master gain → destination
//   right sine → StereoPanner(+1) ─┘
// A StereoPannerNode at ±1 puts the whole of a mono input in one channel (equal-power law:
// cos 0 = 1, cos π/2 = 0), so each ear's amplitude is exactly the master gain = the volume.

/** Start and stop are linear gain ramps from and to exactly 0: no click, and they end on time. */
export const FADE_SECONDS = 0.08;
/** Changes while playing glide towards their target (≈ 95 % after 3 × this), no zipper noise. */
export const GLIDE_TIME_CONSTANT = 0.03;

export type BinauralEngineState = { status: 'stopped' } | { status: 'playing'; settings: BinauralSettings };

interface Session {
  left: OscillatorNode;
  right: OscillatorNode;
  master: GainNode;
  settings: BinauralSettings;
}

type ContextSource = BaseAudioContext | (() => BaseAudioContext);

const STOPPED: BinauralEngineState = { status: 'stopped' };

/**
 * Freezes a parameter at its current value so a new ramp starts from where the sound is.
 * Not cancelAndHoldAtTime: in Chromium it held ~0 after the finished start ramp, and the offline
 * render test caught the step at stop (a click); Firefox lacks it altogether.
 */
function holdAt(param: AudioParam, time: number) {
  const current = param.value;
  param.cancelScheduledValues(time);
  param.setValueAtTime(current, time);
}

export class BinauralEngine {
  private context: BaseAudioContext | null = null;
  private session: Session | null = null;
  private state: BinauralEngineState = STOPPED;
  private readonly listeners = new Set<() => void>();

  /**
   * A context, or a factory for one. The factory runs on the first start, i.e. inside the
   * person's click, which browsers require before audio may play.
   */
  constructor(private readonly contextSource: ContextSource) {}

  getState = (): BinauralEngineState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts a session, first stopping any previous one. Rejects when audio cannot start. */
  async start(requested: BinauralSettings): Promise<void> {
    this.stop();
    const context = this.ensureContext();
    const settings = clampSettings(requested);
    const now = context.currentTime;

    const master = context.createGain();
    master.gain.setValueAtTime(0, now);
    master.gain.linearRampToValueAtTime(settings.volume, now + FADE_SECONDS);
    master.connect(context.destination);

    const left = this.createEar(context, settings.leftHz, -1, master);
    const right = this.createEar(context, settings.rightHz, 1, master);
    left.start(now);
    right.start(now);

    const session: Session = { left, right, master, settings };
    this.session = session;
    this.setState({ status: 'playing', settings });

    // Always resume a live context: it may be suspended (idle, or a browser policy), and a resume
    // queued behind a pending idle suspend still wins.
    if (isRealtime(context)) {
      try {
        await context.resume();
      } catch (error) {
        if (this.session === session) this.stop();
        throw error;
      }
    }
  }

  /** Fades out and releases the session; a no-op when nothing plays. */
  stop(): void {
    const session = this.session;
    if (!session || !this.context) return;
    this.session = null;
    const now = this.context.currentTime;
    holdAt(session.master.gain, now);
    session.master.gain.linearRampToValueAtTime(0, now + FADE_SECONDS);
    // Stop a little after the ramp reached 0 so the oscillators end in silence.
    const end = now + FADE_SECONDS + 0.02;
    session.left.stop(end);
    session.right.stop(end);
    const context = this.context;
    session.right.onended = () => {
      session.master.disconnect();
      // Idle: let the audio device sleep (start resumes it) unless a new session began meanwhile.
      if (!this.session && isRealtime(context) && context.state === 'running') void context.suspend();
    };
    this.setState(STOPPED);
  }

  /** Glides a playing session to new frequencies or volume. */
  update(changes: Partial<BinauralSettings>): void {
    const session = this.session;
    if (!session || !this.context) return;
    const now = this.context.currentTime;
    const settings = { ...session.settings };
    if (changes.leftHz !== undefined) {
      settings.leftHz = clampHz(changes.leftHz);
      glide(session.left.frequency, settings.leftHz, now);
    }
    if (changes.rightHz !== undefined) {
      settings.rightHz = clampHz(changes.rightHz);
      glide(session.right.frequency, settings.rightHz, now);
    }
    if (changes.volume !== undefined) {
      settings.volume = clampVolume(changes.volume);
      glide(session.master.gain, settings.volume, now);
    }
    session.settings = settings;
    this.setState({ status: 'playing', settings });
  }

  private ensureContext(): BaseAudioContext {
    this.context ??= typeof this.contextSource === 'function' ? this.contextSource() : this.contextSource;
    return this.context;
  }

  private createEar(context: BaseAudioContext, hz: number, pan: -1 | 1, master: GainNode): OscillatorNode {
    const oscillator = context.createOscillator();
    oscillator.type = 'sine';
    oscillator.frequency.setValueAtTime(hz, context.currentTime);
    const panner = context.createStereoPanner();
    panner.pan.setValueAtTime(pan, context.currentTime);
    oscillator.connect(panner).connect(master);
    return oscillator;
  }

  private setState(state: BinauralEngineState) {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}

function glide(param: AudioParam, target: number, now: number) {
  // Holding first cuts any ramp still running (e.g. the start fade) at its current value.
  holdAt(param, now);
  param.setTargetAtTime(target, now, GLIDE_TIME_CONSTANT);
}

function isRealtime(context: BaseAudioContext): context is AudioContext {
  return typeof AudioContext !== 'undefined' && context instanceof AudioContext;
}
