import { PageTitle } from '@web/components/page-title';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12">
      <PageTitle title="Page not found">Page not found</PageTitle>
      <p className="text-fg-muted">
        The page you asked for does not exist. Check the address, or go back to the home page.
      </p>
    </section>
  );
}
