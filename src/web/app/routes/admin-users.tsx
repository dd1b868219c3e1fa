import { PageTitle } from '@web/components/page-title';
import { UsersPanel } from '@web/features/admin/components/users-panel';

export function Component() {
  return (
    <>
      <PageTitle title="Admin · Users" className="sr-only">
        Users
      </PageTitle>
      <UsersPanel />
    </>
  );
}
