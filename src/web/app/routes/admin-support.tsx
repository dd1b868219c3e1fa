import { PageTitle } from '@web/components/page-title';
import { SupportPanel } from '@web/features/admin/components/support-panel';

export function Component() {
  return (
    <>
      <PageTitle title="Admin · Support" className="sr-only">
        Support
      </PageTitle>
      <SupportPanel />
    </>
  );
}
