import type { ComponentProps, ReactNode } from 'react';
import { PageTitle } from '@web/components/page-title';
import { Link } from '@web/lib/link';

/** The frame of every account screen: a calm card centred on the page. */
export function AuthCard({
  title,
  intro,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="flex justify-center px-4 py-12 sm:py-20">
      <div className="w-full max-w-md rounded-3xl border border-line bg-surface-raised p-6 shadow-xl shadow-night-950/5 sm:p-8 dark:shadow-night-950/40">
        <PageTitle title={title} className="text-2xl font-semibold tracking-tight">
          {title}
        </PageTitle>
        {intro ? <p className="mt-2 text-sm text-fg-muted">{intro}</p> : null}
        <div className="mt-6">{children}</div>
        {footer ? <div className="mt-6 border-t border-line pt-5 text-sm text-fg-muted">{footer}</div> : null}
      </div>
    </section>
  );
}

export const linkClass = 'font-medium text-link underline-offset-4 hover:underline';

/** The card's footer: a short question and the link that answers it. */
export function AuthFooterLink({ lead, to, children }: { lead: string; to: string; children: ReactNode }) {
  return (
    <>
      {lead}{' '}
      <Link to={to} className={linkClass}>
        {children}
      </Link>
    </>
  );
}

/** The form of an account screen: the browser's own validation off, the schema's messages instead. */
export function AuthForm(props: Omit<ComponentProps<'form'>, 'className' | 'noValidate'>) {
  // POST, should the browser ever send it itself: the values never go into a URL.
  return <form noValidate method="post" className="flex flex-col gap-4" {...props} />;
}
