import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminApplication } from '@shared/contract';
import { ADMIN_API } from '@shared/contract/admin';
import { fakeApi, renderWithProviders } from '@web/test/render';
import { ApplicationsPanel } from './applications-panel';

const installer = (id: number, file: string, description: string, sizeBytes = 3 * 1024): AdminApplication => ({
  id,
  application_version: '2.1.0',
  description,
  application_file: `http://localhost/media/applications/${'a'.repeat(64)}${file}?expires=1&signature=x&download=Innerwave-2.1.0${file}`,
  size_bytes: sizeBytes,
  created_at: '2026-12-03T12:00:00Z',
});

describe('ApplicationsPanel', () => {
  it('tells the installers of one version apart by their type, dated as members’ pages write dates', async () => {
    fakeApi({
      [`GET ${ADMIN_API.applications}`]: () => [installer(2, '.dmg', 'macOS'), installer(1, '.exe', 'Windows')],
    });
    renderWithProviders(<ApplicationsPanel />);
    expect(await screen.findByText(/3 KB · \.dmg · added Dec 3, 2026 ·/)).toBeInTheDocument();
    expect(screen.getByText(/3 KB · \.exe · added Dec 3, 2026 ·/)).toBeInTheDocument();
  });

  it('says a size as it is: bytes under a kilobyte, one decimal in megabytes, and a missing file as missing', async () => {
    fakeApi({
      [`GET ${ADMIN_API.applications}`]: () => [
        installer(4, '.deb', 'Tiny', 6),
        installer(3, '.msi', 'Exactly one', 1),
        installer(2, '.zip', 'Big', 1.5 * 1024 * 1024),
        { ...installer(1, '.exe', 'Lost'), size_bytes: null },
      ],
    });
    renderWithProviders(<ApplicationsPanel />);
    expect(await screen.findByText(/^6 bytes · \.deb ·/)).toBeInTheDocument();
    expect(screen.getByText(/^1 byte · \.msi ·/)).toBeInTheDocument();
    expect(screen.getByText(/^1\.5 MB · \.zip ·/)).toBeInTheDocument();
    expect(screen.getByText(/^file missing · \.exe ·/)).toBeInTheDocument();
  });
});
