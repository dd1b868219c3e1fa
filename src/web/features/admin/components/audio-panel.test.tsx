import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminAudioItem } from '@shared/contract';
import { ADMIN_API, adminPath, AUDIO_NAME_MAX, DESCRIPTION_MAX } from '@shared/contract/admin';
import { formatInteger } from '@shared/numbers';
import { changedMeanwhileMessage } from '@shared/contract/portal-plain';
import { CONTROL_CHARACTER_REFUSED, DIRECTION_CONTROL_REFUSED } from '@shared/contract/plain';
import { changedMeanwhile } from '@web/components/ui/inline-edit';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { AudioPanel } from './audio-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
afterEach(() => vi.clearAllMocks());

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
  it('hands the keyboard from the last item deleted to the library’s heading (decision 151)', async () => {
    const user = userEvent.setup();
    const items = [tone];
    fakeApi({
      [`GET ${adminPath(ADMIN_API.audioItems, { kind: 'selfeggio' })}`]: () => items,
      [`DELETE ${adminPath(ADMIN_API.audioItem, { kind: 'selfeggio', id: 1 })}`]: () => {
        items.pop();
        return jsonResponse(204);
      },
    });
    renderWithProviders(<AudioPanel />);
    await user.click(await screen.findByRole('button', { name: 'Delete 528 Hz' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Delete 528 Hz' })).toBeNull());
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: /library$/ })).toHaveFocus());
  });

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

  it('keeps a description edited from one another tab changed meanwhile, says what it reads now, and saves it when asked again', async () => {
    const user = userEvent.setup();
    const item = { ...tone };
    const api = fakeApi({
      [`GET ${adminPath(ADMIN_API.audioItems, { kind: 'selfeggio' })}`]: () => [item],
      [`PATCH ${adminPath(ADMIN_API.audioItem, { kind: 'selfeggio', id: 1 })}`]: ({ body }) => {
        const { description, previous_description } = body as { description: string; previous_description: string };
        if (previous_description !== item.description && description !== item.description)
          return jsonResponse(409, { detail: changedMeanwhileMessage('description'), code: 'changed_meanwhile' });
        item.description = description;
        return item;
      },
    });
    renderWithProviders(<AudioPanel />);
    await user.click(await screen.findByRole('button', { name: 'Edit description of 528 Hz' }));
    const field = screen.getByRole('textbox', { name: 'description of 528 Hz' });
    await user.clear(field);
    await user.type(field, 'A bright tone.');
    item.description = 'A soft tone.';

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(changedMeanwhile('A soft tone.'));
    expect(toast.error).not.toHaveBeenCalled();
    expect(field).toHaveValue('A bright tone.');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('A bright tone.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { description: 'A bright tone.', previous_description: 'A warm tone.' },
      { description: 'A bright tone.', previous_description: 'A soft tone.' },
    ]);
  });

  it('says at the field that a description, edited or uploaded, holds a control or direction character, and sends nothing', async () => {
    const user = userEvent.setup();
    const api = fakeApi({ [`GET ${adminPath(ADMIN_API.audioItems, { kind: 'selfeggio' })}`]: () => [tone] });
    renderWithProviders(<AudioPanel />);
    await user.click(await screen.findByRole('button', { name: 'Edit description of 528 Hz' }));
    await user.paste(' \u202eexe');
    expect(screen.getByRole('alert')).toHaveTextContent(DIRECTION_CONTROL_REFUSED);
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');

    await user.type(screen.getByLabelText('Name'), 'Rain');
    await user.click(screen.getByLabelText('Description'));
    await user.paste('Soft\u0007 rain.');
    await user.click(screen.getByRole('button', { name: /^Upload to/ }));
    expect(await screen.findByText(CONTROL_CHARACTER_REFUSED)).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
