import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminApplication } from '@shared/contract';
import { ADMIN_API } from '@shared/contract/admin';
import { fakeApi, renderWithProviders } from '@web/test/render';
import { ApplicationsPanel } from './applications-panel';

const installer = (id: number, file: string, description: string): AdminApplication => ({
  id,
  application_version: '2.1.0',
  description,
  application_file: `http://localhost/media/applications/${'a'.repeat(64)}${file}?expires=1&signature=x&download=Innerwave-2.1.0${file}`,
  size_bytes: 3 * 1024,
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
});
