import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminAudioItem } from '@shared/contract';
import { ADMIN_API, adminPath, AUDIO_NAME_MAX, DESCRIPTION_MAX } from '@shared/contract/admin';
import { formatInteger } from '@shared/numbers';
import { fakeApi, renderWithProviders } from '@web/test/render';
import { AudioPanel } from './audio-panel';

const tone: AdminAudioItem = {
  id: 1,
  kind: 'selfeggio',
  name: '528 Hz',
  description: 'A warm tone.',
  cover_image: null,
  audio_file: '/media/audio/528.ogg',
  position: 0,
  date_added: '2026-12-01T10:00:00Z',
};

describe('AudioPanel', () => {
  it('counts a name and a description edited in place near their limits, and saves none over them', async () => {
    const user = userEvent.setup();
    const api = fakeApi({ [`GET ${adminPath(ADMIN_API.audioItems, { kind: 'selfeggio' })}`]: () => [tone] });
    renderWithProviders(<AudioPanel />);

    await user.click(await screen.findByRole('button', { name: 'Edit name of 528 Hz' }));
    // The edit begins at the end of the name ("528 Hz", 6 characters).
    await user.paste('n'.repeat(AUDIO_NAME_MAX - 5));
    expect(screen.getByText(`${AUDIO_NAME_MAX + 1} / ${AUDIO_NAME_MAX}`)).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(`no more than ${AUDIO_NAME_MAX} characters`);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Edit description of 528 Hz' }));
    await user.paste('d'.repeat(DESCRIPTION_MAX - 11)); // after "A warm tone." (12)
    expect(
      screen.getByText(`${formatInteger(DESCRIPTION_MAX + 1)} / ${formatInteger(DESCRIPTION_MAX)}`),
    ).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(`no more than ${formatInteger(DESCRIPTION_MAX)} characters`);
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
