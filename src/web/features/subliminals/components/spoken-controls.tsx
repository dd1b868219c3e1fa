import { useId, useRef, useState } from 'react';
import { Mic, Square } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { RangeInput } from '@web/components/ui/range-input';
import { soundEngine } from '@web/lib/audio/app-engine';
import { dbToGain, VOICE_LEVEL_MAX_DB, VOICE_LEVEL_MIN_DB, VOICE_MASKED_DB } from '@web/lib/audio/mixer';
import type { LayerSource, SoundEngineState } from '@web/lib/audio/sound-engine';
import { useLayer, useSoundEngine } from '@web/lib/audio/use-sound-engine';
import {
  buildVoiceLoop,
  DEFAULT_VOICE_PAUSE_SECONDS,
  MAX_SPOKEN_MESSAGES,
  VOICE_PAUSES_SECONDS,
} from '@web/lib/audio/voice-loop';
import { SPOKEN_RATES, SPOKEN_VOICES } from '@web/lib/audio/speech/speech';
import { voiceClips } from '@web/lib/audio/speech/voice-clips';
import { OWN_VOICE } from '@shared/contract/portal-plain';
import { ExportDialog } from './export-dialog';
import { OwnVoice } from './own-voice';
import { toastProblem } from '@web/lib/toast-problem';
import { toastFailure } from '@web/lib/change';
import { portalVisit } from '@web/lib/portal-presence';

export const SPEECH_FAILED = 'The voice could not be prepared. Please try again.';
export const NOTHING_TO_SAY = 'Please add messages to the playlist first.';
export const NOTHING_RECORDED = 'Please record at least one message of the playlist first.';
/** The voice's gain when it plays alone (−6 dB): a comfortable level under full scale. */
const ALONE_GAIN = dbToGain(-6);
const DEFAULT_LEVEL_DB = -20;

export function levelText(db: number): string {
  if (db >= VOICE_LEVEL_MAX_DB) return 'Audible: as loud as the other layers';
  const under = `${Math.abs(db)} dB under the other layers`;
  return db <= VOICE_MASKED_DB ? `Masked: ${under}` : under;
}

/**
 * "Speaking 3 messages, looping." ("… in your voice, …" for one's own recordings); "Paused: speaking …"
 * while the sound is paused, or waits for a press the browser asks for (decision 072); "Starting to speak …"
 * while the browser has not yet let it start (decision 075).
 */
function speakingText(source: LayerSource, { status, starting }: SoundEngineState): string {
  if (source.kind !== 'voice') return '';
  const count = `${source.messages} ${source.messages === 1 ? 'message' : 'messages'}`;
  const own = source.spoken?.voice === OWN_VOICE ? ' in your voice' : '';
  const doing = status === 'paused' ? 'Paused: speaking' : starting ? 'Starting to speak' : 'Speaking';
  return `${doing} ${count}${own}, looping.`;
}

const selectClass =
  'min-h-11 rounded-xl border border-field bg-surface px-3 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring';

/**
 * The spoken-affirmations controls for a Pro plan (docs/product/screens.md#spoken-affirmations):
 * loaded with the panel only when the plan includes them, so no other first load carries them.
 */
export default function SpokenControls({ messages }: { messages: readonly string[] }) {
  const layer = useLayer('voice');
  const engine = useSoundEngine();
  const [voice, setVoice] = useState('en-us');
  const [rate, setRate] = useState<number>(145);
  const [pause, setPause] = useState<number>(DEFAULT_VOICE_PAUSE_SECONDS);
  const [level, setLevel] = useState(DEFAULT_LEVEL_DB);
  const [preparing, setPreparing] = useState<{ done: number; total: number } | null>(null);
  const run = useRef(0);
  const speakButton = useRef<HTMLButtonElement>(null);
  /** The run whose voice is being prepared, read by a press before the page has shown it unavailable. */
  const preparingRun = useRef<number | null>(null);
  const ids = { voice: useId(), level: useId(), explain: useId() };
  const playing = layer !== null;
  const texts = messages.slice(0, MAX_SPOKEN_MESSAGES);
  const own = voice === OWN_VOICE;

  async function speakAll(next = { voice, rate, pause }) {
    if (texts.length === 0) {
      toastProblem(NOTHING_TO_SAY);
      return;
    }
    // Inside the press, before the voice is prepared: Safari starts sound only there (decision 075); released
    // once the voice plays or will not (decision 080).
    const release = soundEngine.prime();
    // A sign-out while the voice is prepared speaks nothing (decision 085).
    const visit = portalVisit();
    const mine = ++run.current;
    preparingRun.current = mine;
    setPreparing({ done: 0, total: texts.length });
    try {
      // The first synthesised clip starts the speech worker, which loads eSpeak NG's WebAssembly
      // (decision 019); the own voice reads the person's recordings instead.
      const clips = await voiceClips(texts, next, (done, total) => {
        if (run.current === mine) setPreparing({ done, total });
      });
      if (run.current !== mine) return;
      visit.check();
      if (clips.length === 0 && next.voice === OWN_VOICE) {
        // The last recording deleted while it spoke: the voice stops rather than repeat what is gone.
        soundEngine.removeLayer('voice');
        toastProblem(NOTHING_RECORDED);
        return;
      }
      const loop = buildVoiceLoop(clips, next.pause);
      if (!loop) throw new Error('no speech');
      await soundEngine.setLayer(
        'voice',
        { kind: 'voice', loop, messages: clips.length, level, spoken: next },
        ALONE_GAIN,
      );
    } catch (error) {
      // The own voice reads its recordings from the API: a session ended there has said so already.
      if (run.current === mine) toastFailure(error, SPEECH_FAILED);
    } finally {
      release();
      if (preparingRun.current === mine) preparingRun.current = null;
      if (run.current === mine) setPreparing(null);
    }
  }

  // While the voice plays, a new voice, rate or pause prepares the loop again (cached clips are instant).
  const change = (update: Partial<{ voice: string; rate: number; pause: number }>) => {
    const next = { voice, rate, pause, ...update };
    setVoice(next.voice);
    setRate(next.rate);
    setPause(next.pause);
    if (playing) void speakAll(next);
  };

  return (
    <>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto]">
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.voice} className="text-sm font-medium">
            Voice
          </label>
          <select
            id={ids.voice}
            value={voice}
            onChange={(event) => change({ voice: event.target.value })}
            className={selectClass}
          >
            {SPOKEN_VOICES.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
            <option value={OWN_VOICE}>My own voice (recorded)</option>
          </select>
        </div>
        {own ? null : (
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 text-sm font-medium">Speed</legend>
            <div className="flex flex-wrap gap-2">
              {SPOKEN_RATES.map((option) => (
                <button
                  key={option.wpm}
                  type="button"
                  aria-pressed={rate === option.wpm}
                  onClick={() => change({ rate: option.wpm })}
                  className={chipClass(rate === option.wpm)}
                >
                  {option.label}
                </button>
              ))}
            </div>
          </fieldset>
        )}
      </div>
      {own ? (
        <OwnVoice
          texts={[...new Set(texts)]}
          onChanged={() => {
            // What plays in the own voice takes a new or deleted recording at once.
            const spoken = soundEngine.getState().layers.find((playing) => playing.id === 'voice')?.source;
            if (spoken?.kind === 'voice' && spoken.spoken?.voice === OWN_VOICE) void speakAll(spoken.spoken);
          }}
        />
      ) : null}
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-sm font-medium">Pause between messages</legend>
        <div className="flex flex-wrap gap-2">
          {VOICE_PAUSES_SECONDS.map((seconds) => (
            <button
              key={seconds}
              type="button"
              aria-pressed={pause === seconds}
              onClick={() => change({ pause: seconds })}
              className={chipClass(pause === seconds)}
            >
              {seconds} s
            </button>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <label htmlFor={ids.level} className="text-sm font-medium">
            Subliminal level
          </label>
          <span className="text-sm tabular-nums text-fg-muted">{levelText(level)}</span>
        </div>
        <RangeInput
          id={ids.level}
          min={VOICE_LEVEL_MIN_DB}
          max={VOICE_LEVEL_MAX_DB}
          step={1}
          value={level}
          aria-valuetext={levelText(level)}
          aria-describedby={ids.explain}
          onChange={(event) => {
            setLevel(event.target.valueAsNumber);
            soundEngine.setVoiceLevel(event.target.valueAsNumber);
          }}
          className="w-full"
        />
        <p id={ids.explain} className="text-sm text-fg-muted">
          This only sets loudness. At 0 dB the voice is as loud as the loudest other layer; from −10 dB down it sits
          under them, so you hear it faintly or not at all, which is what “subliminal” means here. With nothing else
          playing, the voice plays on its own at a normal level. We make no claim about what a quiet voice does.
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {/* Busy while the voice is prepared, yet focusable (a press then does nothing; the ref also holds one that came first), and
            the keyboard comes back to it from "Stop the voice", which goes: a disabled or removed button dropped it to
            the page's top (decision 113). */}
        <Button
          ref={speakButton}
          onClick={() => {
            if (preparingRun.current === null) void speakAll();
          }}
          busy={preparing !== null}
        >
          <Mic aria-hidden className="h-4 w-4" /> {playing ? 'Speak the playlist again' : 'Speak the playlist'}
        </Button>
        {playing || preparing ? (
          <Button
            variant="secondary"
            onClick={() => {
              run.current++;
              preparingRun.current = null;
              setPreparing(null);
              soundEngine.removeLayer('voice');
              speakButton.current?.focus();
            }}
          >
            <Square aria-hidden className="h-4 w-4" /> Stop the voice
          </Button>
        ) : null}
        <ExportDialog />
      </div>
      <p aria-live="polite" className="text-sm text-fg-muted empty:hidden">
        {preparing
          ? `Preparing the voice… ${preparing.done} of ${preparing.total} messages`
          : playing
            ? speakingText(layer.source, engine)
            : messages.length > MAX_SPOKEN_MESSAGES
              ? `The first ${MAX_SPOKEN_MESSAGES} messages of the playlist are spoken.`
              : ''}
      </p>
    </>
  );
}

const chipClass = (selected: boolean) =>
  [
    'min-h-11 rounded-full border border-line px-4 text-sm font-medium hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring',
    selected ? 'border-accent bg-accent/15' : '',
  ].join(' ');
