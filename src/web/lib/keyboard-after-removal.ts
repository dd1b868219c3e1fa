import type { QueryClient } from '@tanstack/react-query';
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
  /**
   * For a list that may be left empty (a category's last message deleted): what takes the keyboard when no row is
   * left beside the one that went (the field that adds a message to that category, or the list's heading). Given
   * nothing, or what it gives not taking the keyboard, the page's heading takes it
   * (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
   */
  whenNoneLeft?: () => HTMLElement | null,
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
    const last = whenNoneLeft?.();
    last?.focus();
    if (!last || document.activeElement !== last) focusPageHeading();
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

/**
 * For a control outside any list whose change removes it, with a control of its own part of the page that the person
 * would turn to next (the profile's "Edit profile", where a new picture is chosen, once the picture's remove button
 * has gone): the function returned, called once the change is made, waits for the control to go and puts the keyboard
 * on what `find` finds, or on the page's heading when that is not on the page, where it fell to the page's top. Unless
 * the person has put the keyboard somewhere meanwhile
 * (docs/decisions/135-a-removed-image-a-paused-read-and-an-outsiders-pass.md).
 */
export function keyboardToOnceGone(control: HTMLElement | null, find: () => HTMLElement | null): () => void {
  return onceGone(control, () => {
    const next = find();
    next?.focus();
    if (!next || document.activeElement !== next) focusPageHeading();
  });
}

/**
 * For a control that goes with the page under it as the page is shown anew (a route error's "Try again"): the function
 * returned, called once the page's code has come, waits for the control to go, then for the page's reads to answer,
 * however long the network takes (a program's page has its heading, the program's title, only once the program is
 * read), and puts the keyboard on the page's heading. Unless the person has put the keyboard somewhere meanwhile
 * (docs/decisions/131-a-hand-over-waits-for-the-answer.md).
 */
export function keyboardToPageHeadingOnceRead(control: HTMLElement | null, queryClient: QueryClient): () => void {
  return onceGone(control, () => focusPageHeadingOnceRead(queryClient));
}

/** Frames the heading is looked for once nothing is read: the render of what came, not the network's time. */
const RENDER_FRAMES = 10;

/**
 * Whether any read runs or waits for the connection: TanStack Query pauses a read while the browser is offline
 * (`fetchStatus` "paused", not counted by `isFetching`) and runs it once back online, and the page's heading may come
 * only with its answer (docs/decisions/135-a-removed-image-a-paused-read-and-an-outsiders-pass.md).
 */
const reading = (queryClient: QueryClient): boolean =>
  queryClient.isFetching() > 0 || queryClient.getQueryCache().findAll({ fetchStatus: 'paused' }).length > 0;

/**
 * Puts the keyboard on the page's heading once it shows: looked for again after each answer while anything is read
 * or waits for the connection, then for a few frames, unless the person has put the keyboard somewhere meanwhile.
 */
function focusPageHeadingOnceRead(queryClient: QueryClient): void {
  let frames = RENDER_FRAMES;
  const look = () => {
    if (document.activeElement && document.activeElement !== document.body) return;
    if (focusPageHeading()) return;
    if (reading(queryClient)) {
      frames = RENDER_FRAMES;
      const stop = queryClient.getQueryCache().subscribe(() => {
        if (reading(queryClient)) return;
        stop();
        requestAnimationFrame(look);
      });
      return;
    }
    if (--frames > 0) requestAnimationFrame(look);
  };
  look();
}

/**
 * For a control an Undo brings back (a support request marked handled by a slip, back on the list once the list is
 * read again): read now where the keyboard is; the function returned, called once the change is made and what it
 * changed read again, puts the keyboard on what `find` finds as soon as it shows (the render of what was read),
 * unless the person has put the keyboard somewhere else meanwhile
 * (docs/decisions/131-a-hand-over-waits-for-the-answer.md).
 */
export function keyboardToWhatComesBack(find: () => HTMLElement | null): () => void {
  const from = document.activeElement;
  return () => {
    let frames = RENDER_FRAMES;
    const look = () => {
      const focused = document.activeElement;
      if (focused && focused !== document.body && focused !== from) return;
      const control = find();
      if (control) control.focus();
      else if (--frames > 0) requestAnimationFrame(look);
    };
    look();
  };
}

/** What the keyboard can land on: a link, a field or a button that is not disabled. */
const CONTROL =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * For a control whose part of the page is about to be replaced by what was being waited for (a list's "Try again" whose
 * error message gives way to the list read again): read now where that part stands among its siblings; the function
 * returned, called once it has settled, waits for the control to go and puts the keyboard on the first control of what
 * took its place, or on the page's heading when that holds none. Unless the person has put the keyboard somewhere
 * meanwhile, or the control stayed (the read failed again) (docs/decisions/119-a-lists-try-again-keeps-the-keyboard.md).
 */
export function keyboardToWhatReplacesOnceGone(control: HTMLElement | null, part: Element | null): () => void {
  const parent = part?.parentNode;
  const before = part?.previousSibling;
  const after = part?.nextSibling;
  return onceGone(control, () => {
    if (parent?.isConnected) {
      let node = before?.parentNode === parent ? before.nextSibling : parent.firstChild;
      for (; node && !(after?.parentNode === parent && node === after); node = node.nextSibling) {
        if (!(node instanceof HTMLElement)) continue;
        const first = [node, ...node.querySelectorAll<HTMLElement>(CONTROL)].find(
          (element) => element.matches(CONTROL) && element.checkVisibility(),
        );
        first?.focus();
        if (first && document.activeElement === first) return;
      }
    }
    focusPageHeading();
  });
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
