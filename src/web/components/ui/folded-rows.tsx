import { useCallback, useId, useState } from 'react';
import { flushSync } from 'react-dom';
import { formatInteger } from '@shared/numbers';
import { Button } from './button';

// A long list shows its first rows; the others are folded: in the page, where the browser's find finds their text
// (and unfolds the list), but `hidden="until-found"`, so they are neither styled, laid out nor painted, and neither
// Tab nor a screen reader reaches them until "Show the other …" unfolds them. Every frame of a page holding a
// thousand rows (a key typed anywhere in it) took a phone a tenth of a second and more; folded, the page answers
// as if the list were short (docs/decisions/060-a-long-list-shows-its-first-rows.md).

/**
 * The folding of a list of `count` rows, of which the first `shown` show until it is unfolded: by `unfold` ("Show
 * the other …"), or by the browser's find revealing a folded row (its `beforematch`). `list` goes on the list's
 * element (its id and ref).
 */
export function useFoldedRows(count: number, shown: number) {
  const [unfolded, setUnfolded] = useState(false);
  const id = useId();
  const ref = useCallback((element: HTMLElement | null) => {
    if (!element) return;
    // The browser has shown the row it found already; the others follow, and the list stays unfolded.
    const found = (event: Event) => {
      if (event.target instanceof Element) event.target.removeAttribute('aria-hidden');
      setUnfolded(true);
    };
    element.addEventListener('beforematch', found);
    return () => element.removeEventListener('beforematch', found);
  }, []);
  /** Unfolds the list; `focusFirst`: and moves focus to the first row that was folded (its button goes). */
  const unfold = (focusFirst = false) => {
    flushSync(() => setUnfolded(true));
    if (!focusFirst) return;
    const first = document.getElementById(id)?.children[shown];
    first?.querySelector<HTMLElement>('button, input, [tabindex]')?.focus();
  };
  /** Unfolds the list if row `index` is folded (a row moved there); the same function from render to render. */
  const unfoldAt = useCallback(
    (index: number) => {
      if (index >= shown) flushSync(() => setUnfolded(true));
    },
    [shown],
  );
  /**
   * Unfolds the list from the render of its component (rows added among the folded ones, to be seen): setting its
   * state there is allowed, flushSync is not.
   */
  const unfoldInRender = () => {
    if (!unfolded) setUnfolded(true);
  };
  return {
    list: { id, ref },
    isFolded: (index: number) => !unfolded && index >= shown,
    folded: unfolded ? 0 : Math.max(0, count - shown),
    unfold,
    unfoldAt,
    unfoldInRender,
  };
}

/**
 * A row's ref, folding it while `folded`: React writes `hidden` only as present or absent, never "until-found".
 * A folded row takes no room (styles.css), and is no empty item of its list to a screen reader (Chromium exposes
 * the element of hidden="until-found", only its content is hidden).
 */
export function useFold(folded: boolean) {
  return useCallback(
    (row: HTMLElement | null) => {
      if (!row) return;
      if (folded) {
        row.setAttribute('hidden', 'until-found');
        row.setAttribute('aria-hidden', 'true');
      } else {
        row.removeAttribute('hidden');
        row.removeAttribute('aria-hidden');
      }
    },
    [folded],
  );
}

/** A category of messages (one's own, or the library's on staff's screen) shows this many until unfolded. */
export const CATEGORY_ROWS_SHOWN = 20;

/** What the rows of the lists of messages (own categories, the playlist) are called. */
export const MESSAGE_ROWS = { one: 'message', other: 'messages' };

/**
 * "Show the other 80 messages" ("Show the other message" for one): unfolds the list, focus going to the first of
 * them. Nothing while none is folded.
 */
export function ShowFoldedRows({
  folded,
  what,
  onShow,
}: {
  folded: number;
  /** What a row is and what rows are ({ one: 'message', other: 'messages' }). */
  what: { one: string; other: string };
  onShow(focusFirst: boolean): void;
}) {
  if (folded === 0) return null;
  return (
    <Button variant="ghost" size="sm" className="mt-1" onClick={() => onShow(true)}>
      {folded === 1 ? `Show the other ${what.one}` : `Show the other ${formatInteger(folded)} ${what.other}`}
    </Button>
  );
}
