import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { API } from '@shared/contract/paths';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { ResetConfirmForm } from './reset-confirm-form';

vi.mock('sonner', () => {
  // The themed toaster's ids: each toast its own.
  let shown = 0;
  return { toast: { error: vi.fn(() => `error#${++shown}`), success: vi.fn(), dismiss: vi.fn() } };
});

const DEAD_LINK =
  'This link is no longer valid: it was used already, it expired, you logged in since it was sent, or it was copied incompletely.';
const deadToken = () => jsonResponse(400, { token: ['Invalid token for given user.'] });
const renderResetPage = () =>
  renderWithProviders(<ResetConfirmForm uid="MQ" token="t" />, {
    path: '/password-reset/MQ/t',
    pattern: '/password-reset/:uid/:token',
    strict: true,
  });

describe('reset confirm form', () => {
  it('checks the link as it opens and, dead, says so at once with the request for a new link, no password asked', async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = fakeApi({
      [`POST ${API.resetPasswordCheck}`]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderResetPage();
    // Until the server answers, neither the form nor the verdict.
    expect(await screen.findByText('Checking your link...')).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    answer(deadToken());
    expect(await screen.findByRole('alert')).toHaveTextContent(DEAD_LINK);
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('');
    // Nothing was pressed: the page keeps its start, the notice read first (it only takes the keyboard after a press).
    expect(screen.getByLabelText('Email')).not.toHaveFocus();
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeInTheDocument();
    // Once, though StrictMode runs the effect twice; the link itself is the whole question.
    expect(api.calls.map(({ body }) => body)).toEqual([{ uid: 'MQ', token: 't' }]);
  });

  it('shows the form for a live link, and for a check that got no verdict (the confirm will say)', async () => {
    for (const answer of [
      () => new Response(null, { status: 204 }),
      () => jsonResponse(503, { detail: 'Service unavailable' }),
      () => {
        throw new TypeError('Failed to fetch');
      },
    ]) {
      fakeApi({ [`POST ${API.resetPasswordCheck}`]: answer });
      const { unmount } = renderResetPage();
      expect(await screen.findByLabelText('New password')).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      unmount();
    }
  });

  it('names each empty field: the new password, and its confirmation apart from it', async () => {
    const user = userEvent.setup();
    const api = fakeApi({ [`POST ${API.resetPasswordCheck}`]: () => new Response(null, { status: 204 }) });
    renderResetPage();
    await user.click(await screen.findByRole('button', { name: 'Set new password' }));
    await vi.waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/^Your new password is missing /),
    );
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      'Confirm your new password: type it again',
    );

    await user.type(screen.getByLabelText('New password'), 'Silver-Lantern-73');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await vi.waitFor(() => expect(screen.getByLabelText('New password')).not.toHaveAccessibleDescription(/missing/));
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      'Confirm your new password: type it again',
    );
    expect(api.calls.map(({ path }) => path)).toEqual([API.resetPasswordCheck]);
  });

  it('names a login since the mail among the reasons a link no longer works, as the mail warned', async () => {
    const user = userEvent.setup();
    fakeApi({
      [`POST ${API.resetPasswordCheck}`]: () => new Response(null, { status: 204 }),
      [`POST ${API.resetPasswordConfirm}`]: deadToken,
    });
    renderResetPage();
    await user.type(await screen.findByLabelText('New password'), 'Calm-Waters-2026');
    await user.type(screen.getByLabelText('Confirm new password'), 'Calm-Waters-2026{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(DEAD_LINK);
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeInTheDocument();
    // The pressed button is gone with its form: the keyboard goes to what the notice asks for, not to the page's top.
    expect(screen.getByLabelText('Email')).toHaveFocus();
  });

  it('says a link that died while the form was open once, in its place, where another failure is a toast (decision 150)', async () => {
    const { toast } = await import('sonner');
    vi.mocked(toast.error).mockClear();
    vi.mocked(toast.dismiss).mockClear();
    const user = userEvent.setup();
    let confirm = () => jsonResponse(503, { detail: 'Service unavailable' });
    fakeApi({
      [`POST ${API.resetPasswordCheck}`]: () => new Response(null, { status: 204 }),
      [`POST ${API.resetPasswordConfirm}`]: () => confirm(),
    });
    renderResetPage();
    await user.type(await screen.findByLabelText('New password'), 'Calm-Waters-2026');
    await user.type(screen.getByLabelText('Confirm new password'), 'Calm-Waters-2026{Enter}');
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Password reset failed, please try again!'));
    const failed = vi.mocked(toast.error).mock.results[0]!.value as string;

    confirm = deadToken;
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(DEAD_LINK);
    // The page's notice says why; "Password reset failed, please try again!" beside it would say so twice, and ask
    // for a try that cannot work: not said again, and the earlier one taken away.
    expect(toast.error).toHaveBeenCalledTimes(1);
    expect(vi.mocked(toast.dismiss).mock.calls).toEqual([[failed]]);
  });
});
