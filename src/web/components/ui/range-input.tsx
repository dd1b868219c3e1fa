import type { ComponentProps, CSSProperties } from 'react';
import { clsx } from 'clsx';

type RangeInputProps = Omit<ComponentProps<'input'>, 'type' | 'min' | 'max' | 'value'> & {
  min: number;
  max: number;
  value: number;
};

/**
 * A slider whose filled part follows its value (styles.css paints the track from --range-progress). Its box is 24 px
 * tall, 44 px on a touch screen: a finger anywhere in it moves the thumb, the track drawn as thin (decision 086).
 */
export function RangeInput({ min, max, value, style, className, ...props }: RangeInputProps) {
  const progress = max > min ? ((value - min) / (max - min)) * 100 : 0;
  return (
    <input
      type="range"
      min={min}
      max={max}
      value={value}
      style={{ ...style, '--range-progress': `${progress}%` } as CSSProperties}
      className={clsx('h-6 pointer-coarse:h-11', className)}
      {...props}
    />
  );
}
