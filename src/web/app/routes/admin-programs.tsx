import { PageTitle } from '@web/components/page-title';
import { ProgramsPanel } from '@web/features/admin/components/programs-panel';

export function Component() {
  return (
    <>
      <PageTitle title="Admin · Programs" className="sr-only">
        Programs
      </PageTitle>
      <ProgramsPanel />
    </>
  );
}
