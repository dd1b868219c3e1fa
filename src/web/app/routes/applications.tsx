import { ApplicationsTable } from '@web/features/applications/components/applications-table';
import { ApplicationsPage } from '../portal-pages';

export function Component() {
  return (
    <ApplicationsPage>
      <ApplicationsTable />
    </ApplicationsPage>
  );
}
