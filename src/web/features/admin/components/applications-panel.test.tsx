import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AdminApplication } from '@shared/contract';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { ApplicationsPanel } from './applications-panel';

const installer = (id: number, file: string, description: string, sizeBytes = 3 * 1024): AdminApplication => ({
  id,
  application_version: '2.1.0',
  description,
  application_file: `http://localhost/media/applications/${'a'.repeat(64)}${file}?expires=1&signature=x&download=Innerwave-2.1.0${file}`,
  size_bytes: sizeBytes,
  created_at: '2026-12-03T12:00:00Z',
});

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('ApplicationsPanel', () => {
  it('hands the keyboard from the last installer deleted to the list’s heading (decision 151)', async () => {
    const user = userEvent.setup();
    const apps = [installer(2, '.dmg', 'macOS')];
    fakeApi({
      [`GET ${ADMIN_API.applications}`]: () => apps,
      [`DELETE ${adminPath(ADMIN_API.application, { id: 2 })}`]: () => {
        apps.pop();
        return jsonResponse(204);
      },
    });
    renderWithProviders(<ApplicationsPanel />);
    await user.click(await screen.findByRole('button', { name: 'Delete version 2.1.0' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No desktop applications yet.')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Desktop applications' })).toHaveFocus());
  });

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
