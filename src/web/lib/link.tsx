import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType, type Ref } from 'react';

// The public pages render in two places: inside the SPA's router, and on their own as a pre-rendered
// page's lean entry (home.tsx, login.tsx, …) that ships without the router. Components link and
// navigate through this module, so the SPA supplies the router's links and navigation, and a lean
// page plain links that load the next document (lean-page.tsx adds its hand-over to the SPA).

export type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; ref?: Ref<HTMLAnchorElement> };

export interface NavigateOptions {
  replace?: boolean;
  /** Travels with the history entry (the router's location state), e.g. the address to prefill. */
  state?: unknown;
}
export type Navigate = (to: string, options?: NavigateOptions) => void;

export interface Navigation {
  Link: ComponentType<LinkProps>;
  /** The current path, for marking the link of the page being shown. */
  usePathname: () => string;
  /** The query string, with its `?` (or empty). */
  useSearch: () => string;
  /** The state the current history entry arrived with, if any. */
  useLocationState: () => unknown;
  useNavigate: () => Navigate;
}

export function DocumentLink({ to, ...props }: LinkProps) {
  return <a href={to} {...props} />;
}

const inBrowser = typeof window !== 'undefined';

/** The state the history entry carries, written as the router writes it (`usr`): it outlives a reload. */
export const historyEntryState = (): unknown =>
  inBrowser ? (window.history.state as { usr?: unknown } | null)?.usr : undefined;

/** A lean page's navigation: links and moves load the next document. */
export const documentNavigation: Navigation = {
  Link: DocumentLink,
  usePathname: () => (inBrowser ? window.location.pathname : '/'),
  useSearch: () => (inBrowser ? window.location.search : ''),
  useLocationState: historyEntryState,
  useNavigate: () => (to, options) => {
    if (options?.replace) window.location.replace(to);
    else window.location.assign(to);
  },
};

const NavigationContext = createContext<Navigation>(documentNavigation);

export const NavigationProvider = NavigationContext.Provider;

export function Link(props: LinkProps) {
  const { Link: Implementation } = useContext(NavigationContext);
  return <Implementation {...props} />;
}

export function usePathname() {
  return useContext(NavigationContext).usePathname();
}

/** The current URL's query parameters. */
export function useSearchParams(): URLSearchParams {
  return new URLSearchParams(useContext(NavigationContext).useSearch());
}

export function useLocationState(): unknown {
  return useContext(NavigationContext).useLocationState();
}

export function useNavigate(): Navigate {
  return useContext(NavigationContext).useNavigate();
}
