import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@web/test/render';
import { ExportDialog } from './export-dialog';

vi.mock('@web/lib/audio/use-sound-engine', () => ({
  useSoundEngine: () => ({
    layers: [{ id: 'noise', source: { kind: 'noise', colour: 'brown' }, gain: 0.5, status: 'ready' }],
  }),
}));

describe('ExportDialog', () => {
  it('says the file’s size as every size is written, in the one formatter’s words (decisions 092, 097)', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ExportDialog />);
    await user.click(screen.getByRole('button', { name: 'Export audio' }));
    const dialog = screen.getByRole('dialog', { name: 'Export the session as audio' });
    // A minute is 10,584,044 bytes: 10.1 MB as the profile, the music and staff's screens count, not "11 MB".
    expect(dialog).toHaveTextContent('About 10.1 MB.');
    await user.click(screen.getByRole('button', { name: '60 min' }));
    // 635,040,044 bytes: an estimate of hundreds of megabytes is read whole, not "605.6 MB" (decision 097);
    // written with the number and its unit on one line.
    expect(dialog.textContent).toContain('About 606\u00a0MB.');
  });
});
