import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatBytes } from '@shared/bytes';
import { exportBytes } from '@web/lib/audio/export';
import { renderWithProviders } from '@web/test/render';
import { ExportDialog } from './export-dialog';

vi.mock('@web/lib/audio/use-sound-engine', () => ({
  useSoundEngine: () => ({
    layers: [{ id: 'noise', source: { kind: 'noise', colour: 'brown' }, gain: 0.5, status: 'ready' }],
  }),
}));

describe('ExportDialog', () => {
  it('says the file’s size as every size is written, in the one formatter’s words (decision 092)', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ExportDialog />);
    await user.click(screen.getByRole('button', { name: 'Export audio' }));
    const dialog = screen.getByRole('dialog', { name: 'Export the session as audio' });
    // A minute is 10,584,044 bytes: 10.1 MB as the profile, the music and staff's screens count, not "11 MB".
    expect(dialog).toHaveTextContent('About 10.1 MB.');
    await user.click(screen.getByRole('button', { name: '60 min' }));
    // Read with its spaces made plain; written with the number and its unit on one line.
    expect(dialog).toHaveTextContent('About 605.6 MB.');
    expect(dialog.textContent).toContain(`About ${formatBytes(exportBytes(3600))}.`);
  });
});
