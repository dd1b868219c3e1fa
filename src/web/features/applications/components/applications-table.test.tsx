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
    expect(await screen.findByRole('link', { name: 'Download 1.0.0, Windows (.exe)' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: WINDOWS_NOT_PUBLISHED.title })).toBeNull();
  });

  it('tells apart the installers of one version by the system they are for', async () => {
    const installer = (id: number, file: string) => ({
      id,
      application_version: '2.1.0',
      description: 'Calmer sessions',
      application_file: `http://x/media/applications/${file}?expires=1&signature=a.b`,
    });
    fakeApi({
      'GET /api/user/desktop-executables/': () => [
        installer(1, 'Innerwave-Setup.exe'),
        installer(2, 'Innerwave.dmg'),
        installer(3, 'Innerwave.AppImage'),
        installer(4, 'Innerwave.zip'),
      ],
    });
    renderWithProviders(<ApplicationsTable />);
    await screen.findAllByRole('link', { name: /^Download 2\.1\.0/ });
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('aria-label'))).toEqual([
      'Download 2.1.0, Windows (.exe)',
      'Download 2.1.0, macOS (.dmg)',
      'Download 2.1.0, Linux (.AppImage)',
      'Download 2.1.0, .zip',
    ]);
    expect(screen.getByText('macOS (.dmg)')).toBeInTheDocument();
  });
});
