import { PageTitle } from '@web/components/page-title';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12">
      <PageTitle title="Create your account">Create your account</PageTitle>
      <p className="text-[var(--fg-muted)]">Sign up with your e-mail address; we will send you a link to activate your account.</p>
    </section>
  );
}
