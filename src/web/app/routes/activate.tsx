import { PageTitle } from '@web/components/page-title';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12">
      <PageTitle title="Activate your account">Activate your account</PageTitle>
      <p className="text-[var(--fg-muted)]">Verifying account...</p>
    </section>
  );
}
