import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType, type Ref } from 'react';

// The public pages render in two places: inside the SPA's router, and on their own as the lean home
// page entry (home.tsx) that ships without the router. Components link through this module, so the
// SPA supplies client-side links and the home page plain links that load the SPA document.

export type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; ref?: Ref<HTMLAnchorElement> };

interface Navigation {
  Link: ComponentType<LinkProps>;
  /** The current path, for marking the link of the page being shown. */
  usePathname: () => string;
}

function DocumentLink({ to, ...props }: LinkProps) {
  return <a href={to} {...props} />;
}

const NavigationContext = createContext<Navigation>({
  Link: DocumentLink,
  usePathname: () => (typeof window === 'undefined' ? '/' : window.location.pathname),
});

export const NavigationProvider = NavigationContext.Provider;

export function Link(props: LinkProps) {
  const { Link: Implementation } = useContext(NavigationContext);
  return <Implementation {...props} />;
}

export function usePathname() {
  return useContext(NavigationContext).usePathname();
}
