import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OwnMusic } from '@shared/contract';
import { OWN_MUSIC } from '@shared/contract/own';
import { API, fillPath } from '@shared/contract/paths';
import { DIRECTION_CONTROL_REFUSED, maxCharactersMessage } from '@shared/contract/plain';
import type { SubscriptionPlan } from '@shared/constants';
import { fakeApi, jsonResponse, planFailingOnce, planStateFor, renderWithProviders } from '@web/test/render';
import { ApiError } from '@web/lib/api-client';
import { fakeEngine } from '@web/test/fake-sound-engine';
import { uploadOwnTrack } from '../api/own-music';
import { MY_MUSIC_EMPTY, MyMusic, ownTrackKey } from './my-music';
import { everyElementShown } from '@web/test/shown';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));
// The upload goes out through XMLHttpRequest (its progress), which the fake server does not answer.
vi.mock('../api/own-music', async (original) => ({
  ...(await original<object>()),
  uploadOwnTrack: vi.fn(),
}));
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));
afterEach(() => {
  act(() => fakeEngine.reset());
  vi.clearAllMocks();
});

const track = { id: 7, name: 'Forest walk', url: '/media/own-music/1/a.mp3', bytes: 3 * 1024 * 1024, created_at: '' };

function musicServer(plan: SubscriptionPlan, tracks: OwnMusic['tracks']) {
  const music: OwnMusic = { tracks, used_bytes: 0, max_bytes: OWN_MUSIC.maxBytes, max_tracks: OWN_MUSIC.maxTracks };
  music.used_bytes = tracks.reduce((sum, t) => sum + t.bytes, 0);
  return fakeApi({
    [`GET ${API.plan}`]: () => planStateFor(plan),
    [`GET ${API.myMusic}`]: () => music,
    [`DELETE ${fillPath(API.myMusicTrack, { id: 7 })}`]: () => {
      music.tracks = music.tracks.filter((t) => t.id !== 7);
      music.used_bytes = 0;
      return jsonResponse(204);
    },
  });
}

describe('MyMusic', () => {
  it('offers Pro an upload, says how much of the quota is used, plays a track and deletes it after asking', async () => {
    const user = userEvent.setup();
    const api = musicServer('pro', [track]);
    const onToggle = vi.fn();
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={onToggle} />);
    expect(await screen.findByText(/1 of 50 tracks, 3 MB of 500 MB used\./)).toBeInTheDocument();
    expect(screen.getByLabelText('Audio file')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Play Forest walk' }));
    expect(onToggle).toHaveBeenCalledWith(ownTrackKey(7), 'Forest walk', track.url);

    await user.click(screen.getByRole('button', { name: 'Delete Forest walk' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(MY_MUSIC_EMPTY)).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  /** Deletes Forest walk from the keyboard, Delete and the dialog's Delete pressed with Enter. */
  async function deleteFromTheKeyboard() {
    const user = userEvent.setup();
    (await screen.findByRole('button', { name: 'Delete Forest walk' })).focus();
    await user.keyboard('{Enter}');
    within(await screen.findByRole('dialog'))
      .getByRole('button', { name: 'Delete' })
      .focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Forest walk' })).toBeNull());
  }

  it('hands the keyboard from the last track deleted to the file field that uploads the next (decision 151)', async () => {
    musicServer('pro', [track]);
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    await deleteFromTheKeyboard();
    await vi.waitFor(() => expect(screen.getByLabelText('Audio file')).toHaveFocus());
  });

  it('after a downgrade, hands the keyboard from the last track deleted to the heading of My music (decision 151)', async () => {
    musicServer('basic', [track]);
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    await deleteFromTheKeyboard();
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'My music' })).toHaveFocus());
  });

  /** Deletes Forest walk (own:7) while `key` plays on the track layer over pink noise; resolves once it is gone. */
  async function deleteWhilePlaying(key: string) {
    const user = userEvent.setup();
    musicServer('pro', [track]);
    act(() =>
      fakeEngine.set({
        status: 'playing',
        layers: [
          {
            id: 'track',
            source: { kind: 'track', key, title: 'Playing', url: '/media/a.mp3' },
            gain: 1,
            status: 'ready',
          },
          { id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 0.25, status: 'ready' },
        ],
      }),
    );
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Delete Forest walk' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(MY_MUSIC_EMPTY)).toBeInTheDocument();
    return fakeEngine.state.layers.map((layer) => layer.id);
  }

  it('stops a track deleted while it plays, its file gone, and leaves the other layers playing', async () => {
    expect(await deleteWhilePlaying(ownTrackKey(7))).toEqual(['noise']);
  });

  it('leaves another track playing when a track not playing is deleted', async () => {
    expect(await deleteWhilePlaying('selfeggio:7')).toEqual(['track', 'noise']);
  });

  it('refuses a file over the size a track may have before sending it', async () => {
    const user = userEvent.setup();
    musicServer('pro', []);
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    const big = new File(['x'], 'long-set.mp3', { type: 'audio/mpeg' });
    Object.defineProperty(big, 'size', { value: OWN_MUSIC.maxFileBytes + 1 });
    await user.upload(await screen.findByLabelText('Audio file'), big);
    expect(screen.getByText(/a track may be up to 100 MB\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('says at the name, without sending, that a typed name holds a direction control; the file’s name drops them, nobody typed it', async () => {
    const user = userEvent.setup();
    musicServer('pro', []);
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    await user.upload(
      await screen.findByLabelText('Audio file'),
      new File(['x'], 'Sleep \u202etxt.mp3', { type: 'audio/mpeg' }),
    );
    const name = screen.getByRole('textbox', { name: /Name/ });
    expect(name).toHaveAttribute('placeholder', 'Sleep txt');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
    await user.type(name, 'Rain \u202eon glass');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert')).toHaveTextContent(DIRECTION_CONTROL_REFUSED);
    expect(name).toHaveFocus();
    expect(uploadOwnTrack).not.toHaveBeenCalled();

    await user.clear(name);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(uploadOwnTrack).toHaveBeenCalledWith(expect.any(File), '', expect.any(Function));
  });

  it('takes a name of 80 emoji, as the server counts them, and says without sending when one is over', async () => {
    const user = userEvent.setup();
    musicServer('pro', []);
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    await user.upload(await screen.findByLabelText('Audio file'), new File(['x'], 'rain.mp3', { type: 'audio/mpeg' }));
    const name = screen.getByRole('textbox', { name: /Name/ });
    // Two UTF-16 units each: the field's maxLength stopped them at 40.
    const full = '🌧'.repeat(OWN_MUSIC.nameMax);
    await user.type(name, `${full}.`);
    expect(screen.getByRole('alert')).toHaveTextContent(maxCharactersMessage(OWN_MUSIC.nameMax));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(name).toHaveFocus();
    expect(uploadOwnTrack).not.toHaveBeenCalled();

    await user.keyboard('{Backspace}');
    expect(name).toHaveValue(full);
    expect(screen.getByText('80 / 80')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(uploadOwnTrack).toHaveBeenCalledWith(expect.any(File), full, expect.any(Function));
  });

  it('keeps the keyboard on Upload while the file goes, a second press sending nothing, then hands it to the file field', async () => {
    const user = userEvent.setup();
    let kept!: () => void;
    vi.mocked(uploadOwnTrack).mockImplementationOnce(
      () => new Promise((resolve) => (kept = () => resolve({ ...track, id: 8, name: 'Rain' }))),
    );
    musicServer('pro', []);
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    const field = await screen.findByLabelText('Audio file');
    await user.upload(field, new File(['rain'], 'rain.mp3', { type: 'audio/mpeg' }));
    const upload = screen.getByRole('button', { name: 'Upload' });
    upload.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(upload).toHaveAttribute('aria-disabled', 'true'));
    expect(upload).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(uploadOwnTrack).toHaveBeenCalledTimes(1);

    // Kept: no file is chosen now, Upload is unavailable, and the keyboard is where the next track is chosen.
    kept();
    await vi.waitFor(() => expect(field).toHaveFocus());
    expect(upload).toBeDisabled();
  });

  it('keeps the reason a file was refused under it, until another file is picked', async () => {
    const user = userEvent.setup();
    const { toast } = await import('sonner');
    const refused = 'Upload an audio file: MP3, OGG, WAV, M4A/AAC or FLAC.';
    vi.mocked(uploadOwnTrack).mockRejectedValueOnce(new ApiError(400, { audio_file: [refused] }));
    musicServer('pro', []);
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    const field = await screen.findByLabelText('Audio file');
    await user.upload(field, new File(['not audio'], 'notes.mp3', { type: 'audio/mpeg' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(refused)).toHaveClass('text-danger');
    expect(toast.error).toHaveBeenCalledWith(refused);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.upload(field, new File(['other'], 'other.mp3', { type: 'audio/mpeg' }));
    expect(screen.queryByText(refused)).toBeNull();
    expect(screen.getByText(/MP3, OGG, WAV, M4A\/AAC or FLAC, up to/)).toBeInTheDocument();
  });

  it('shows other plans what Pro adds, without an upload, and keeps tracks left from Pro playable', async () => {
    musicServer('intermediate', []);
    const { unmount } = renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    expect(await screen.findByRole('button', { name: /Your own music/ })).toBeInTheDocument();
    expect(screen.queryByLabelText('Audio file')).not.toBeInTheDocument();
    unmount();

    musicServer('basic', [track]);
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    expect(await screen.findByRole('button', { name: 'Play Forest walk' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Audio file')).not.toBeInTheDocument();
    // Said to be kept, in place of the offer.
    expect(await screen.findByText('Your tracks are kept: play them or delete them here.')).toBeInTheDocument();
    expect(screen.queryByText(/^Upload your own music/)).toBeNull();
  });

  it('offers neither the upload nor its lock while the plan is read, nor once its read failed (decision 124)', async () => {
    let answerPlan: (answer: Response) => void = () => {};
    fakeApi({
      [`GET ${API.plan}`]: () => new Promise<Response>((resolve) => (answerPlan = resolve)),
      [`GET ${API.myMusic}`]: () => ({ tracks: [track], used_bytes: track.bytes, max_bytes: 1, max_tracks: 1 }),
    });
    const { unmount } = renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    // A Basic member's tracks left from Pro show while the plan is read; an upload the server would refuse does not.
    expect(await screen.findByRole('button', { name: 'Play Forest walk' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Audio file')).not.toBeInTheDocument();
    expect(screen.queryByText(/Your own tracks, kept privately/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Your own music/ })).not.toBeInTheDocument();
    answerPlan(jsonResponse(200, planStateFor('basic')));
    expect(await screen.findByRole('button', { name: /Your own music/ })).toBeInTheDocument();
    expect(screen.queryByLabelText('Audio file')).not.toBeInTheDocument();
    unmount();

    fakeApi({
      [`GET ${API.plan}`]: () => jsonResponse(500, { detail: 'Server error.' }),
      [`GET ${API.myMusic}`]: () => ({ tracks: [track], used_bytes: track.bytes, max_bytes: 1, max_tracks: 1 }),
    });
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    expect(await screen.findByRole('button', { name: 'Play Forest walk' })).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByLabelText('Audio file')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Your own music/ })).not.toBeInTheDocument();
  });

  it('says where the upload would be that the plan could not be read, and Try again hands the keyboard to the upload (decision 132)', async () => {
    everyElementShown();
    const plan = planFailingOnce();
    fakeApi({
      [`GET ${API.plan}`]: plan.read,
      [`GET ${API.myMusic}`]: () => ({ tracks: [track], used_bytes: track.bytes, max_bytes: 1, max_tracks: 1 }),
    });
    renderWithProviders(<MyMusic statusOf={() => 'idle'} onToggle={vi.fn()} />);
    const section = screen.getByRole('region', { name: 'My music' });
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Could not load your plan: Server error.Adding your own music shows once it is read.',
    );
    expect(await screen.findByRole('button', { name: 'Play Forest walk' })).toBeInTheDocument();
    const button = within(alert).getByRole('button', { name: 'Try again' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveFocus();
    plan.answer(planStateFor('pro'));
    await vi.waitFor(() => expect(screen.getByLabelText('Audio file')).toHaveFocus());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
