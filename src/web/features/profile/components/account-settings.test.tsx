import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import type { OtherSessions, Profile } from '@shared/contract';
import { SESSIONS_ENDED_HEADER } from '@shared/contract/plain';
import { API } from '@shared/contract/paths';
import { formatDateTime } from '@web/lib/dates';
import { pendingRecords } from '@web/lib/pending-records';
import { sessionStore } from '@web/lib/session';
import { SESSION_EXPIRED_MESSAGE, startSessionLifecycle } from '@web/lib/session-refresh';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders, type ApiHandler } from '@web/test/render';
import { expectIsolated } from '@web/test/isolated';
import { heardOnFocus } from '@web/test/heard-on-focus';
import { PROFILE_MESSAGES } from '../messages';
import { ProfileView } from './profile-view';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));

const profile: Profile = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  user_email: 'ada@example.com',
  profile_image: '/media/profile-images/ada.jpg?sig=x',
  subscription_plan: 'basic',
};
const noContent = () => new Response(null, { status: 204 });
/** set_password's 204, saying in its header how many other sessions it ended; null: a server that does not say. */
const signedOutOthers = (ended: string | null) => () =>
  new Response(null, { status: 204, headers: ended === null ? {} : { [SESSIONS_ENDED_HEADER]: ended } });

afterEach(() => {
  vi.clearAllMocks();
  sessionStore.clear();
});

async function renderProfile(handlers: Record<string, ApiHandler> = {}) {
  const api = fakeApi({ [`GET ${API.profile}`]: () => jsonResponse(200, profile), ...handlers });
  const user = userEvent.setup();
  const { unmount } = renderWithProviders(<ProfileView />, {
    path: '/profile',
    routes: [{ path: '/', element: <p>home page</p> }],
  });
  await screen.findByText('Ada Lovelace');
  return { api, user, unmount, writes: () => api.calls.filter((call) => call.method !== 'GET') };
}

describe('account settings', () => {
  it('puts the keyboard on the first field refused once its error is drawn, the form’s check and the server’s alike', async () => {
    const { user, writes } = await renderProfile({
      [`POST ${API.setPassword}`]: () => jsonResponse(400, { current_password: ['Invalid password.'] }),
    });
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    const current = within(dialog).getByLabelText('Current password');
    const fresh = within(dialog).getByLabelText('New password');
    const heardCurrent = heardOnFocus(current);
    const heardFresh = heardOnFocus(fresh);
    await user.type(current, 'Quiet-Harbour-58');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));

    // The first field refused is the second: the keyboard goes there, and it is read with its error and rules.
    expect(fresh).toHaveFocus();
    expect(heardFresh).toEqual([
      {
        invalid: true,
        description: `${PROFILE_MESSAGES.newPasswordMissing} At least 8 characters, not only digits, not a common password and not like your e-mail.`,
      },
    ]);
    // The empty confirm field names itself, not the new password above it.
    expect(within(dialog).getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      'Confirm your new password: type it again',
    );
    expect(current).not.toHaveAttribute('aria-invalid');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(writes()).toEqual([]);

    await user.type(fresh, 'Silver-Lantern-73');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'Silver-Lantern-73');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() => expect(current).toHaveFocus());
    expect(heardCurrent.at(-1)).toEqual({ invalid: true, description: 'Invalid password.' });
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('keeps an account dialog’s Cancel busy while its call runs, closing nothing; after a refusal it closes, and the keyboard goes back to the dialog’s button, as after a change', async () => {
    const answers: Array<(response: Response) => void> = [];
    const { user, writes } = await renderProfile({
      [`POST ${API.setPassword}`]: () => new Promise<Response>((resolve) => answers.push(resolve)),
    });
    const opener = screen.getByRole('button', { name: 'Change password' });
    const fill = async (dialog: HTMLElement) => {
      await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
      await user.type(within(dialog).getByLabelText('New password'), 'Silver-Lantern-73');
      await user.type(within(dialog).getByLabelText('Confirm new password'), 'Silver-Lantern-73');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    };
    await user.click(opener);
    let dialog = await screen.findByRole('dialog', { name: 'Change password' });
    await fill(dialog);
    await vi.waitFor(() => expect(writes()).toHaveLength(1));
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    cancel.focus();
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    expect(dialog).toBeInTheDocument();
    expect(cancel).toHaveFocus();

    // Refused: the keyboard goes to the field refused; Cancel, available again, closes and gives it back.
    answers[0]!(jsonResponse(400, { current_password: ['Invalid password.'] }));
    await vi.waitFor(() => expect(within(dialog).getByLabelText('Current password')).toHaveFocus());
    expect(cancel).not.toHaveAttribute('aria-disabled', 'true');
    cancel.focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(opener).toHaveFocus());

    await user.click(opener);
    dialog = await screen.findByRole('dialog', { name: 'Change password' });
    await fill(dialog);
    await vi.waitFor(() => expect(writes()).toHaveLength(2));
    answers[1]!(noContent());
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await vi.waitFor(() => expect(opener).toHaveFocus());
  });

  it('changes the password, with the current one, and closes with a message', async () => {
    const { user, writes } = await renderProfile({ [`POST ${API.setPassword}`]: signedOutOthers('2') });
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    expect(within(dialog).getByText(/At least 8 characters/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText(PROFILE_MESSAGES.currentPasswordMissing)).toBeInTheDocument();
    expect(writes()).toEqual([]);
    await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
    await user.type(within(dialog).getByLabelText('New password'), 'Silver-Lantern-73');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'Silver-Lantern-73');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Your password was changed. Signed out 2 other sessions.'),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(writes().map(({ path, body }) => [path, body])).toEqual([
      [
        API.setPassword,
        {
          current_password: 'Quiet-Harbour-58',
          new_password: 'Silver-Lantern-73',
          re_new_password: 'Silver-Lantern-73',
        },
      ],
    ]);
  });

  it('says what the change signed out as the server counted it: no other device, one, or nothing it did not say', async () => {
    for (const [ended, said] of [
      ['0', 'Your password was changed. No other device was signed in.'],
      ['1', 'Your password was changed. Signed out 1 other session.'],
      [null, 'Your password was changed.'],
    ] as const) {
      vi.mocked(toast.success).mockClear();
      const { user, unmount } = await renderProfile({ [`POST ${API.setPassword}`]: signedOutOthers(ended) });
      await user.click(screen.getByRole('button', { name: 'Change password' }));
      const dialog = await screen.findByRole('dialog', { name: 'Change password' });
      await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
      await user.type(within(dialog).getByLabelText('New password'), 'Silver-Lantern-73');
      await user.type(within(dialog).getByLabelText('Confirm new password'), 'Silver-Lantern-73');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
      await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(said));
      expect(toast.success).toHaveBeenCalledTimes(1);
      unmount();
    }
  });

  it('puts a wrong current password and the password rules under their fields', async () => {
    const { user } = await renderProfile({
      [`POST ${API.setPassword}`]: () =>
        jsonResponse(400, { current_password: ['Invalid password.'], new_password: ['This password is too common.'] }),
    });
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Current password'), 'nope-nope-1');
    await user.type(within(dialog).getByLabelText('New password'), 'password1');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'password1');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText('Invalid password.')).toBeInTheDocument();
    expect(within(dialog).getByText('This password is too common.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks for a new e-mail and says the link is sent; a taken address shows under the field', async () => {
    let taken = true;
    const { user } = await renderProfile({
      [`POST ${API.setEmail}`]: () =>
        taken ? jsonResponse(400, { new_email: ['user with this email already exists.'] }) : noContent(),
    });
    await user.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change e-mail' });
    await user.type(within(dialog).getByLabelText('New e-mail'), 'ada@new.example');
    await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
    await user.click(within(dialog).getByRole('button', { name: 'Send the link' }));
    expect(await within(dialog).findByText('user with this email already exists.')).toBeInTheDocument();
    taken = false;
    await user.click(within(dialog).getByRole('button', { name: 'Send the link' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Confirmation link sent.'));
  });

  it('shows a change of address waiting for its link, sends the link again and cancels it', async () => {
    let waiting: { new_email: string; requested_at: string } | null = null;
    const requestedAt = '2026-12-04T09:30:00Z';
    const { user, writes } = await renderProfile({
      [`GET ${API.setEmail}`]: () => jsonResponse(200, { pending: waiting }),
      [`POST ${API.setEmail}`]: ({ body }) => {
        waiting = { new_email: (body as { new_email: string }).new_email, requested_at: requestedAt };
        return noContent();
      },
      [`POST ${API.setEmailResend}`]: noContent,
      [`DELETE ${API.setEmail}`]: () => {
        waiting = null;
        return noContent();
      },
    });
    expect(screen.queryByText(/A confirmation link was sent/)).toBeNull();

    // Asked for from the dialog: the profile shows it waiting, with where and when the link went.
    await user.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change e-mail' });
    await user.type(within(dialog).getByLabelText('New e-mail'), 'ada@new.example');
    await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
    await user.click(within(dialog).getByRole('button', { name: 'Send the link' }));
    const notice = (await screen.findByText(/A confirmation link was sent to/)).closest('div')!;
    expect(notice).toHaveTextContent(
      `A confirmation link was sent to ada@new.example on ${formatDateTime(requestedAt)}.`,
    );
    expect(notice).toHaveTextContent(PROFILE_MESSAGES.emailChangePendingNote);
    // The address in its own box, in the notice and the toasts alike (decision 064).
    expectIsolated(within(notice).getByText('ada@new.example'), 'ada@new.example');
    // The toast only acknowledges: the box says where the link went and what it does, once.
    expect(vi.mocked(toast.success).mock.calls).toEqual([['Confirmation link sent.']]);
    // The account's address is still the old one.
    const account = screen.getByRole('region', { name: 'Account' });
    expect(within(account).getByText('ada@example.com')).toBeInTheDocument();

    await user.click(within(notice).getByRole('button', { name: 'Send the link again' }));
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('We sent a new confirmation link to \u2068ada@new.example\u2069.'),
    );
    await user.click(within(notice).getByRole('button', { name: 'Cancel the change' }));
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'The change to \u2068ada@new.example\u2069 was cancelled; its link no longer works.',
      ),
    );
    await vi.waitFor(() => expect(screen.queryByText(/A confirmation link was sent/)).toBeNull());
    expect(writes().map(({ method, path }) => `${method} ${path}`)).toEqual([
      `POST ${API.setEmail}`,
      `POST ${API.setEmailResend}`,
      `DELETE ${API.setEmail}`,
    ]);
  });

  it('keeps the keyboard on the waiting change’s buttons while a call runs, then on Change e-mail once it is cancelled', async () => {
    let answer = (_response: Response) => {};
    let answered = false;
    const { user, writes } = await renderProfile({
      [`GET ${API.setEmail}`]: () =>
        jsonResponse(200, {
          pending: answered ? null : { new_email: 'ada@new.example', requested_at: '2026-12-04T09:30:00Z' },
        }),
      [`DELETE ${API.setEmail}`]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const cancel = await screen.findByRole('button', { name: 'Cancel the change' });
    cancel.focus();
    await user.keyboard('{Enter}');
    // While the call runs the button is unavailable but keeps the keyboard, and a second press sends nothing.
    await vi.waitFor(() => expect(cancel).toHaveAttribute('aria-disabled', 'true'));
    expect(cancel).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Send the link again' })).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    answered = true;
    answer(noContent());
    await vi.waitFor(() => expect(screen.queryByText(/A confirmation link was sent/)).toBeNull());
    // The buttons went with the change: the keyboard is where another change begins.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Change e-mail' })).toHaveFocus());
    expect(writes().map(({ method, path }) => `${method} ${path}`)).toEqual([`DELETE ${API.setEmail}`]);
  });

  it('keeps the keyboard on Download my data while the file is prepared, and a second press asks for nothing', async () => {
    let answer = (_body: unknown) => {};
    const { api, user } = await renderProfile({
      [`GET ${API.userExport}`]: () => new Promise((resolve) => (answer = resolve)),
    });
    const download = screen.getByRole('button', { name: 'Download my data' });
    download.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(download).toHaveAccessibleName('Preparing…'));
    expect(download).toHaveAttribute('aria-disabled', 'true');
    expect(download).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(api.calls.filter((call) => call.path === API.userExport)).toHaveLength(1);
    answer(jsonResponse(500, { detail: 'A server error occurred.' }));
    await vi.waitFor(() => expect(download).toHaveAccessibleName('Download my data'));
    expect(download).toHaveFocus();
  });

  it('says when the waiting address was taken meanwhile, or the resend was refused for too many', async () => {
    let answer = jsonResponse(400, { new_email: ['user with this email already exists.'] });
    const { user } = await renderProfile({
      [`GET ${API.setEmail}`]: () =>
        jsonResponse(200, { pending: { new_email: 'ada@new.example', requested_at: '2026-12-04T09:30:00Z' } }),
      [`POST ${API.setEmailResend}`]: () => answer,
    });
    await user.click(await screen.findByRole('button', { name: 'Send the link again' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        '\u2068ada@new.example\u2069 belongs to another account now. Cancel this change, or ask for another address.',
      ),
    );
    answer = jsonResponse(429, { detail: 'Request was throttled. Expected available in 712 seconds.' });
    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Too many attempts. Please wait a few minutes and try again.'),
    );
    expect(toast.success).not.toHaveBeenCalled();
  });

  it.each([
    ['Change password', `POST ${API.setPassword}`, ['New password', 'Confirm new password'], 'Change password'],
    ['Change e-mail', `POST ${API.setEmail}`, ['New e-mail'], 'Send the link'],
    ['Delete account', `DELETE ${API.me}`, [], 'Delete my account'],
  ])(
    '%s refused for too many attempts says so as login does, not in the server’s seconds',
    async (open, call, others, submit) => {
      const { user } = await renderProfile({
        [call]: () => jsonResponse(429, { detail: 'Request was throttled. Expected available in 712 seconds.' }),
      });
      await user.click(screen.getByRole('button', { name: open }));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
      for (const label of others) await user.type(within(dialog).getByLabelText(label), 'ada@new.example');
      await user.click(within(dialog).getByRole('button', { name: submit }));
      await vi.waitFor(() =>
        expect(toast.error).toHaveBeenCalledWith('Too many attempts. Please wait a few minutes and try again.'),
      );
      expect(toast.error).toHaveBeenCalledTimes(1);
      // It stays open with what was typed, to be sent again later.
      expect(within(dialog).getByLabelText('Current password')).toHaveValue('Quiet-Harbour-58');
    },
  );

  it.each([
    [
      'Change password',
      `POST ${API.setPassword}`,
      ['New password', 'Confirm new password'],
      'Change password',
      'Changing your password',
    ],
    ['Change e-mail', `POST ${API.setEmail}`, ['New e-mail'], 'Send the link', 'Sending the link'],
    [
      'Sign out everywhere else',
      `POST ${API.logoutOthers}`,
      [],
      'Sign out everywhere else',
      'Signing out your other devices',
    ],
    ['Delete account', `DELETE ${API.me}`, [], 'Delete my account', 'Deleting your account'],
  ])('%s says what it is doing while its request runs', async (open, call, others, submit, doing) => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const { user } = await renderProfile({
      [`GET ${API.sessions}`]: () => ({ count: 1, latest_sign_in: '2026-12-02T09:30:00Z' }),
      // The request stays on its way for the rest of the test.
      [call]: () => new Promise(() => {}),
    });
    await user.click(await screen.findByRole('button', { name: open }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
    for (const label of others) await user.type(within(dialog).getByLabelText(label), 'ada@new.example');
    const status = within(dialog).getByRole('status');
    expect(status).toHaveTextContent('');
    await user.click(within(dialog).getByRole('button', { name: submit }));
    await vi.waitFor(() => expect(status).toHaveTextContent(doing));
  });

  it('deletes the account after the password, then signs out and goes home', async () => {
    const access = `h.${btoa(JSON.stringify({ user_id: 7 })).replace(/=+$/, '')}.s`;
    sessionStore.setTokens({ access, refresh: 'r' }, 'member@example.com');
    // A session of theirs this browser could not record yet, and someone else's.
    const kept = (key: string, userId: number) => ({
      key,
      user_id: userId,
      entry: null,
      day: null,
      saved_at: Date.now(),
    });
    pendingRecords.add(kept('theirs', 7));
    pendingRecords.add(kept('another’s', 8));
    // So are the drafts of their forms: none is theirs to be given back to any more.
    sessionStorage.setItem('draft.support.7', JSON.stringify({ subject: 'Billing' }));
    sessionStorage.setItem('draft.support.8', JSON.stringify({ subject: 'Theirs' }));
    let wrong = true;
    const { user, writes } = await renderProfile({
      [`DELETE ${API.me}`]: () =>
        wrong ? jsonResponse(400, { current_password: ['Invalid password.'] }) : noContent(),
    });
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByLabelText('Current password'), 'guess-guess-1');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText('Invalid password.')).toBeInTheDocument();
    expect(sessionStore.get().isAuthenticated).toBe(true);
    wrong = false;
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(PROFILE_MESSAGES.accountDeleted);
    expect(sessionStore.get().isAuthenticated).toBe(false);
    expect(writes().map(({ method, path }) => `${method} ${path}`)).toEqual([`DELETE ${API.me}`, `DELETE ${API.me}`]);
    expect(pendingRecords.of(7)).toEqual([]);
    expect(pendingRecords.of(8)).toHaveLength(1);
    expect(sessionStorage.getItem('draft.support.7')).toBeNull();
    expect(sessionStorage.getItem('draft.support.8')).not.toBeNull();
    sessionStorage.clear();
  });

  it('ends only the deleted account’s session: one another tab signed in while it was deleted stays, with its records', async () => {
    const tokenOf = (userId: number) => `h.${btoa(JSON.stringify({ user_id: userId })).replace(/=+$/, '')}.s`;
    sessionStore.setTokens({ access: tokenOf(7), refresh: 'r' }, 'member@example.com');
    const record = (key: string, userId: number) => ({
      key,
      user_id: userId,
      entry: null,
      day: null,
      saved_at: Date.now(),
    });
    pendingRecords.add(record('theirs', 7));
    pendingRecords.add(record('bea’s', 8));
    const { user } = await renderProfile({
      [`DELETE ${API.me}`]: () => {
        // While the deletion is on its way, another tab signs out and signs Bea in.
        for (const key of ['user.access', 'user.refresh', 'user.id', 'user.email', 'user.user'])
          localStorage.removeItem(key);
        localStorage.setItem('user.id', '8');
        localStorage.setItem('user.refresh', 'r2');
        localStorage.setItem('user.access', tokenOf(8));
        window.dispatchEvent(new StorageEvent('storage', { key: null }));
        return noContent();
      },
    });
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, id: 8, refresh: 'r2' });
    expect(pendingRecords.of(7)).toEqual([]);
    expect(pendingRecords.of(8)).toHaveLength(1);
    pendingRecords.forget(8);
  });

  it.each([
    ['a live paid subscription, which it names', 'pro', 'active', true],
    ['a paid plan cancelled at period end, still live until then', 'intermediate', 'active', true],
    ['a failed payment, still live while Stripe retries', 'pro', 'past_due', true],
    ['Basic, without a subscription line', 'basic', null, false],
    ['a plan set by staff, billed by nobody', 'pro', null, false],
    ['a subscription that has ended', 'pro', 'canceled', false],
  ] as const)('says in a list what deleting takes, for %s', async (_, plan, status, subscribed) => {
    const state = planStateFor(plan);
    const { user } = await renderProfile({
      [`GET ${API.plan}`]: () => ({ ...state, billing: { ...state.billing, configured: true, status } }),
    });
    await screen.findByTestId('billing-plan');
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Your profile, picture, goals and settings',
      'Your own messages, music and voice recordings',
      'Your saved subliminals and their share links',
      'Your playlist, practice history and support requests',
    ]);
    const cancelled = 'Your paid subscription is cancelled at once; nothing more is charged.';
    expect(within(dialog).queryByText(cancelled) !== null).toBe(subscribed);
    // All of it is the dialog's description, read with its name.
    expect(dialog).toHaveAccessibleDescription(
      [
        'Everything in your account is deleted for good, and you are signed out:',
        ...PROFILE_MESSAGES.deleteLosses,
        ...(subscribed ? [cancelled] : []),
        'This cannot be undone.',
      ].join(' '),
    );
  });

  it('shows the other sessions and signs them out after the password; this one stays signed in', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    let others: OtherSessions = { count: 2, latest_sign_in: '2026-12-02T09:30:00Z' };
    let wrong = true;
    const { user, writes } = await renderProfile({
      [`GET ${API.sessions}`]: () => others,
      [`POST ${API.logoutOthers}`]: () => {
        if (wrong) return jsonResponse(400, { current_password: ['Invalid password.'] });
        others = { count: 0, latest_sign_in: null };
        return { ended: 2 };
      },
    });
    expect(
      await screen.findByText(PROFILE_MESSAGES.sessionsOthers(2, formatDateTime('2026-12-02T09:30:00Z'))),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveAccessibleDescription(
      `${PROFILE_MESSAGES.signOutOthersIntro} ${PROFILE_MESSAGES.signOutOthersHint}`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await within(dialog).findByText(PROFILE_MESSAGES.currentPasswordMissing)).toBeInTheDocument();
    expect(writes()).toEqual([]);
    await user.type(within(dialog).getByLabelText('Current password'), 'guess-guess-1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await within(dialog).findByText('Invalid password.')).toBeInTheDocument();
    wrong = false;
    await user.clear(within(dialog).getByLabelText('Current password'));
    await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(PROFILE_MESSAGES.signedOutOthers(2)));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText(PROFILE_MESSAGES.sessionsNone)).toBeInTheDocument();
    expect(sessionStore.get().isAuthenticated).toBe(true);
    expect(writes().map(({ path, body }) => [path, body])).toEqual([
      [API.logoutOthers, { current_password: 'guess-guess-1' }],
      [API.logoutOthers, { current_password: 'Quiet-Harbour-58' }],
    ]);
  });

  it('downloads the data as a JSON file', async () => {
    const created: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => (created.push(blob), 'blob:export'),
        revokeObjectURL: () => undefined,
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = await renderProfile({
      [`GET ${API.userExport}`]: () => ({ account: { email: 'ada@example.com' } }),
    });
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect(JSON.parse(await created[0]!.text())).toEqual({ account: { email: 'ada@example.com' } });
    click.mockRestore();
  });

  it('says why a download of the data was refused while another is on its way, and that it failed otherwise', async () => {
    const underWay = 'Your data is already being downloaded. Wait for that download to finish, then ask again.';
    const answers = [
      jsonResponse(429, { detail: underWay }),
      jsonResponse(500, { detail: 'A server error occurred.' }),
    ];
    const { user } = await renderProfile({ [`GET ${API.userExport}`]: () => answers.shift()! });
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(underWay));
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenLastCalledWith(PROFILE_MESSAGES.exportFailed));
  });

  it('takes the download’s failure toast away once Download my data, pressed again, works (decision 150)', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:export', revokeObjectURL: () => undefined }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    vi.mocked(toast.error).mockReturnValueOnce('export failed');
    const answers = [jsonResponse(503, null), jsonResponse(200, { account: { email: 'ada@example.com' } })];
    const { user } = await renderProfile({ [`GET ${API.userExport}`]: () => answers.shift()! });
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    expect(toast.dismiss).not.toHaveBeenCalledWith('export failed');
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect(toast.dismiss).toHaveBeenCalledWith('export failed');
    click.mockRestore();
  });

  it('takes Change password’s failure toast away once the password, sent again, is changed (decision 150)', async () => {
    vi.mocked(toast.error).mockReturnValueOnce('change failed');
    const answers = [jsonResponse(503, null), noContent()];
    const { user } = await renderProfile({ [`POST ${API.setPassword}`]: () => answers.shift()! });
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
    await user.type(within(dialog).getByLabelText('New password'), 'Silver-Lantern-73');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'Silver-Lantern-73');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    expect(toast.dismiss).not.toHaveBeenCalledWith('change failed');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalled());
    expect(toast.dismiss).toHaveBeenCalledWith('change failed');
  });

  it('removes the profile image after asking', async () => {
    const { user, writes } = await renderProfile({
      [`DELETE ${API.profileImage}`]: () => jsonResponse(200, { ...profile, profile_image: null }),
    });
    await user.click(screen.getByRole('button', { name: 'Remove profile image' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(PROFILE_MESSAGES.imageRemoved));
    expect(writes().map(({ method, path }) => `${method} ${path}`)).toEqual([`DELETE ${API.profileImage}`]);
  });

  it('is a heading for each part and each of the account’s rows, for a screen reader’s heading keys', async () => {
    const state = planStateFor('basic');
    await renderProfile({ [`GET ${API.plan}`]: () => ({ ...state, billing: { ...state.billing, configured: true } }) });
    await screen.findByTestId('billing-plan');
    const headings = (level: number) => screen.getAllByRole('heading', { level }).map((heading) => heading.textContent);
    expect(headings(2)).toEqual(['Your details', 'Plan & billing', 'Account']);
    expect(headings(3)).toEqual([
      'Intermediate',
      'Pro',
      'Password',
      'E-mail',
      'Signed in elsewhere',
      'Your data',
      'Delete account',
    ]);
    // Each section is named by its heading, so a landmark list names it too.
    expect(screen.getByRole('region', { name: 'Your details' })).toContainElement(screen.getByText('Ada Lovelace'));
  });
});

describe('account settings, on a session signed out from another browser', () => {
  const refused = () => jsonResponse(401, { detail: 'Given token not valid for any token type' });

  /** The profile, signed in with tokens the server no longer takes (nor their refresh); to login through `navigateTo`. */
  async function renderSignedOutElsewhere(handlers: Record<string, ApiHandler>) {
    const navigateTo = vi.fn<(to: string) => void>();
    startSessionLifecycle(navigateTo)();
    const rendered = await renderProfile({ [`POST ${API.tokenRefresh}`]: refused, ...handlers });
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    return { ...rendered, navigateTo };
  }

  it('ends a password change with the session’s one toast and the trip to login', async () => {
    const { user, navigateTo } = await renderSignedOutElsewhere({ [`POST ${API.setPassword}`]: refused });
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    await user.type(within(dialog).getByLabelText('Current password'), 'Quiet-Harbour-58');
    await user.type(within(dialog).getByLabelText('New password'), 'Silver-Lantern-73');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'Silver-Lantern-73');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/login'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(vi.mocked(toast.error).mock.calls).toEqual([[SESSION_EXPIRED_MESSAGE, expect.anything()]]);
  });

  it('ends a download of the data with the session’s one toast, not "the export failed" too', async () => {
    const { user, navigateTo } = await renderSignedOutElsewhere({ [`GET ${API.userExport}`]: refused });
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/login'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(vi.mocked(toast.error).mock.calls).toEqual([[SESSION_EXPIRED_MESSAGE, expect.anything()]]);
  });
});
