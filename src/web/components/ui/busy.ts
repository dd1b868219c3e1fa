import type { AriaAttributes, MouseEvent, MouseEventHandler } from 'react';

/**
 * What makes a control wait on its call while keeping the keyboard: unavailable (`aria-disabled`), still focusable (a
 * disabled one drops the keyboard to the page's top), and a click on it, or Enter or Space, which press it by clicking,
 * cancelled, so it calls no handler, sends no form and ticks no box (docs/decisions/107-the-program-editor-walked.md).
 * `Button`'s `busy` and `CheckboxField`'s.
 */
export function whileBusy<E extends Element>(
  busy: boolean,
  onClick: MouseEventHandler<E> | undefined,
  unavailable: AriaAttributes['aria-disabled'],
): { 'aria-disabled': AriaAttributes['aria-disabled']; onClick: MouseEventHandler<E> | undefined } {
  return {
    'aria-disabled': busy || unavailable,
    onClick: busy ? (event: MouseEvent<E>) => event.preventDefault() : onClick,
  };
}
