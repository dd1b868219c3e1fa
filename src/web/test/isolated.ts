import { expect } from 'vitest';

/** A text stored before decision 063 refused it: the override shows "txt.exe" as "exe.txt", and whatever follows. */
export const STORED_OVERRIDE = 'Sleep \u202etxt.exe';

/**
 * That the element showing `text` holds it alone in its own box for direction, a `<bdi>` or an element with
 * dir="auto", so it reorders nothing around it (docs/decisions/064-a-typed-text-shown-stays-in-its-own-box.md).
 * jsdom lays nothing out: the markup is what is asserted.
 */
export function expectIsolated(element: HTMLElement, text = STORED_OVERRIDE) {
  expect(element.textContent).toBe(text);
  expect(element.matches('bdi, [dir="auto"]'), element.outerHTML).toBe(true);
}
