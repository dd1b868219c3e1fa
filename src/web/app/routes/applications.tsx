import { PageTitle } from '@web/components/page-title';
import { ApplicationsTable } from '@web/features/applications/components/applications-table';

export function Component() {
  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <PageTitle title="Desktop applications">Desktop applications</PageTitle>
        <p className="text-fg-muted">Innerwave for your computer: download the latest version for your system.</p>
      </div>
      <ApplicationsTable />
    </section>
  );
}
