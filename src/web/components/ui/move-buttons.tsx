import { Button } from './button';

/** The ids with the one at `index` moved by `delta` places. */
export const moved = (ids: readonly number[], index: number, delta: number) => {
  const next = [...ids];
  const [id] = next.splice(index, 1);
  next.splice(index + delta, 0, id!);
  return next;
};

/**
 * Up and down for one item of an ordered list (keyboard and screen readers alike; no dragging needed); never submits
 * a form it is in. Their icons are drawn by CSS (icon-arrow-up/down): a long list has two of these a row.
 */
export function MoveButtons({
  index,
  count,
  label,
  onMove,
}: {
  index: number;
  count: number;
  label: string;
  onMove: (delta: number) => void;
}) {
  return (
    <>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={`Move ${label} up`}
        title="Move up"
        className="icon-arrow-up"
        disabled={index === 0}
        onClick={() => onMove(-1)}
      />
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={`Move ${label} down`}
        title="Move down"
        className="icon-arrow-down"
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      />
    </>
  );
}
