import { vi } from 'vitest';

// jsdom has no Web Audio. A small stand-in of the few nodes the engine builds, whose clock, like a
// real AudioContext's, runs only while the context runs (suspended by a pause), moved by the test
// together with the timers (`pass`). What the engine sounds like is measured in Chromium by the e2e.
// A test stubs the globals the engine checks (`stubWebAudio`) and gives the engine a FakeAudioContext.

class FakeParam {
  constructor(readonly defaultValue: number) {}
  cancelScheduledValues() {
    return this;
  }
  setValueAtTime() {
    return this;
  }
  linearRampToValueAtTime() {
    return this;
  }
}

class FakeNode {
  connect<T>(next: T): T {
    return next;
  }
  disconnect() {}
}

class FakeGain extends FakeNode {
  readonly gain = new FakeParam(1);
}

class FakeScheduled extends FakeNode {
  onended: (() => void) | null = null;
  start() {}
  stop() {}
}

class FakeBufferSource extends FakeScheduled {
  buffer: AudioBuffer | null = null;
  loop = false;
  loopStart = 0;
  loopEnd = 0;
}

class FakeOscillator extends FakeScheduled {
  type = 'sine';
  readonly frequency = new FakeParam(440);
  setPeriodicWave() {}
}

const SAMPLE_RATE = 100;

// A person's press, as a browser's transient user activation: it lasts while the press's handlers run,
// not into what they await. Clicks, keys and pointer releases dispatched in jsdom (user-event, fireEvent)
// count, from the capture on window until their dispatch returns; `duringPress` runs code as inside one.
let pressing = false;
for (const type of ['click', 'keydown', 'pointerup'] as const) {
  window.addEventListener(
    type,
    () => {
      pressing = true;
      queueMicrotask(() => (pressing = false));
    },
    { capture: true },
  );
}

/** Whether the code runs inside a press's handler, where Safari lets sound start. */
export const inPress = () => pressing;

/** Runs `handler` as inside the handler of a person's press. */
export function duringPress<T>(handler: () => T): T {
  pressing = true;
  try {
    return handler();
  } finally {
    pressing = false;
  }
}

/**
 * An `<audio>` element as Safari lets it play: play() inside a person's press (`inPress`) plays and unlocks the
 * element, which may then play without one (WebKit lifts its restrictions on the element that a press played);
 * outside, an element never played inside a press rejects with NotAllowedError. Each one made is in `made`.
 */
export class PressOnlyAudio {
  static made: PressOnlyAudio[] = [];
  src: string;
  paused = true;
  onended: (() => void) | null = null;
  private unlocked = false;
  constructor(src = '') {
    this.src = src;
    PressOnlyAudio.made.push(this);
  }
  play(): Promise<void> {
    if (inPress()) this.unlocked = true;
    if (!this.unlocked) return Promise.reject(new DOMException('The request is not allowed.', 'NotAllowedError'));
    this.paused = false;
    return Promise.resolve();
  }
  pause() {
    this.paused = true;
  }
}

/** A minute of a steady tone, as decodeAudioData would give it. */
function fakeBuffer(seconds = 60) {
  const data = new Float32Array(seconds * SAMPLE_RATE).fill(0.5);
  return {
    duration: seconds,
    sampleRate: SAMPLE_RATE,
    numberOfChannels: 1,
    length: data.length,
    getChannelData: () => data,
  };
}

export class FakeAudioContext extends EventTarget {
  currentTime = 0;
  state: 'running' | 'suspended' | 'interrupted' | 'closed' = 'running';
  /**
   * How the browser answers resume(): 'allowed' runs at once; 'pending' leaves it unanswered and the
   * context suspended until an allowed resume, as Chromium does before a press: one inside a person's press
   * (`inPress`) runs it, answering every resume unanswered, and from then on it runs as 'allowed'; 'rejected' rejects it with
   * NotAllowedError (Safari); 'press' runs it only inside a person's press (`inPress`), as Safari does,
   * and a context that ran so may run again without one, while outside it rejects as 'rejected'.
   */
  autoplay: 'allowed' | 'pending' | 'rejected' | 'press' = 'allowed';
  private pendingResumes: (() => void)[] = [];
  readonly sampleRate = SAMPLE_RATE;
  readonly destination = new FakeNode();
  createGain() {
    return new FakeGain();
  }
  createBufferSource() {
    return new FakeBufferSource();
  }
  createOscillator() {
    return new FakeOscillator();
  }
  createStereoPanner() {
    return Object.assign(new FakeNode(), { pan: new FakeParam(0) });
  }
  decodeAudioData() {
    return Promise.resolve(fakeBuffer());
  }
  resume() {
    if (this.state === 'running') return Promise.resolve();
    if ((this.autoplay === 'press' || this.autoplay === 'pending') && inPress()) this.autoplay = 'allowed';
    if (this.autoplay === 'rejected' || this.autoplay === 'press') {
      return Promise.reject(new DOMException('The AudioContext was not allowed to start.', 'NotAllowedError'));
    }
    if (this.autoplay === 'pending') return new Promise<void>((resolve) => this.pendingResumes.push(resolve));
    this.run();
    return Promise.resolve();
  }
  /** The context runs at last (a resume the browser allowed): every resume still unanswered resolves. */
  run() {
    this.setState('running');
    for (const resolve of this.pendingResumes.splice(0)) resolve();
  }
  suspend() {
    this.setState('suspended');
    return Promise.resolve();
  }
  /** What the system does on its own (iOS locking the screen, a call): the context stops, and says so. */
  setState(state: FakeAudioContext['state']) {
    if (state === this.state) return;
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

/** Makes a FakeAudioContext pass for a realtime AudioContext (the engine then ticks) and its sources for real ones. */
export function stubWebAudio() {
  vi.stubGlobal('AudioContext', FakeAudioContext);
  vi.stubGlobal('AudioBufferSourceNode', FakeBufferSource);
}

/** Lets `seconds` pass on the (fake) wall clock; the audio clock runs with it while the context runs. */
export async function pass(context: FakeAudioContext, seconds: number) {
  for (let step = 0; step < Math.round(seconds * 100); step++) {
    if (context.state === 'running') context.currentTime += 0.01;
    await vi.advanceTimersByTimeAsync(10);
  }
}
