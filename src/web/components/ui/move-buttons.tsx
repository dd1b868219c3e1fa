import { useEffect, useRef } from 'react';
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
 * a form it is in. Their icons are drawn by CSS (icon-arrow-up/down): a long list has two of these a row. An item
 * moved to the top or the bottom disables the arrow pressed, which would drop the keyboard to the page's top: it goes
 * to the other arrow (docs/decisions/101-a-staff-members-day-walked.md).
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
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  /** The arrow pressed, until the item shows at its new place. */
  const pressed = useRef<HTMLButtonElement | null>(null);
  const atTop = index === 0;
  const atBottom = index === count - 1;
  useEffect(() => {
    const button = pressed.current;
    pressed.current = null;
    if (!button?.disabled) return;
    const other = button === up.current ? down.current : up.current;
    const focus = document.activeElement;
    // Only when the keyboard was there: lost with it, or still on it (disabled, it takes no keys).
    if (focus === button || focus === document.body || focus === null) other?.focus();
  }, [index, count]);
  const press = (button: HTMLButtonElement | null, delta: number) => {
    pressed.current = button;
    onMove(delta);
  };
  return (
    <>
      <Button
        ref={up}
        type="button"
        variant="ghost"
        size="icon"
        aria-label={`Move ${label} up`}
        title="Move up"
        className="icon-arrow-up"
        disabled={atTop}
        onClick={() => press(up.current, -1)}
      />
      <Button
        ref={down}
        type="button"
        variant="ghost"
        size="icon"
        aria-label={`Move ${label} down`}
        title="Move down"
        className="icon-arrow-down"
        disabled={atBottom}
        onClick={() => press(down.current, 1)}
      />
    </>
  );
}
