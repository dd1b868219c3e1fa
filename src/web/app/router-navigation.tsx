import { useContext, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Link as RouterLink,
  Outlet,
  ScrollRestoration,
  UNSAFE_DataRouterContext,
  useLocation,
  useNavigate,
  useNavigation,
} from 'react-router';
import { markAppStarted } from '@web/lib/app-started';
import { FloatingSession } from '@web/components/floating-session';
import { NavigationProvider, type Navigate, type Navigation } from '@web/lib/link';
import { portalFrameIsOfAnotherPage, removePortalFrame } from '@web/lib/portal-frame';
import { focusPageHeading } from '@web/lib/page-heading';

function useRouterPathname() {
  return useLocation().pathname;
}

function useRouterSearch() {
  return useLocation().search;
}

function useRouterLocationState(): unknown {
  return useLocation().state;
}

function useRouterNavigate(): Navigate {
  const navigate = useNavigate();
  return (to, options) => void navigate(to, options);
}

const routerNavigation: Navigation = {
  Link: RouterLink,
  usePathname: useRouterPathname,
  useSearch: useRouterSearch,
  useLocationState: useRouterLocationState,
  useNavigate: useRouterNavigate,
};

/** How long a link's #section is looked for: the page it is on may still be loading its code. */
const HASH_WAIT_MS = 3000;

/**
 * The router's scroll restoration scrolls to a link's `#section` (e.g. Learn and Contact on the portal
 * hub) only when the page has it as it renders, and the browser cannot on a first load: when the
 * element is not there yet (the page's code or data still coming), scroll to it once it is.
 */
function useScrollToHash() {
  const { hash, key } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    // There already: scroll restoration (a layout effect, so before this one) has scrolled to it.
    if (!id || document.getElementById(id)) return;
    const until = performance.now() + HASH_WAIT_MS;
    let frame = 0;
    const look = () => {
      const target = document.getElementById(id);
      if (target) target.scrollIntoView({ block: 'start' });
      else if (performance.now() < until) frame = requestAnimationFrame(look);
    };
    look();
    return () => cancelAnimationFrame(frame);
  }, [hash, key]);
}

/**
 * How long a new page's heading is looked for: its code may still be coming; and after the page's last read has
 * answered, for a heading that comes with its data (a program's title), however long the reads took (decision 131).
 */
const HEADING_WAIT_MS = 5000;

/**
 * When a link or a redirect opens another page, the keyboard and a screen reader go to its heading, which
 * is read out: focus stayed on the link of the page before (or fell to the body, the link gone), and nothing
 * said that the page had changed. Not on the first page (the browser starts at the top, the skip link first),
 * nor for a #section (scrolled to), nor when the new page or a dialog has put focus somewhere of its own.
 * The heading is not a control, so it gets no ring (styles.css).
 */
function useFocusHeadingOnNavigation() {
  const { pathname, hash } = useLocation();
  // What had the keyboard as the new page rendered, before it committed: read in the effect, it was already
  // the field a page focuses as it mounts (autoFocus), taken for the old page's and moved to the heading.
  const before = typeof document === 'undefined' ? null : document.activeElement;
  // The page the effect last ran for, the first page to begin with: StrictMode (in development) runs the
  // first page's effect twice, and a flag cleared by the first run let the second focus its heading.
  const pageShown = useRef(pathname + hash);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (pageShown.current === pathname + hash) return;
    pageShown.current = pathname + hash;
    if (hash) return;
    const leftBehind = (focused: Element | null) =>
      !focused ||
      focused === document.body ||
      focused === before ||
      (!focused.closest('#main') && !focused.closest('[role="dialog"], [role="alertdialog"]'));
    let until = performance.now() + HEADING_WAIT_MS;
    let frame = 0;
    const look = () => {
      if (!leftBehind(document.activeElement)) return;
      if (focusPageHeading()) return;
      if (queryClient.isFetching() > 0) until = performance.now() + HEADING_WAIT_MS;
      if (performance.now() < until) frame = requestAnimationFrame(look);
    };
    // A frame later: a dialog that closed with the navigation (the phone's menu) has given focus back first.
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
    // Once a page: `before` is the one of the render that showed it, and a later render's would cancel the look.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [pathname, hash]);
}

/** A portal page's pre-rendered frame goes at once when the app shows another page (signed out: login). */
function useFrameOfThisPageOnly() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (portalFrameIsOfAnotherPage(pathname)) removePortalFrame();
  }, [pathname]);
}

/**
 * Marks the document once the first page has committed and the router is idle (lib/app-started). A redirect the
 * first page makes (the guard's <Navigate>) starts in an effect of that same commit, a child's, so before this one:
 * the router's own state says so where the rendered one does not yet. A move that ends before the next render (Plan &
 * billing dropping `?billing=cancelled`) never shows as one in the rendered state, so until the mark each change of
 * the router's own state brings another look.
 */
function useMarkAppStarted() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const idle = useNavigation().state === 'idle';
  const [routerChanges, setRouterChanges] = useState(0);
  const marked = useRef(false);
  useEffect(() => {
    if (marked.current) return;
    if (idle && (!router || router.state.navigation.state === 'idle')) {
      marked.current = true;
      markAppStarted();
      return;
    }
    return router?.subscribe(() => setRouterChanges((changes) => changes + 1));
  }, [idle, router, routerChanges]);
}

/** Inside the SPA, shared components link through the router (client-side, no document load). */
export function RouterNavigation() {
  useMarkAppStarted();
  useScrollToHash();
  useFrameOfThisPageOnly();
  useFocusHeadingOnNavigation();
  // A new page opens at its top, and Back returns to where the previous one was scrolled.
  return (
    <NavigationProvider value={routerNavigation}>
      <ScrollRestoration />
      <Outlet />
      {/* Above the layouts, so a session in its corner stays the same across the portal's two (floating-session.tsx). */}
      <FloatingSession />
    </NavigationProvider>
  );
}
