import { useEffect, type ReactNode } from 'react';

/** The page's heading, and the document title to match. */
export function PageTitle({ children, title, className }: { children: ReactNode; title: string; className?: string }) {
  useEffect(() => {
    document.title = `${title} · Innerwave`;
  }, [title]);
  return <h1 className={className ?? 'text-3xl font-semibold tracking-tight'}>{children}</h1>;
}
