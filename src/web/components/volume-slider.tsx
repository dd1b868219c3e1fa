import { useId } from 'react';
import { clsx } from 'clsx';
import { soundEngine } from '@web/lib/audio/app-engine';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { RangeInput } from '@web/components/ui/range-input';

/**
 * The master volume of what plays, as a labelled slider that says its level in per cent: the
 * mini-player's and the session screen's. `master`: a screen reader hears "Master volume" (the
 * mini-player, beside the layers' own levels); the label shows "Volume" either way. `sliderClassName` sizes the
 * slider, 112 px wide when left out.
 */
export function VolumeSlider({
  master = false,
  className,
  sliderClassName = 'w-28',
}: {
  master?: boolean;
  className?: string;
  sliderClassName?: string;
}) {
  const { volume } = useSoundEngine();
  const id = useId();
  return (
    <div className={clsx('flex items-center gap-2', className)}>
      <label htmlFor={id} className="text-xs font-medium text-fg-muted">
        {master ? <span className="sr-only">Master </span> : null}Volume
      </label>
      <RangeInput
        id={id}
        min={0}
        max={1}
        step={0.01}
        value={volume}
        aria-valuetext={`${Math.round(volume * 100)}%`}
        onChange={(event) => soundEngine.setVolume(event.target.valueAsNumber)}
        className={sliderClassName}
      />
    </div>
  );
}
