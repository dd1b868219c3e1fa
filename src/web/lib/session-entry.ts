// The history entry of its own that the session screen has while it is full size, so that Back (a phone's
// back gesture) stops the session instead of leaving the page (docs/decisions/059-back-stops-the-session-screen.md).
// It is a copy of the page's entry (the router's state, its index plus one) with a mark. The router never
// sees it: it is pushed past the router, and the `popstate` of the Back off it to the page's own entry is kept
// from the router, whose listener comes after this one (spa.tsx adds this one first). One tab has one such
// entry at a time, and never rests on one whose screen is gone.

/** The field of `history.state` that marks the session's entry, holding the token of the screen it belongs to. */
const MARK = 'flashSession';
/**
 * How long a leave waits for the browser to take the entry back before it goes on without. The Back takes a
 * few milliseconds (a median of 8–24 ms in Chromium on two cores at a load of 15, at worst 0.9 s at a load
 * of 30); this only keeps Stop working should a browser drop it.
 */
const LEAVE_WAIT_MS = 2000;

interface Owner {
  token: string;
  /** The page's entry the session's is a copy of: the router's key and index. */
  page: { key: unknown; idx: unknown };
  onBack(): void;
  /** What waits for the entry to be taken back (a leave under way), in the order asked. */
  leaving: (() => void)[] | null;
  timer?: ReturnType<typeof setTimeout>;
}

/** The screen whose entry the tab is on, or was on until a Back it has not seen yet. */
let owner: Owner | null = null;
let listening = false;

const markOf = (state: unknown) => (state as Record<string, unknown> | null)?.[MARK];

function finish(left: Owner) {
  clearTimeout(left.timer);
  if (left.leaving) for (const then of left.leaving) then();
  else left.onBack();
}

function onPopState(event: PopStateEvent) {
  const mark = markOf(window.history.state);
  if (owner) {
    if (mark === owner.token) return;
    // Off the entry: by the Back of a leave (Stop, Escape, In a corner), or by the person's own Back.
    const left = owner;
    owner = null;
    // Back on the page's own entry, the router is where it was all along (it never saw the session's): it is
    // not told, so it neither loads the page's data again nor renders the page with the screen's change.
    const landed = window.history.state as { key?: unknown; idx?: unknown } | null;
    if (landed?.key === left.page.key && landed?.idx === left.page.idx) event.stopImmediatePropagation();
    finish(left);
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
  /**
   * Goes back off the entry, then calls `then`: what the screen does next (stop, go to the corner) waits until
   * the entry is gone, so neither a click on the page made usable nor the screen's next entry can come between
   * the Back and the browser doing it (a link followed there would be undone by it). At once when the tab is not
   * on the entry.
   */
  leave(then: () => void): void;
  /** The screen closed by other means (the session ended elsewhere): the entry goes back at once, if the tab is on it. */
  release(): void;
}

/**
 * Adds the session screen's entry and makes the tab's next move off it (a Back) call `onBack`, unless the
 * screen leaves first.
 */
export function addSessionEntry(onBack: () => void): SessionEntry {
  listen();
  const token = Math.random().toString(36).slice(2, 10);
  const state = window.history.state as { idx?: unknown } | null;
  const idx = typeof state?.idx === 'number' ? state.idx + 1 : state?.idx;
  window.history.pushState({ ...state, idx, [MARK]: token }, '');
  const self: Owner = {
    token,
    page: { key: (state as { key?: unknown } | null)?.key, idx: state?.idx },
    onBack,
    leaving: null,
  };
  owner = self;
  const onEntry = () => owner === self && markOf(window.history.state) === token;
  return {
    leave(then) {
      if (self.leaving) {
        self.leaving.push(then);
        return;
      }
      if (!onEntry()) {
        if (owner === self) owner = null;
        then();
        return;
      }
      self.leaving = [then];
      self.timer = setTimeout(() => {
        if (owner !== self) return;
        owner = null;
        finish(self);
      }, LEAVE_WAIT_MS);
      window.history.back();
    },
    release() {
      if (owner !== self) return;
      const back = onEntry() && !self.leaving;
      owner = null;
      clearTimeout(self.timer);
      if (back) window.history.back();
    },
  };
}
