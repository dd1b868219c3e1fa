import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { ResetConfirmForm } from './reset-confirm-form';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('reset confirm form', () => {
  it('names a login since the mail among the reasons a link no longer works, as the mail warned', async () => {
    const user = userEvent.setup();
    fakeApi({
      [`POST ${API.resetPasswordConfirm}`]: () => jsonResponse(400, { token: ['Invalid token for given user.'] }),
    });
    renderWithProviders(<ResetConfirmForm uid="MQ" token="t" />, {
      path: '/password-reset/MQ/t',
      pattern: '/password-reset/:uid/:token',
    });
    await user.type(screen.getByLabelText('New password'), 'Calm-Waters-2026');
    await user.type(screen.getByLabelText('Confirm new password'), 'Calm-Waters-2026{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link is no longer valid: it was used already, it expired, you logged in since it was sent, or it was copied incompletely.',
    );
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/resetpassword/');
  });
});
