import { PageTitle } from '@web/components/page-title';
import { ApplicationsPanel } from '@web/features/admin/components/applications-panel';

export function Component() {
  return (
    <>
      <PageTitle title="Admin · Applications" className="sr-only">
        Applications
      </PageTitle>
      <ApplicationsPanel />
    </>
  );
}
