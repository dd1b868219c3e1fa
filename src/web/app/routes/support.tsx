import { PageTitle } from '@web/components/page-title';
import { SupportForm } from '@web/features/support/components/support-form';

export function Component() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Support">Support</PageTitle>
        <p className="text-fg-muted">Tell us what went wrong or what you need; the form is open at any hour.</p>
      </div>
      <div className="rounded-2xl border border-line bg-surface-raised p-4 sm:p-6">
        <SupportForm />
      </div>
    </section>
  );
}
