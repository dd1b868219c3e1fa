import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithProviders } from '@web/test/render';
import { ApplicationsTable, EMPTY_APPLICATIONS, WINDOWS_NOT_PUBLISHED } from './applications-table';

describe('applications', () => {
  it('says plainly that the Windows app is not published while there is no installer', async () => {
    fakeApi({ 'GET /api/user/desktop-executables/': () => [] });
    renderWithProviders(<ApplicationsTable />);
    expect(await screen.findByRole('heading', { name: WINDOWS_NOT_PUBLISHED.title })).toBeInTheDocument();
    expect(screen.getByText(EMPTY_APPLICATIONS)).toBeInTheDocument();
  });

  it('lists a published installer without the notice', async () => {
    fakeApi({
      'GET /api/user/desktop-executables/': () => [
        {
          id: 1,
          application_version: '1.0.0',
          description: 'Windows 10 and 11',
          application_file: 'http://x/media/applications/setup.exe?sig=x',
        },
      ],
    });
    renderWithProviders(<ApplicationsTable />);
    expect(await screen.findByRole('link', { name: 'Download 1.0.0' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: WINDOWS_NOT_PUBLISHED.title })).toBeNull();
  });
});
