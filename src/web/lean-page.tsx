import './lib/zod-csp';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { markAppStarted, unmarkAppStarted } from './lib/app-started';
import { replayEarlyClicks, takeEarlyClicks } from './lib/early-clicks';
import { setHandOverRetry } from './lib/hand-over';
import type * as SpaModule from './spa';
import type { InitialQuery } from './lib/early-reads';
import { documentNavigation, NavigationProvider, type Navigate, type Navigation } from './lib/link';
import { removePortalFrame } from './lib/portal-frame';
import { sessionStore } from './lib/session';
import { toasterHost } from './lib/toaster-host';
import './fonts.css';
import './styles.css';

interface LeanPageOptions {
  /**
   * Pages that wear the portal's chrome for someone signed in (AdaptiveLayout), or show them something
   * else (login), load the SPA instead, which replaces the signed-out rendering.
   */
  spaWhenSignedIn?: boolean;
  /** Render afresh instead of hydrating: the page will differ from its pre-rendering (a plan in the URL). */
  fresh?: boolean;
  /** The page says things in toasts (the account forms): a toaster mounts once someone uses the page. */
  toasts?: boolean;
  /**
   * With `spaWhenSignedIn`: the queries of the page the app opens on (its route's `pageQueries`), asked for beside
   * the app's code for someone signed in (lib/early-reads.ts). Imported then: a visitor's page loads none of it.
   */
  pageQueries?: () => Promise<readonly InitialQuery[]>;
}

/**
 * Starts a pre-rendered page (home, legal pages, portal hub, account forms: see build/pages.ts) with
 * React alone — no router, query client or API contract; links load the next page's document
 * (lib/link). A move the page makes itself (after login, after sign-up) hands over to the SPA in
 * place: the history entry is written as the router writes it (its state included) and the SPA
 * starts there, so what follows is what an in-app move does (docs/decisions/020-lean-pre-rendered-auth-pages.md).
 * The build renders the page into #root; the dev server does not, so it is rendered from scratch there.
 */
export function startLeanPage(page: ReactNode, options: LeanPageOptions = {}) {
  const { spaWhenSignedIn = false, fresh = false, toasts = false, pageQueries } = options;
  const container = document.getElementById('root');
  if (!container) throw new Error('the page has no #root element');
  const earlyClicks = takeEarlyClicks();
  if (spaWhenSignedIn && sessionStore.get().isAuthenticated) {
    if (pageQueries)
      void Promise.all([import('./lib/early-reads'), pageQueries()]).then(
        ([{ startEarlyReads }, queries]) => startEarlyReads(queries),
        // Code that did not come: the app, once it has, asks for its data itself.
        () => undefined,
      );
    withSpa(({ startSpa }) => startSpa(container));
    return;
  }
  // A session that ended (in another tab) after the document put the portal's frame in place.
  removePortalFrame();
  if (toasts) mountToasterOnFirstUse();
  let root: Root | undefined;
  const handOver: Navigate = (to, options = {}) => {
    withSpa(({ startSpa }) => {
      const index = (window.history.state as { idx?: unknown } | null)?.idx;
      const at = typeof index === 'number' ? index : 0;
      const entry = { usr: options.state ?? null, key: Math.random().toString(36).slice(2, 10), idx: at + 1 };
      if (options.replace) window.history.replaceState({ ...entry, idx: at }, '', to);
      else window.history.pushState(entry, '', to);
      startSpa(container, () => root?.unmount());
    });
  };
  const navigation: Navigation = { ...documentNavigation, useNavigate: () => handOver };
  const tree = (
    <StrictMode>
      <NavigationProvider value={navigation}>
        <ReplayEarlyClicks buttons={earlyClicks}>{page}</ReplayEarlyClicks>
      </NavigationProvider>
    </StrictMode>
  );
  if (container.hasChildNodes() && !fresh) root = hydrateRoot(container, tree);
  else {
    const typed = typedFields(container);
    root = createRoot(container);
    const rendered = root;
    flushSync(() => rendered.render(tree));
    restoreTypedFields(container, typed);
  }
}

type Spa = typeof SpaModule;

/** The page has begun handing over to the SPA: its start is the SPA's, which marks it (lib/app-started). */
let handingOver = false;

/** The SPA's code, asked for once at a time: a Try again and the browser's return online share a request under way. */
let spaArriving: Promise<Spa> | undefined;
const loadSpa = () =>
  (spaArriving ??= import('./spa').finally(() => {
    spaArriving = undefined;
  }));

/**
 * Runs `start` once the SPA's code has come. Code that could not be fetched (offline, or the connection dropped
 * after the document came) is asked for again when the browser is back online, or on the page's Try again
 * (lib/hand-over), whose second failure while online reloads the document, as the SPA's pages do
 * (app/page-unavailable.tsx): a release since may have renamed the files. Before, the page stayed as it was for
 * good, a share page with sound showing only its top (docs/decisions/093-a-hand-over-waits-for-the-connection.md).
 */
function withSpa(start: (spa: Spa) => void) {
  handingOver = true;
  let started = false;
  const attempt = (reloadIfStillMissing: boolean) => {
    // The app that starts now is the SPA (lib/app-started); until its code has come, the page waits, started.
    unmarkAppStarted();
    window.removeEventListener('online', onOnline);
    loadSpa().then(
      (spa) => {
        if (started) return;
        started = true;
        setHandOverRetry(null);
        start(spa);
      },
      () => {
        if (started) return;
        if (reloadIfStillMissing && navigator.onLine) {
          window.location.reload();
          return;
        }
        window.addEventListener('online', onOnline);
        setHandOverRetry(() => attempt(true));
        markAppStarted();
      },
    );
  };
  const onOnline = () => attempt(false);
  attempt(false);
}

interface TypedField {
  name: string;
  value: string;
  checked: boolean;
  focused: boolean;
  selection: [number | null, number | null] | undefined;
}

/**
 * What the person typed or ticked in the pre-rendered page's form before its script came. A page rendered
 * afresh (a plan or a share page to come back to in the URL) replaces those inputs, and what was typed in
 * them went with them: the e-mail and password of a visitor quicker than a slow connection.
 */
function typedFields(container: HTMLElement): TypedField[] {
  return [...container.querySelectorAll<HTMLInputElement>('input[name]')].map((input) => ({
    name: input.name,
    value: input.value,
    checked: input.checked,
    focused: input === document.activeElement,
    selection: input.type === 'checkbox' ? undefined : [input.selectionStart, input.selectionEnd],
  }));
}

/** Puts what was typed back into the new page's inputs of the same names, focus and caret included. */
function restoreTypedFields(container: HTMLElement, typed: TypedField[]) {
  const inputs = new Map(
    [...container.querySelectorAll<HTMLInputElement>('input[name]')].map((input) => [input.name, input]),
  );
  for (const field of typed) {
    const input = inputs.get(field.name);
    if (!input) continue;
    if (input.type === 'checkbox') input.checked = field.checked;
    else if (field.value) input.value = field.value;
    if (field.focused) {
      input.focus();
      if (field.selection) input.setSelectionRange(field.selection[0], field.selection[1]);
    }
  }
}

/**
 * Clicks the buttons clicked before the script came (lib/early-clicks) once the page is hydrated: a task
 * after the first effects, so that the render React does with the browser's values (the theme, for one)
 * has given each button its handler. It wraps the page rather than sitting beside it: a sibling would
 * change the ids useId gives, and they would no longer match the pre-rendered HTML. It also marks the page's start.
 */
function ReplayEarlyClicks({ buttons, children }: { buttons: HTMLButtonElement[]; children: ReactNode }) {
  useEffect(() => {
    // The page's first render has committed, its effects run (lib/app-started); a hand-over begun in one of them
    // (a share page with sound) leaves the mark to the SPA.
    if (!handingOver) markAppStarted();
    const timer = setTimeout(() => replayEarlyClicks(buttons), 0);
    return () => clearTimeout(timer);
  }, [buttons]);
  return children;
}

/**
 * The toaster (sonner) loads on the first focus, tap or key rather than with the page; a message waits
 * for it (lib/toast). It stays through a hand-over to the SPA, which then mounts none (lib/toaster-host).
 */
function mountToasterOnFirstUse() {
  toasterHost.mountedByLeanPage = true;
  let mounted: Promise<void> | undefined;
  const mount = () =>
    (mounted ??= import('./app/themed-toaster').then(({ default: ThemedToaster }) => {
      const host = document.createElement('div');
      document.body.append(host);
      const root = createRoot(host);
      flushSync(() => root.render(<ThemedToaster />));
      // Its subscription to messages starts in an effect: let that run before saying anything.
      return new Promise<void>((resolve) => setTimeout(resolve, 0));
    }));
  toasterHost.ready = mount;
  const events = ['focusin', 'pointerdown', 'keydown'] as const;
  const onFirstUse = () => {
    for (const type of events) document.removeEventListener(type, onFirstUse, true);
    void mount();
  };
  for (const type of events) document.addEventListener(type, onFirstUse, { capture: true, passive: true });
}
