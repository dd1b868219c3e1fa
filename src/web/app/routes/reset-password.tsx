import { PageTitle } from '@web/components/page-title';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12">
      <PageTitle title="Reset your password">Reset your password</PageTitle>
      <p className="text-[var(--fg-muted)]">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
    </section>
  );
}
