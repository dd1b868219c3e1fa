import { wholeText } from '@web/test/reads-whole';
import { act, fireEvent, screen } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import type { Profile } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { SESSION } from '@web/lib/session-keys';
import { sessionStore } from '@web/lib/session';
import { OFFLINE_WAIT_MESSAGE } from '@web/components/ui/spinner';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { waitFrames } from '@web/test/frames';
import { ProfileView } from './profile-view';
import { everyElementShown } from '@web/test/shown';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const profile = (plan: Profile['subscription_plan']): Profile => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  user_email: 'ada@example.com',
  profile_image: null,
  subscription_plan: plan,
});

function renderWith(answer: () => Response) {
  fakeApi({ [`GET ${API.profile}`]: answer });
  renderWithProviders(<ProfileView />);
}

afterEach(() => vi.mocked(toast.error).mockClear());

describe('ProfileView', () => {
  it.each([
    ['basic', 'Basic'],
    ['intermediate', 'Intermediate'],
    ['pro', 'Pro'],
  ] as const)('shows the %s plan', async (plan, label) => {
    renderWith(() => jsonResponse(200, profile(plan)));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText(label)).toBeInTheDocument();
  });

  it.each([
    ['PRO', 'Pro'],
    [null, 'Basic'],
    ['', 'Basic'],
    ['platinum', 'Basic'],
    [undefined, 'Basic'],
  ])('shows a plan of %j from the server as %s instead of failing', async (plan, label) => {
    renderWith(() => jsonResponse(200, { ...profile('basic'), subscription_plan: plan }));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText(label)).toBeInTheDocument();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('says once, in its panel, that the profile cannot be read, and reads it again in place on Try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    renderWith(() => (fail ? jsonResponse(500, {}) : jsonResponse(200, profile('pro'))));
    expect(await screen.findByRole('heading', { name: 'Error Occurred!' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('There was an error fetching your profile data!');
    expect(toast.error).not.toHaveBeenCalled();
    fail = false;
    everyElementShown();
    screen.getByRole('button', { name: 'Try again' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    // The keyboard was on Try again: it goes to the first control of the card in its place.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Edit profile' })).toHaveFocus());
  });

  it('says at once that it waits for the connection when Try again is pressed offline, and reads the profile once back', async () => {
    const user = userEvent.setup();
    let fail = true;
    renderWith(() => (fail ? jsonResponse(500, {}) : jsonResponse(200, profile('pro'))));
    const button = await screen.findByRole('button', { name: 'Try again' });
    fail = false;
    // The browser's connection lies outside the app: navigator.onLine and its events are the test's.
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    everyElementShown();
    try {
      act(() => void window.dispatchEvent(new Event('offline')));
      onlineManager.setOnline(false);
      button.focus();
      await user.keyboard('{Enter}');
      expect(screen.getByRole('alert')).toHaveTextContent(OFFLINE_WAIT_MESSAGE);
      expect(screen.getByRole('alert')).not.toHaveTextContent('There was an error fetching your profile data!');
      // Not under a heading saying an error occurred: it waits, and says so (decision 133).
      expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(/^Waiting for the connection$/);
      expect(screen.queryByText('Error Occurred!')).toBeNull();
      expect(button).toHaveAttribute('aria-disabled', 'true');
      expect(button).toHaveFocus();

      online.mockReturnValue(true);
      act(() => void window.dispatchEvent(new Event('online')));
      expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
      await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Edit profile' })).toHaveFocus());
    } finally {
      online.mockRestore();
      onlineManager.setOnline(true);
    }
  });

  it('puts the keyboard on Edit profile, where a new picture is chosen, once the removed picture has gone, however long the read takes', async () => {
    const user = userEvent.setup();
    let image: string | null = '/media/profile/ada.webp';
    let answerRead: (() => void) | null = null;
    let holdReads = false;
    fakeApi({
      [`GET ${API.profile}`]: async () => {
        // Once the removal is made, the profile answers when the test says: a network's time, many frames.
        if (holdReads) await new Promise<void>((resolve) => (answerRead = resolve));
        return jsonResponse(200, { ...profile('basic'), profile_image: image });
      },
      [`DELETE ${API.profileImage}`]: () => {
        image = null;
        holdReads = true;
        return jsonResponse(200, { ...profile('basic'), profile_image: null });
      },
    });
    renderWithProviders(<ProfileView />);
    (await screen.findByRole('button', { name: 'Remove profile image' })).focus();
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(answerRead).not.toBeNull());
    // More frames than a hand-over looks for what it waits for once called: it is called with the answer.
    await waitFrames(15);
    expect(screen.getByRole('button', { name: 'Remove profile image', hidden: true })).toBeInTheDocument();
    answerRead!();
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Edit profile' })).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Remove profile image', hidden: true })).toBeNull();
  });

  it('opens the edit modal with the names and a read-only e-mail', async () => {
    const user = userEvent.setup();
    renderWith(() => jsonResponse(200, profile('basic')));
    await user.click(await screen.findByRole('button', { name: 'Edit profile' }));
    expect(await screen.findByLabelText('First name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Last name')).toHaveValue('Lovelace');
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('readonly');
    await user.clear(screen.getByLabelText('First name'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your first name is missing')).toBeInTheDocument();
  });

  describe('follows a change made elsewhere, as the app reads (30 s fresh, not on window focus)', () => {
    const renamed: Profile = {
      ...profile('basic'),
      first_name: 'Grace',
      last_name: 'Hopper',
      user_email: 'grace@example.com',
    };

    async function renderThenRenameOnServer() {
      let answer = profile('basic');
      fakeApi({ [`GET ${API.profile}`]: () => jsonResponse(200, answer) });
      renderWithProviders(<ProfileView />, { appQueryClient: true });
      expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
      answer = renamed;
    }

    it('another tab renaming the session’s user: the card and the e-mail rows show the new values', async () => {
      await renderThenRenameOnServer();
      const user = { id: 7, email: renamed.user_email, first_name: 'Grace', last_name: 'Hopper', is_staff: false };
      fireEvent(window, new StorageEvent('storage', { key: SESSION.storageKeys.user, newValue: JSON.stringify(user) }));
      expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
      // The card's row and the Account card's.
      expect(screen.getAllByText(wholeText('grace@example.com'))).toHaveLength(2);
      expect(screen.queryByText('ada@example.com')).toBeNull();
    });

    it('another tab saving a new picture (the names unchanged): the profile is read anew', async () => {
      await renderThenRenameOnServer();
      fireEvent(
        window,
        new StorageEvent('storage', { key: SESSION.storageKeys.profileSaved, newValue: String(Date.now()) }),
      );
      expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    });

    it('the tab showing again (a change on another device, a new picture): the profile is read anew', async () => {
      await renderThenRenameOnServer();
      fireEvent(document, new Event('visibilitychange', { bubbles: true }));
      expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    });

    it('a profile read anew with other names or address renames the session’s user (the bar’s badge and menu)', async () => {
      const signedIn = { id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', is_staff: true };
      sessionStore.setTokens({ access: 'access', refresh: 'refresh' }, signedIn.email);
      sessionStore.setUser(signedIn);
      await renderThenRenameOnServer();
      expect(sessionStore.get().user).toEqual(signedIn);
      fireEvent(document, new Event('visibilitychange', { bubbles: true }));
      expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
      expect(sessionStore.get().user).toEqual({
        ...signedIn,
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
      });
    });
  });
});
