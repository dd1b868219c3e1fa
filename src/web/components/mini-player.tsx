import { Fragment, useCallback, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AudioLines, ChevronDown, Pause, Play, SlidersHorizontal, Square } from 'lucide-react';
import { clsx } from 'clsx';
import { useBottomChromePart } from '@web/lib/bottom-chrome';
import { paths } from '@web/lib/paths';
import { focusPageHeading } from '@web/lib/page-heading';
import { onPortalLeft } from '@web/lib/portal-presence';
import { soundEngine } from '@web/lib/audio/app-engine';
import { DEFAULT_FADE_OUT_SECONDS, FADE_OUT_SECONDS, formatClock, SLEEP_TIMER_MINUTES } from '@web/lib/audio/mixer';
import { NOISE_LABELS } from '@web/lib/audio/noise';
import type { LayerState } from '@web/lib/audio/sound-engine';
import { readSessionClock, useEngineClock, useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { Button } from '@web/components/ui/button';
import { VolumeSlider } from '@web/components/volume-slider';

/** What the player says of a sound the browser would not start without a press (decision 072). */
export const PRESS_PLAY = 'Press play to start the sound';
/** What the player says while the browser has not yet let the sound start (decision 075). */
export const STARTING = 'Starting…';

const beat = (a: number, b: number) => Math.round(Math.abs(a - b) * 10) / 10;

/** A layer as a person would name it. */
export function layerName(layer: LayerState): string {
  const source = layer.source;
  switch (source.kind) {
    case 'track':
      return source.title;
    case 'binaural':
      return `Binaural beats · ${beat(source.leftHz, source.rightHz)} Hz`;
    case 'isochronic':
      return `Isochronic tones · ${source.pulseHz} Hz`;
    case 'noise':
      return NOISE_LABELS[source.colour];
    case 'voice':
      return `Spoken affirmations · ${source.messages} ${source.messages === 1 ? 'message' : 'messages'}`;
  }
}

/**
 * What plays, its layers' names joined by " + ", each in its own box for direction: a track's name may be a
 * person's (docs/decisions/064-a-typed-text-shown-stays-in-its-own-box.md).
 */
export function LayerNames({ layers }: { layers: readonly LayerState[] }) {
  return layers.map((layer, index) => (
    <Fragment key={layer.id}>
      {index > 0 ? ' + ' : null}
      <bdi>{layerName(layer)}</bdi>
    </Fragment>
  ));
}

const minutesLabel = (minutes: number) =>
  minutes < 60 ? `${minutes} min` : `${minutes / 60} h`.replace('1.5 h', '1 h 30 min');
const fadeLabel = (seconds: number) => (seconds < 60 ? `${seconds} s` : `${seconds / 60} min`);

// Leaving the portal stops the sound: signing out at once, any other way once no portal layout has come
// back in time (lib/portal-presence.ts). Registered once, with the first layout's code.
onPortalLeft(() => soundEngine.stop());

/**
 * The portal's mini-player (docs/product/screens.md#mini-player): what plays, for how long, pause,
 * stop, the master volume and the sleep timer. Mounted with the portal layout, so the sound and the
 * player follow the person from page to page; leaving the portal (signing out, or a page without the
 * portal's layout) stops the sound, as it ends a session in its corner (lib/portal-presence.ts).
 */
export function MiniPlayer() {
  const state = useSoundEngine();
  const active = state.status !== 'stopped';
  const clock = useEngineClock(readSessionClock, state.status === 'playing');
  const [fadeSeconds, setFadeSeconds] = useState<number>(DEFAULT_FADE_OUT_SECONDS);
  const moreId = useId();
  // On a phone the volume and the timers fold away behind one button, so the bar is one row.
  const [more, setMore] = useState(false);
  const bar = useRef<HTMLElement>(null);
  // The bar goes with what it played, whatever ended it (its Stop, the sleep timer, a Stop on the page, a track gone
  // from the library with nothing else playing), and the keyboard in it would go with it to the page's top: as the
  // bar leaves, still on the page, the keyboard goes to the page's heading (decisions 113 and 155).
  const barRef = useCallback((node: HTMLElement | null) => {
    bar.current = node;
    if (!node) return;
    return () => {
      if (node.contains(document.activeElement)) focusPageHeading();
      bar.current = null;
    };
  }, []);

  // Pages' own bottom bars and a session in its corner sit above it (lib/bottom-chrome.ts).
  useBottomChromePart('miniPlayer', bar, active);

  if (!active) return null;
  const paused = state.status === 'paused';
  const timerMinutes = state.timer ? String(state.timer.seconds / 60) : 'off';
  const loading = state.layers.some((layer) => layer.status === 'loading');
  // A track and the spoken affirmations start again from the top; a generated sound simply goes on.
  const loops = state.layers.some((layer) => layer.source.kind === 'track' || layer.source.kind === 'voice');
  const time =
    clock.remaining === null
      ? `${formatClock(clock.elapsed)}${loops ? ' · looping' : ''}`
      : clock.fading
        ? `Fading out · ${formatClock(clock.remaining)} left`
        : `${formatClock(clock.elapsed)} · ${formatClock(clock.remaining)} left`;

  return (
    // Opaque, where at 95 % the page's words read through under its time and timers; its sides the page's inset
    // (portal-layout.tsx, `portal-main`), so its edges are the cards' (decision 143). From lg its left side also
    // leaves the sidebar's 15 rem (`w-60`): its content is centred in the page's column, not the window
    // (docs/decisions/146-the-last-screens-line-up.md).
    <section
      ref={barRef}
      aria-label="Now playing"
      className="sticky bottom-0 z-30 border-t border-line bg-surface-raised px-4 py-3 shadow-[0_-4px_16px_rgb(0_0_0/0.08)] sm:px-8 sm:py-2 lg:pl-[calc(15rem+2rem)]"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-1 basis-0 items-center gap-3 sm:basis-56">
          <AudioLines aria-hidden className="h-5 w-5 shrink-0 text-accent-strong dark:text-accent" />
          <div className="min-w-0">
            {/*
              On a touch screen the name is a 44 px box (decision 086), grown into the bar's padding above and 12 px
              below, where the time starts: the time takes its own presses, so it can be selected, and reaches 8 px
              into the bar's padding below, so the bar keeps its height (decision 126). It grows above by no more than
              that padding (12 px on a phone, 8 px from sm), so its box stays in the bar (decision 134).
            */}
            <Link
              to={paths.music}
              className="block truncate text-sm font-medium text-fg hover:underline pointer-coarse:-mt-3 pointer-coarse:py-3 sm:pointer-coarse:-mt-2"
            >
              {state.layers.length > 0 ? <LayerNames layers={state.layers} /> : 'Starting…'}
            </Link>
            <p className="text-xs tabular-nums text-fg-muted pointer-coarse:-mb-2" data-testid="mini-player-time">
              {paused
                ? state.refused
                  ? PRESS_PLAY
                  : `Paused · ${formatClock(clock.elapsed)}`
                : state.starting
                  ? STARTING
                  : loading
                    ? 'Loading…'
                    : time}
            </p>
          </div>
        </div>
        <div className="flex items-center gap-2">
          {paused ? (
            <Button
              variant="secondary"
              size="icon"
              aria-label={state.refused ? 'Play' : 'Resume'}
              onClick={() => void soundEngine.resume()}
            >
              <Play aria-hidden className="h-4 w-4" />
            </Button>
          ) : (
            <Button variant="secondary" size="icon" aria-label="Pause" onClick={() => soundEngine.pause()}>
              <Pause aria-hidden className="h-4 w-4" />
            </Button>
          )}
          <Button
            variant="secondary"
            size="icon"
            aria-label="Stop"
            // The bar goes with what it played: the keyboard that pressed Stop goes to the page's heading (barRef).
            onClick={() => soundEngine.stop()}
          >
            <Square aria-hidden className="h-4 w-4" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="sm:hidden"
            aria-label="Volume and timers"
            aria-expanded={more}
            aria-controls={moreId}
            onClick={() => setMore(!more)}
          >
            {more ? (
              <ChevronDown aria-hidden className="h-4 w-4" />
            ) : (
              <SlidersHorizontal aria-hidden className="h-4 w-4" />
            )}
          </Button>
        </div>
        <div
          id={moreId}
          className={clsx(more ? 'flex basis-full flex-wrap items-center gap-x-4 gap-y-2' : 'hidden', 'sm:contents')}
        >
          {/* Unfolded on a phone, the volume takes its row's width; beside the timers on a wider screen, 112 px. */}
          <VolumeSlider master className="basis-full sm:basis-40" sliderClassName="min-w-28 flex-1 sm:flex-none" />
          <div className="flex items-center gap-2 text-xs">
            <label className="flex items-center gap-1.5 font-medium text-fg-muted">
              Sleep timer
              <select
                value={timerMinutes}
                onChange={(event) => {
                  const value = event.target.value;
                  soundEngine.setSleepTimer(value === 'off' ? null : Number(value) * 60, fadeSeconds);
                }}
                className="h-9 rounded-lg border border-field bg-surface px-2 text-fg pointer-coarse:h-11"
              >
                <option value="off">Until I stop</option>
                {/* A program's day sets a length of its own (docs/product/screens.md#program). */}
                {state.timer && !(SLEEP_TIMER_MINUTES as readonly number[]).includes(state.timer.seconds / 60) ? (
                  <option value={timerMinutes}>{minutesLabel(Math.round(state.timer.seconds / 60))}</option>
                ) : null}
                {SLEEP_TIMER_MINUTES.map((minutes) => (
                  <option key={minutes} value={minutes}>
                    {minutesLabel(minutes)}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-1.5 font-medium text-fg-muted">
              Fade-out
              <select
                value={fadeSeconds}
                onChange={(event) => {
                  const seconds = Number(event.target.value);
                  setFadeSeconds(seconds);
                  if (state.timer) soundEngine.setSleepTimer(state.timer.seconds, seconds);
                }}
                className="h-9 rounded-lg border border-field bg-surface px-2 text-fg pointer-coarse:h-11"
              >
                {FADE_OUT_SECONDS.map((seconds) => (
                  <option key={seconds} value={seconds}>
                    {fadeLabel(seconds)}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
      </div>
    </section>
  );
}
