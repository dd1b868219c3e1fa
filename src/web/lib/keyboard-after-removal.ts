import { focusPageHeading } from './page-heading';

/**
 * For a control whose row is about to leave a list (a delete, a request marked handled under "Open only"): read now,
 * while the row is there, which rows are beside it; the function returned, called once the change is made, waits for
 * the row to go (the query shows it gone a few frames later) and puts the keyboard on the same control of the row that
 * took its place, the next or, at the end of the list, the one before, rather than on the page's top, where it fell
 * with the control that held it. Unless the person has put the keyboard somewhere meanwhile
 * (docs/decisions/101-a-staff-members-day-walked.md).
 */
export function keyboardToNeighbourOnceGone(
  control: HTMLElement | null,
  selector: string,
  /**
   * For a row that may stay with the control gone (a message's recording deleted, the message still listed): the
   * control of the same row that takes the keyboard then, before any neighbour's.
   */
  inRowThatStays?: string,
): () => void {
  const row = control?.closest('li');
  const places: Array<[Element | null | undefined, string]> = [
    [row?.nextElementSibling, selector],
    [row?.previousElementSibling, selector],
  ];
  if (inRowThatStays) places.unshift([row, inRowThatStays]);
  return onceGone(control, () => {
    for (const [place, wanted] of places) {
      const next = place?.isConnected ? place.querySelector<HTMLElement>(wanted) : null;
      next?.focus();
      if (next && document.activeElement === next) return;
    }
  });
}

/**
 * For a control about to go with the part of the page that holds it, no neighbour taking its place (a dialog's trigger
 * whose confirmed change removes it, a card dismissed): the function returned, called once the change is made, waits
 * for the control to go and puts the keyboard on the page's heading, where it fell to the page's top with the
 * control. Unless the person has put the keyboard somewhere meanwhile (docs/decisions/114-buttons-wait-with-the-keyboard.md).
 */
export function keyboardToPageHeadingOnceGone(control: HTMLElement | null): () => void {
  return onceGone(control, focusPageHeading);
}

/** The function returned waits (up to 60 frames) for `control` to leave the page, then calls `then`, unless the person
 * has put the keyboard somewhere meanwhile. */
function onceGone(control: HTMLElement | null, then: () => unknown): () => void {
  return () => {
    let frames = 60;
    const look = () => {
      if (control?.isConnected) {
        if (--frames > 0) requestAnimationFrame(look);
        return;
      }
      if (document.activeElement && document.activeElement !== document.body) return;
      then();
    };
    requestAnimationFrame(look);
  };
}
