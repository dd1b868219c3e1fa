import { LayerNames, STARTING } from '@web/components/mini-player';
import { VolumeSlider } from '@web/components/volume-slider';
import { flashSessions } from '@web/lib/audio/app-session-ends';
import { formatClock } from '@web/lib/audio/mixer';
import { readSessionClock, useEngineClock, useSoundEngine } from '@web/lib/audio/use-sound-engine';

/**
 * What the session screen tells: how long the session under way has run, as history will record it
 * (with sound, the sound session's time from the clock the mini-player reads; without, the time the
 * messages have flashed in silence, lib/audio/flash-sessions.ts: each starts again at 0:00 when the
 * other takes over, as a new entry in history does), the time left when the sleep timer is set, the
 * sound layers playing (named as in the mini-player) and, with sound, the master volume (not in the
 * corner, where the mini-player's is at hand).
 * A component of its own so its clock re-renders only this line, never the flashed message.
 */
export function SessionStatus({ paused, compact }: { paused: boolean; compact: boolean }) {
  const state = useSoundEngine();
  const sound = state.status !== 'stopped';
  const timer = useEngineClock(() => ({ ...readSessionClock(), silent: flashSessions.elapsed() }), !paused);
  const elapsed = sound ? timer.elapsed : timer.silent;
  const time =
    timer.remaining === null
      ? `${formatClock(elapsed)} so far`
      : timer.fading
        ? `Fading out · ${formatClock(timer.remaining)} left`
        : `${formatClock(timer.remaining)} left`;

  return (
    <div className={compact ? 'flex min-w-0 flex-col' : 'flex min-w-0 flex-col gap-1 text-sm'}>
      <p className="m-0 tabular-nums font-medium" data-testid="session-time">
        {paused ? `Paused · ${time}` : state.starting ? STARTING : time}
        {timer.remaining === null && !compact ? (
          <span className="font-normal text-fg-muted"> · no sleep timer</span>
        ) : null}
      </p>
      <p className="m-0 truncate text-fg-muted" data-testid="session-layers">
        {state.layers.length > 0 ? <LayerNames layers={state.layers} /> : 'No sound playing'}
      </p>
      {sound && !compact ? <VolumeSlider /> : null}
    </div>
  );
}
