// The history entry of its own that the session screen has while it is full size, so that Back (a phone's
// back gesture) stops the session instead of leaving the page (docs/decisions/059-back-stops-the-session-screen.md).
// It is a copy of the page's entry (the router's state, its index plus one) with a mark, and the router takes
// it for the page it shows. One tab has one such entry at a time, and never rests on one whose screen is gone.

/** The field of `history.state` that marks the session's entry, holding the token of the screen it belongs to. */
const MARK = 'flashSession';
interface Owner {
  token: string;
  onBack(): void;
}

/** The screen whose entry the tab is on, or was on until a Back it has not seen yet. */
let owner: Owner | null = null;
let listening = false;

const markOf = (state: unknown) => (state as Record<string, unknown> | null)?.[MARK];

function onPopState() {
  const mark = markOf(window.history.state);
  if (owner) {
    if (mark === owner.token) return;
    // Off the entry: the person's Back.
    const left = owner;
    owner = null;
    left.onBack();
  }
  // On an entry whose screen is gone (Forward after the Back that stopped it): the tab goes back to the page's
  // own, so that nothing changes and the next Back leaves the page.
  else if (mark !== undefined) window.history.back();
}

function listen() {
  if (!listening) window.addEventListener('popstate', onPopState);
  listening = true;
}

/**
 * Called as the app starts (spa.tsx): a reload during a full-size session leaves the tab on the session's entry,
 * and no session survives a load, so the tab goes back to the page's own entry (the same document: no load).
 * From then on the tab steps off any such entry it lands on.
 */
export function leaveSessionEntryBehind(): void {
  listen();
  if (!owner && markOf(window.history.state) !== undefined) window.history.back();
}

export interface SessionEntry {
  /** The screen closed or went to the corner: the entry goes back, if the tab is on it. */
  release(): void;
}

/** Adds the session screen's entry and makes the tab's next move off it (a Back) call `onBack`. */
export function addSessionEntry(onBack: () => void): SessionEntry {
  listen();
  const token = Math.random().toString(36).slice(2, 10);
  const state = window.history.state as { idx?: unknown } | null;
  const idx = typeof state?.idx === 'number' ? state.idx + 1 : state?.idx;
  window.history.pushState({ ...state, idx, [MARK]: token }, '');
  const self: Owner = { token, onBack };
  owner = self;
  return {
    release() {
      if (owner !== self) return;
      owner = null;
      if (markOf(window.history.state) === token) window.history.back();
    },
  };
}
