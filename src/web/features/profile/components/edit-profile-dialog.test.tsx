import { fireEvent, getDefaultNormalizer, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import type { Profile } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { CONTROL_CHARACTER_REFUSED, DIRECTION_CONTROL_REFUSED } from '@shared/contract/plain';
import { OFFLINE_MESSAGE } from '@web/lib/change';
import { fakeApi, jsonResponse, renderWithProviders } from '@web/test/render';
import { whyNotWhole } from '@web/test/reads-whole';
import { ApiError } from '@web/lib/api-client';
import { sessionStore } from '@web/lib/session';
import { SESSION } from '@web/lib/session-keys';
import { updateProfile } from '../api/update-profile';
import { PROFILE_MESSAGES } from '../messages';
import { ProfileView } from './profile-view';

/** Text matched as written: by default Testing Library folds a no-break space, which keeps a number by its unit. */
const asWritten = { normalizer: getDefaultNormalizer({ collapseWhitespace: false }) };

vi.mock('sonner', () => {
  // The themed toaster's ids: each toast its own.
  let shown = 0;
  return { toast: { error: vi.fn(() => `error#${++shown}`), success: vi.fn(), dismiss: vi.fn() } };
});
// The browser's canvas resize is not in jsdom; the server's answer is what these tests are about.
// A picture's size is read from a test's file name: 'bomb' claims 20000 × 20000 px, 'broken' is unreadable,
// 'truncated' has a readable size but cannot be drawn.
vi.mock('../lib/resize-image', () => ({
  resizeProfileImage: async (file: File) => {
    if (file.name.includes('truncated')) throw new Error('the picture ends early');
    return file;
  },
  imageSize: async (file: File) => {
    if (file.name.includes('broken')) throw new Error('not a readable picture');
    return file.name.includes('bomb') ? { width: 20_000, height: 20_000 } : { width: 600, height: 400 };
  },
}));
// The save goes out through XMLHttpRequest (upload progress), which the fake server does not answer.
vi.mock('../api/update-profile', () => ({ updateProfile: vi.fn() }));

const profile: Profile = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  user_email: 'ada@example.com',
  profile_image: null,
  subscription_plan: 'basic',
};

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => undefined }));
});
afterEach(() => vi.clearAllMocks());

async function openEditor(handlers: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi({ [`GET ${API.profile}`]: () => jsonResponse(200, profile), ...handlers });
  const user = userEvent.setup({ applyAccept: false });
  renderWithProviders(<ProfileView />);
  await user.click(await screen.findByRole('button', { name: 'Edit profile' }));
  // The dialog's code comes on its first open.
  await screen.findByRole('dialog', { name: 'Edit profile' });
  return { api, user };
}

const png = (bytes = 10) => new File([new Uint8Array(bytes)], 'me.png', { type: 'image/png' });

describe('edit profile dialog', () => {
  it('says it is saved, and names the person anew in the session, so the bar’s badge has the new initials', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    sessionStore.setUser({
      id: 7,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      is_staff: false,
    });
    vi.mocked(updateProfile).mockResolvedValue({ ...profile, first_name: 'Mira', last_name: 'Okafor' });
    const { user } = await openEditor();
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Mira');
    await user.clear(screen.getByLabelText('Last name'));
    await user.type(screen.getByLabelText('Last name'), 'Okafor');
    expect(toast.success).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The dialog closing is not all: the person is told it worked, as the app's other saves do.
    expect(toast.success).toHaveBeenCalledTimes(1);
    expect(toast.success).toHaveBeenCalledWith('Your profile is saved.');
    expect(sessionStore.get().user).toEqual({
      id: 7,
      email: 'ada@example.com',
      first_name: 'Mira',
      last_name: 'Okafor',
      is_staff: false,
    });
    // Other tabs are told, a picture saved alone included (their storage event).
    expect(Number(localStorage.getItem(SESSION.storageKeys.profileSaved))).toBeGreaterThan(0);
    sessionStore.clear();
  });

  it('keeps each number of the picture’s hint on one line with its unit, as a phone’s narrow dialog wraps it', async () => {
    await openEditor();
    expect(
      screen.getByText('PNG, JPEG, WebP, GIF or AVIF, up to 20\u00a0MB; shown 150\u00a0px wide.', asWritten),
    ).toBeInTheDocument();
  });

  it('shows a long e-mail whole in its locked field, wrapping onto more lines, where a phone cut it (decision 079)', async () => {
    const long = 'alexandra.konstantinopoulou-whitfield.practice@longdomain-example.com';
    await openEditor({ [`GET ${API.profile}`]: () => jsonResponse(200, { ...profile, user_email: long }) });
    const email = screen.getByLabelText('E-mail');
    expect(email).toHaveValue(long);
    expect(email).toHaveAttribute('readonly');
    expect(email).toHaveAccessibleDescription('Change it under Account, with your password.');
    expect(whyNotWhole(email)).toBeNull();
  });

  it('names a file that is not an image, and one over the limit, and sends nothing', async () => {
    const { api, user } = await openEditor();
    const picker = screen.getByLabelText(/Profile image/);
    await user.upload(picker, new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(PROFILE_MESSAGES.notAnImage)).toBeInTheDocument();
    const huge = png();
    Object.defineProperty(huge, 'size', { value: 21 * 1024 * 1024 });
    await user.upload(picker, huge);
    expect(await screen.findByText(PROFILE_MESSAGES.imageTooLarge, asWritten)).toBeInTheDocument();
    expect(PROFILE_MESSAGES.imageTooLarge).toContain('20\u00a0MB');
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('refuses at once a picture it cannot read, and one whose canvas is too large to draw', async () => {
    const { api, user } = await openEditor();
    const picker = screen.getByLabelText(/Profile image/);
    await user.upload(picker, new File([new Uint8Array(10)], 'broken.png', { type: 'image/png' }));
    expect(await screen.findByText(PROFILE_MESSAGES.unreadableImage)).toBeInTheDocument();
    await user.upload(picker, new File([new Uint8Array(10)], 'bomb.png', { type: 'image/png' }));
    expect(await screen.findByText(PROFILE_MESSAGES.imageTooManyPixels)).toBeInTheDocument();
    expect(PROFILE_MESSAGES.imageTooManyPixels).toContain('40 megapixels');
    expect(screen.queryByRole('img', { name: 'Preview of your new profile image' })).toBeNull();
    expect(screen.queryByText(/saved when you press Save/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('does not keep a picture that could be read only in part, when Save finds it out', async () => {
    const { user } = await openEditor();
    await user.upload(
      screen.getByLabelText(/Profile image/),
      new File([new Uint8Array(10)], 'truncated.png', { type: 'image/png' }),
    );
    expect(await screen.findByText(/saved when you press Save/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(PROFILE_MESSAGES.unreadableImage)).toBeInTheDocument();
    expect(screen.queryByText(/saved when you press Save/)).toBeNull();
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it('previews a picked image before saving', async () => {
    const { user } = await openEditor();
    await user.upload(screen.getByLabelText(/Profile image/), png());
    expect(screen.getByRole('img', { name: 'Preview of your new profile image' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    expect(screen.getByText(/me\.png/)).toBeInTheDocument();
  });

  it('discards edits on Cancel and on Escape', async () => {
    const { user } = await openEditor();
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Edit profile' }));
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    await user.type(screen.getByLabelText('Last name'), ' King');
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Edit profile' }));
    expect(screen.getByLabelText('Last name')).toHaveValue('Lovelace');
  });

  it('keeps Cancel busy while Save runs, closing nothing; after a refusal it closes, and the keyboard goes back to "Edit profile", as after a save', async () => {
    const answers: Array<{ resolve: (saved: Profile) => void; reject: (error: Error) => void }> = [];
    vi.mocked(updateProfile).mockImplementation(
      () => new Promise<Profile>((resolve, reject) => answers.push({ resolve, reject })),
    );
    const { user } = await openEditor();
    const opener = screen.getByRole('button', { name: 'Edit profile', hidden: true });
    await user.type(screen.getByLabelText('Last name'), ' King');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    cancel.focus();
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Edit profile' })).toBeInTheDocument();
    expect(cancel).toHaveFocus();

    // Refused for no field: said in a toast, the keyboard still on Cancel, which now closes and gives it back.
    answers[0]!.reject(new ApiError(500, {}));
    await vi.waitFor(() => expect(cancel).not.toHaveAttribute('aria-disabled', 'true'));
    expect(toast.error).toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
    expect(cancel).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(opener).toHaveFocus());

    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!.resolve(profile);
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Edit profile' })).toHaveFocus());
  });

  it('open while another tab renames the person: takes the values not typed in, keeps what was typed, saves both', async () => {
    let answer = profile;
    const { user } = await openEditor({ [`GET ${API.profile}`]: () => jsonResponse(200, answer) });
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Augusta');
    answer = { ...profile, last_name: 'King', user_email: 'ada@new.example' };
    fireEvent(window, new StorageEvent('storage', { key: SESSION.storageKeys.user }));
    await vi.waitFor(() => expect(screen.getByLabelText('Last name')).toHaveValue('King'));
    expect(screen.getByLabelText('First name')).toHaveValue('Augusta');
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@new.example');
    vi.mocked(updateProfile).mockResolvedValue({ ...answer, first_name: 'Augusta' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The other tab's last name is not put back to the one this dialog opened with.
    expect(vi.mocked(updateProfile).mock.calls[0]?.[0]).toEqual({
      first_name: 'Augusta',
      last_name: 'King',
      profile_image: undefined,
    });
  });

  it('opened again after Cancel, shows the names as they are now, not as first opened', async () => {
    let answer = profile;
    const { user } = await openEditor({ [`GET ${API.profile}`]: () => jsonResponse(200, answer) });
    await user.type(screen.getByLabelText('Last name'), ' Byron');
    answer = { ...profile, first_name: 'Grace', last_name: 'Hopper' };
    fireEvent(window, new StorageEvent('storage', { key: SESSION.storageKeys.user }));
    await vi.waitFor(() => expect(screen.getByLabelText('First name')).toHaveValue('Grace'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Edit profile' }));
    expect(screen.getByLabelText('First name')).toHaveValue('Grace');
    expect(screen.getByLabelText('Last name')).toHaveValue('Hopper');
  });

  it('opened again after a save, takes a later rename from another tab in the names saved', async () => {
    let answer = profile;
    const { user } = await openEditor({ [`GET ${API.profile}`]: () => jsonResponse(200, answer) });
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Mira');
    answer = { ...profile, first_name: 'Mira' };
    vi.mocked(updateProfile).mockResolvedValue(answer);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    answer = { ...profile, first_name: 'Grace' };
    fireEvent(window, new StorageEvent('storage', { key: SESSION.storageKeys.user }));
    expect(await screen.findByText('Grace Lovelace')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit profile' }));
    expect(screen.getByLabelText('First name')).toHaveValue('Grace');
  });

  it('takes a name of only invisible characters for a missing one, and sends nothing', async () => {
    const { user } = await openEditor();
    await user.clear(screen.getByLabelText('First name'));
    await user.click(screen.getByLabelText('First name'));
    await user.paste('\u200b\u2060');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(PROFILE_MESSAGES.firstNameMissing)).toBeInTheDocument();
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it('says at a name, without sending, that it holds a direction control inside, in the server’s words', async () => {
    const { user } = await openEditor();
    await user.click(screen.getByLabelText('Last name'));
    await user.paste(' \u202etxt.exe');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(DIRECTION_CONTROL_REFUSED)).toBeInTheDocument();
    expect(screen.getByLabelText('Last name')).toHaveAttribute('aria-invalid', 'true');
    expect(updateProfile).not.toHaveBeenCalled();
  });

  it('saves a change of the first name beside a last name stored with a control character before 063, untouched', async () => {
    const stored = { ...profile, last_name: 'Love\u0007lace' };
    const { user } = await openEditor({ [`GET ${API.profile}`]: () => jsonResponse(200, stored) });
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Augusta');
    vi.mocked(updateProfile).mockResolvedValue({ ...stored, first_name: 'Augusta' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(vi.mocked(updateProfile).mock.calls[0]?.[0]).toMatchObject({
      first_name: 'Augusta',
      last_name: 'Love\u0007lace',
    });
    // Typed in, the same character is refused at its field (decision 129).
    await user.click(screen.getByRole('button', { name: 'Edit profile' }));
    await user.click(await screen.findByLabelText('Last name'));
    await user.paste('\u0007x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(CONTROL_CHARACTER_REFUSED)).toBeInTheDocument();
    expect(updateProfile).toHaveBeenCalledTimes(1);
  });

  it('says the limit of a name in words of its own, not the validator’s', async () => {
    const { user } = await openEditor();
    await user.clear(screen.getByLabelText('First name'));
    await user.click(screen.getByLabelText('First name'));
    await user.paste('x'.repeat(151));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(PROFILE_MESSAGES.nameTooLong)).toBeInTheDocument();
    expect(screen.queryByText(/Too big/)).toBeNull();
  });

  it('puts the server’s image refusal under the picker, with the spec’s toast', async () => {
    vi.mocked(updateProfile).mockRejectedValueOnce(
      new ApiError(400, { profile_image: ['Upload a valid image. The file you uploaded was either not an image.'] }),
    );
    const { user } = await openEditor();
    await user.upload(screen.getByLabelText(/Profile image/), png());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Upload a valid image/)).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('An error occurred, please try again.');
  });

  it('names the server’s size limit when the upload is refused as too large, and says offline when offline', async () => {
    vi.mocked(updateProfile)
      .mockRejectedValueOnce(new ApiError(413, { detail: 'The uploaded file is too large.' }))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { user } = await openEditor();
    await user.upload(screen.getByLabelText(/Profile image/), png());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(PROFILE_MESSAGES.uploadTooLarge, asWritten)).toBeInTheDocument();
    expect(PROFILE_MESSAGES.uploadTooLarge).toContain('5\u00a0MB');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(OFFLINE_MESSAGE));
  });
});

describe('edit profile dialog, saved on a press again', () => {
  it('takes the earlier failure’s toast away once the save works, and only it (decision 150)', async () => {
    vi.mocked(updateProfile)
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce({ ...profile, first_name: 'Ada Augusta' });
    const { user } = await openEditor();
    await user.type(screen.getByLabelText('First name'), ' Augusta');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(OFFLINE_MESSAGE));
    const offline = vi.mocked(toast.error).mock.results[0]!.value as string;
    expect(toast.dismiss).not.toHaveBeenCalledWith(offline);
    const before = vi.mocked(toast.dismiss).mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit profile' })).toBeNull());
    expect(vi.mocked(toast.dismiss).mock.calls.slice(before)).toEqual([[offline]]);
  });
});

describe('edit profile dialog, past the hourly limit of pictures', () => {
  it('says too many pictures and how long to wait, not that an error occurred, and keeps the picture picked', async () => {
    vi.mocked(updateProfile)
      .mockRejectedValueOnce(
        new ApiError(429, { detail: 'Request was throttled. Expected available in 1412 seconds.' }, '1412'),
      )
      .mockRejectedValueOnce(
        new ApiError(429, { detail: 'Request was throttled. Expected available in 30 seconds.' }, '30'),
      );
    const { user } = await openEditor();
    await user.upload(screen.getByLabelText(/Profile image/), png());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Too many new pictures in the last hour. You can send another in 24 minutes; your name can be saved without one.',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenLastCalledWith(PROFILE_MESSAGES.imageThrottled(1)));
    expect(PROFILE_MESSAGES.imageThrottled(1)).toContain('in 1 minute;');
    expect(toast.error).not.toHaveBeenCalledWith('An error occurred, please try again.');
    expect(vi.mocked(updateProfile).mock.calls.map(([update]) => update.profile_image)).toEqual([
      expect.any(File),
      expect.any(File),
    ]);
  });
});

describe('edit profile dialog, on a session signed out from another browser', () => {
  it('says nothing of its own: the session’s end has its one toast and the trip to login', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'ada@example.com');
    // What apiRequest does when the server refuses the token and its refresh: ends the session, throws the 401.
    vi.mocked(updateProfile).mockImplementation(async () => {
      sessionStore.clear();
      throw new ApiError(401, { detail: 'Given token not valid for any token type' });
    });
    const { user } = await openEditor();
    await user.type(screen.getByLabelText('Last name'), 'x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(updateProfile).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toast.error).not.toHaveBeenCalled();
  });
});
