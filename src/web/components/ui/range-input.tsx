import type { ComponentProps, CSSProperties } from 'react';

type RangeInputProps = Omit<ComponentProps<'input'>, 'type' | 'min' | 'max' | 'value'> & {
  min: number;
  max: number;
  value: number;
};

/** A slider whose filled part follows its value (styles.css paints the track from --range-progress). */
export function RangeInput({ min, max, value, style, ...props }: RangeInputProps) {
  const progress = max > min ? ((value - min) / (max - min)) * 100 : 0;
  return (
    <input
      type="range"
      min={min}
      max={max}
      value={value}
      style={{ ...style, '--range-progress': `${progress}%` } as CSSProperties}
      {...props}
    />
  );
}
