import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { AUTH_MESSAGES } from '../messages';
import { ResetRequestForm } from './reset-request-form';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

afterEach(() => vi.mocked(toast.success).mockClear());

describe('reset request form', () => {
  it('sends one request however often Enter is pressed in its field while the server has not answered', async () => {
    const user = userEvent.setup();
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    const { calls } = fakeApi({
      [`POST ${API.resetPassword}`]: async () => {
        await held;
        return jsonResponse(204);
      },
    });
    renderWithProviders(<ResetRequestForm />, { path: '/resetpassword', pattern: '/resetpassword' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com{Enter}');
    // The button stays, unavailable, and a screen reader hears that the link is being sent.
    expect(await screen.findByRole('status')).toHaveTextContent('Sending the link');
    expect(screen.getByRole('button', { name: 'Send reset link' })).toHaveAttribute('aria-disabled', 'true');
    await user.type(screen.getByLabelText('Email'), '{Enter}{Enter}');

    answer();
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(AUTH_MESSAGES.resetRequested));
    expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeEnabled();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
    expect(toast.success).toHaveBeenCalledTimes(1);
  });
});
