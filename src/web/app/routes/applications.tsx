import { ApplicationsTable } from '@web/features/applications/components/applications-table';
import { ApplicationsPage } from '../portal-pages';
import { desktopApplicationsQuery } from '@web/features/applications/api/desktop-applications';
import type { PageQueries } from '../page-data';

export const pageQueries: PageQueries = () => [desktopApplicationsQuery()];

export function Component() {
  return (
    <ApplicationsPage>
      <ApplicationsTable />
    </ApplicationsPage>
  );
}
