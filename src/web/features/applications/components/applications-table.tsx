import { useQuery } from '@tanstack/react-query';
import { Construction, Download } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { IconBadge } from '@web/components/ui/icon-badge';
import { Spinner } from '@web/components/ui/spinner';
import type { DesktopApplication } from '@shared/contract';
import { describeInstaller, installerType } from '@web/lib/installer';
import { desktopApplicationsQuery } from '../api/desktop-applications';

export const EMPTY_APPLICATIONS =
  'No Records: We have no applications deployed yet, please reload the page or try again later.';
export const WINDOWS_NOT_PUBLISHED = {
  title: 'The Windows app is not published yet',
  text: 'We are still finishing it. As soon as an installer is ready it appears on this page to download. Until then, everything Innerwave offers works here in your browser.',
};
export const APPLICATIONS_LOAD_ERROR = 'There was an error loading the Desktop applications!';

export function ApplicationsTable() {
  const applications = useQuery(desktopApplicationsQuery());

  if (applications.isPending) return <Spinner waitsForServer label="Loading applications" className="py-12" />;
  if (applications.isError) {
    return (
      <p role="alert" className="rounded-2xl border border-danger p-4 text-danger">
        {APPLICATIONS_LOAD_ERROR}
      </p>
    );
  }
  return (
    <>
      {applications.data.length === 0 ? (
        // Said plainly, so nobody waits for a download that does not exist yet (the table's empty
        // row below stays, as the operators' screens expect it).
        <div className="flex gap-4 rounded-3xl border border-line bg-surface-raised p-5 sm:p-6">
          <IconBadge icon={Construction} />
          <div className="flex flex-col gap-1">
            <h2 className="card-heading">{WINDOWS_NOT_PUBLISHED.title}</h2>
            <p className="text-sm text-fg-muted">{WINDOWS_NOT_PUBLISHED.text}</p>
          </div>
        </div>
      ) : null}
      <ApplicationsList applications={applications.data} />
    </>
  );
}

function ApplicationsList({ applications }: { applications: DesktopApplication[] }) {
  return (
    <div className="overflow-x-auto rounded-3xl border border-line bg-surface-raised">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-line text-fg-muted">
          <tr>
            <th scope="col" className="px-5 py-3 font-medium">
              Software Version
            </th>
            {/* On a phone the description goes under the version: three columns left no room for the button. */}
            <th scope="col" className="hidden px-5 py-3 font-medium sm:table-cell">
              Description
            </th>
            <th scope="col" className="px-5 py-3 text-right font-medium">
              Download
            </th>
          </tr>
        </thead>
        <tbody>
          {applications.length === 0 ? (
            <tr>
              <td colSpan={3} className="px-5 py-10 text-center text-fg-muted">
                {EMPTY_APPLICATIONS}
              </td>
            </tr>
          ) : (
            applications.map((application) => {
              const installer = describeInstaller(installerType(application.application_file));
              return (
                <tr key={application.id} className="border-b border-line last:border-0">
                  <td className="px-5 py-4 wrap-anywhere">
                    <span className="font-medium">{application.application_version}</span>
                    {installer ? <span className="block text-fg-muted">{installer}</span> : null}
                    <span className="mt-1 block text-fg-muted sm:hidden">{application.description}</span>
                  </td>
                  <td className="hidden px-5 py-4 text-fg-muted wrap-anywhere sm:table-cell">
                    {application.description}
                  </td>
                  <td className="py-4 pr-5 pl-0 text-right sm:pl-5">
                    <Button asChild size="sm">
                      <a
                        href={application.application_file}
                        download
                        aria-label={`Download ${application.application_version}${installer ? `, ${installer}` : ''}`}
                      >
                        <Download aria-hidden className="h-4 w-4" /> Download
                      </a>
                    </Button>
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
