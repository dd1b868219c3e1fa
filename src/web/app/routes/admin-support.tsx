import { PageTitle } from '@web/components/page-title';
import { BackupsPanel } from '@web/features/admin/components/backups-panel';
import { JobsPanel } from '@web/features/admin/components/jobs-panel';
import { SupportPanel } from '@web/features/admin/components/support-panel';

export function Component() {
  return (
    <>
      <PageTitle title="Admin · Support" className="sr-only">
        Support
      </PageTitle>
      <SupportPanel />
      <JobsPanel />
      <BackupsPanel />
    </>
  );
}
