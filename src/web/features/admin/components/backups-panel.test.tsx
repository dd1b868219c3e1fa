import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminBackupStatus } from '@shared/contract';
import { ADMIN_API } from '@shared/contract/admin';
import { formatBytes } from '@shared/bytes';
import { formatDateTime } from '@web/lib/dates';
import { fakeApi, renderWithProviders } from '@web/test/render';
import { BackupsPanel } from './backups-panel';

const scheduled = (fields: Partial<AdminBackupStatus> = {}): AdminBackupStatus => ({
  database: 'embedded',
  scheduled: true,
  dir: '/srv/innerwave-backups',
  at: '03:00',
  every_seconds: null,
  keep: 7,
  count: 3,
  last: {
    name: 'innerwave-backup-2026-12-07T03-00-00Z.tar.gz',
    taken_at: '2026-12-07T03:00:00.000Z',
    bytes: 9_600_000,
  },
  last_failure: null,
  next_at: '2026-12-08T03:00:00.000Z',
  dir_error: null,
  ...fields,
});

/** The text beside a row's label. */
const row = async (label: string) =>
  (await screen.findByText(label, { selector: 'dt' })).nextElementSibling as HTMLElement;

describe('BackupsPanel', () => {
  it('shows the schedule, the folder, the last backup with its size and the next time', async () => {
    fakeApi({ [`GET ${ADMIN_API.backups}`]: () => scheduled() });
    renderWithProviders(<BackupsPanel />);
    expect(await row('Backups')).toHaveTextContent('On');
    expect(await row('Folder')).toHaveTextContent('/srv/innerwave-backups');
    expect(await row('Schedule')).toHaveTextContent('Daily at 03:00 UTC, the newest 7 kept');
    expect((await row('Last backup')).textContent).toBe(
      `${formatDateTime('2026-12-07T03:00:00.000Z')} · ${formatBytes(9_600_000)} (3 kept)`,
    );
    expect(await row('Last failure')).toHaveTextContent('None since the server started');
    expect(await row('Next backup')).toHaveTextContent(formatDateTime('2026-12-08T03:00:00.000Z'));
  });

  it('shows a failure after the last backup in red with its reason, and one before it as past', async () => {
    const failure = { at: '2026-12-07T09:00:00.000Z', reason: 'ENOSPC: no space left on device, write' };
    let answer = scheduled({ at: null, every_seconds: 21_600, last_failure: failure });
    fakeApi({ [`GET ${ADMIN_API.backups}`]: () => answer });
    const { unmount } = renderWithProviders(<BackupsPanel />);
    expect(await row('Schedule')).toHaveTextContent('Every 6 hours, the newest 7 kept');
    const failed = await row('Last failure');
    expect(failed).toHaveTextContent(`${formatDateTime(failure.at)}ENOSPC: no space left on device, write`);
    expect(within(failed).getByText(formatDateTime(failure.at))).toHaveClass('text-danger');
    expect(failed).not.toHaveTextContent('since');
    unmount();

    answer = scheduled({ last_failure: { ...failure, at: '2026-12-06T03:00:00.000Z' } });
    renderWithProviders(<BackupsPanel />);
    const past = await row('Last failure');
    expect(past).toHaveTextContent('(a backup has been taken since)');
    expect(within(past).getByText(formatDateTime('2026-12-06T03:00:00.000Z'))).not.toHaveClass('text-danger');
  });

  it('says when backups are off, and on PostgreSQL that pg_dump backs the database up', async () => {
    const off = scheduled({ scheduled: false, dir: null, at: null, keep: null, count: 0, last: null, next_at: null });
    let answer = off;
    fakeApi({ [`GET ${ADMIN_API.backups}`]: () => answer });
    const { unmount } = renderWithProviders(<BackupsPanel />);
    expect(
      await screen.findByText(/Off: the server takes no backups on its own \(BACKUP_DIR is not set\)/),
    ).toBeVisible();
    expect(screen.queryByText('Folder')).toBeNull();
    unmount();
    answer = { ...off, database: 'postgresql' };
    renderWithProviders(<BackupsPanel />);
    expect(await screen.findByText(/The database is on PostgreSQL: back it up with pg_dump/)).toBeVisible();
  });
});
