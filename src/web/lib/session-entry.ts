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
  page: PageEntry;
  onBack(): void;
  /** What waits for the entry to be taken back (a leave under way), in the order asked. */
  leaving: (() => void)[] | null;
  /** The router's entry that took the session's place while its Back was on its way (`pushPast`). */
  movedTo?: PageEntry;
  /** The router's replace of the session's entry while its Back was on its way, done once it lands (`replacePast`). */
  replaced?: Parameters<History['replaceState']>;
  /** The Back on its way is only for that replace: the screen stays full size, its entry comes back over the page. */
  staying?: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

type PageEntry = { key: unknown; idx: unknown };
const isAt = (state: unknown, entry: PageEntry) => {
  const at = state as Partial<PageEntry> | null;
  return at?.key === entry.key && at?.idx === entry.idx;
};

/** The screen whose entry the tab is on, or was on until a Back it has not seen yet. */
let owner: Owner | null = null;
let listening = false;

const markOf = (state: unknown) => (state as Record<string, unknown> | null)?.[MARK];

function finish(left: Owner) {
  clearTimeout(left.timer);
  if (left.replaced) replace(...left.replaced);
  if (left.staying) {
    left.staying = false;
    left.leaving = null;
    left.replaced = undefined;
    // A push came meanwhile (`pushPast`): the tab goes forward to it, with no entry of the session's over it.
    if (left.movedTo) return;
    // On the page's own entry, replaced: the session's entry comes back over it, a copy of the new page.
    const page = window.history.state as Partial<PageEntry> | null;
    left.page = { key: page?.key, idx: page?.idx };
    owner = left;
    push(entryOf(page, left.token), '');
  } else if (left.leaving) for (const then of left.leaving) then();
  else left.onBack();
}

/** Takes the session's entry back (the tab is on it); `finish` runs once the Back lands, or after LEAVE_WAIT_MS. */
function stepBack(self: Owner, leaving: (() => void)[]) {
  self.leaving = leaving;
  self.timer = setTimeout(() => {
    if (owner !== self) return;
    owner = null;
    finish(self);
  }, LEAVE_WAIT_MS);
  window.history.back();
}

/** The router's entry the tab goes forward to again, after a Back that landed before it (`pushPast`). */
let returningTo: PageEntry | null = null;

function onPopState(event: PopStateEvent) {
  const mark = markOf(window.history.state);
  const returned = returningTo;
  returningTo = null;
  if (returned && isAt(window.history.state, returned)) {
    // Where the router is already.
    event.stopImmediatePropagation();
    return;
  }
  if (owner) {
    if (mark === owner.token) return;
    // Off the entry: by the Back of a leave (Stop, Escape, In a corner), or by the person's own Back.
    const left = owner;
    owner = null;
    // Back on the page's own entry, the router is where it was all along (it never saw the session's): it is
    // not told, so it neither loads the page's data again nor renders the page with the screen's change.
    if (isAt(window.history.state, left.page)) {
      event.stopImmediatePropagation();
      // Unless it has moved on meanwhile: the Back was for the entry the router's new one replaced, and the
      // browser took it to the page before that (Chromium does); the tab goes forward again to the router's.
      if (left.movedTo) {
        returningTo = left.movedTo;
        window.history.forward();
      }
    } else {
      if (left.movedTo && isAt(window.history.state, left.movedTo)) event.stopImmediatePropagation();
      // Further back than the page's own: the router is told of that move, which its replace was not for.
      left.replaced = undefined;
      // The person's own Back came with the one for a replace: it stops the session.
      if (left.staying) {
        left.staying = false;
        left.leaving = null;
      }
    }
    finish(left);
  }
  // On an entry whose screen is gone (Forward after the Back that stopped it): the tab goes back to the page's
  // own, so that nothing changes and the next Back leaves the page.
  else if (mark !== undefined) window.history.back();
}

/** The browser's own `pushState`, which adds the session's entries; everyone else's goes through `pushPast`. */
let push: History['pushState'] = (...args) => window.history.pushState(...args);
/** The browser's own `replaceState`; everyone else's goes through `replacePast`. */
let replace: History['replaceState'] = (...args) => window.history.replaceState(...args);

/**
 * A new entry pushed (by the router: a redirect, signing out in another tab, a session expired) while the tab is on
 * the session's entry takes that entry's place instead of going after it, so the session's entry is never left
 * behind the new page, where a Back would land on it and step on to the page before (a move the person did not
 * make, the router's loaders and redirects twice). The session's entry comes back on top of the new page, so Back
 * still stops a screen that stays full size there; a screen closed by the move takes it back (`release`) as usual.
 * When the screen's Back is on its way already (a leave, or a release: a session expired is ended, then sent to log
 * in), the new page only takes the entry's place, and the tab comes back to it should that Back land before it.
 */
function pushPast(data: unknown, unused: string, url?: string | URL | null) {
  const on = owner;
  if (!on || markOf(window.history.state) !== on.token) {
    push(data, unused, url);
    return;
  }
  // Numbered as the entry it replaces: the router counts one more, from the session's entry it never saw.
  const state = data as Partial<PageEntry> | null;
  const idx = typeof state?.idx === 'number' ? state.idx - 1 : state?.idx;
  const page = state && typeof state === 'object' ? { ...state, idx } : state;
  replace(page, unused, url);
  // The screen leaving full size (its Back on the way), no entry of its own comes back.
  if (on.leaving) on.movedTo = { key: state?.key, idx };
  else {
    on.page = { key: state?.key, idx };
    push(entryOf(page, on.token), '');
  }
}

/**
 * A replace while the tab is on the session's entry (the route guard sending a tab signed out elsewhere to log in,
 * a redirect, a `navigate(…, { replace: true })`) is done on the page's own entry, which is the router's: done at
 * once, it was the session's entry that took the new page and lost its mark, and the page it was to replace stayed
 * behind it, where Back then took the tab, its address under the page the router shows. The session's entry goes
 * back, the replace is done on the page's entry it lands on, and the entry comes back over the new page should the
 * screen stay full size. A leave's Back already on its way (a tab signed out: the session ends, then the guard's
 * replace, on a busy machine first) is the one it waits for.
 */
function replacePast(data: unknown, unused: string, url?: string | URL | null) {
  const on = owner;
  if (!on || markOf(window.history.state) !== on.token) {
    replace(data, unused, url);
    return;
  }
  // Numbered as the page's entry it replaces: the router counts from the session's entry it never saw.
  const state = data as Partial<PageEntry> | null;
  on.replaced = [state && typeof state === 'object' ? { ...state, idx: on.page.idx } : state, unused, url];
  if (on.leaving) return;
  on.staying = true;
  stepBack(on, []);
}

function listen() {
  if (listening) return;
  listening = true;
  window.addEventListener('popstate', onPopState);
  push = window.history.pushState.bind(window.history);
  replace = window.history.replaceState.bind(window.history);
  window.history.pushState = pushPast;
  window.history.replaceState = replacePast;
}

/** The session's entry over the page's entry `state`: a copy of it, one further, with the screen's mark. */
function entryOf(state: unknown, token: string) {
  const page = state as { idx?: unknown } | null;
  const idx = typeof page?.idx === 'number' ? page.idx + 1 : page?.idx;
  return { ...page, idx, [MARK]: token };
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
  /**
   * The screen closed by other means (the session ended elsewhere, signing out): the entry goes back at once, if the
   * tab is on it, by a Back the router is not told of, as a leave's: told, it would take it for a move to the page's
   * own entry and drop the move it may have under way (to log in, when the session expired).
   */
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
  push(entryOf(state, token), '');
  const self: Owner = {
    token,
    page: { key: (state as { key?: unknown } | null)?.key, idx: state?.idx },
    onBack,
    leaving: null,
  };
  owner = self;
  const onEntry = () => owner === self && markOf(window.history.state) === token;
  const leave = (then: () => void) => {
    if (self.leaving) {
      // The Back of a replace on its way (`replacePast`): the screen no longer stays.
      self.staying = false;
      self.leaving.push(then);
      return;
    }
    if (!onEntry()) {
      if (owner === self) owner = null;
      then();
      return;
    }
    stepBack(self, [then]);
  };
  return {
    leave,
    release() {
      if (owner !== self) return;
      // A leave under way: its Back comes, and what waited for it is for a screen that is gone.
      if (self.leaving) {
        self.staying = false;
        self.leaving = [];
      } else if (onEntry()) leave(() => undefined);
      else {
        owner = null;
        clearTimeout(self.timer);
      }
    },
  };
}
