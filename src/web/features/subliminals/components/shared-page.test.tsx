import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionPlan } from '@shared/constants';
import type { SharedItem } from '@shared/contract';
import { PLAN_FEATURES, type PlanFeature } from '@shared/plans';
import { API, fillPath } from '@shared/contract/paths';
import { sessionStore } from '@web/lib/session';
import { fakeEngine, fakeSoundEngine } from '@web/test/fake-sound-engine';
import {
  fakeApi,
  jsonResponse,
  planFailingOnce,
  planStateFor,
  renderWithProviders,
  type ApiHandler,
} from '@web/test/render';
import { DEFAULT_SETTINGS } from '../lib/player-storage';
import { SHARED_DATA_ID } from '../api/shared-item';
import { SHARED_GONE, SharedPage } from './shared-page';
import { waitFrames } from '@web/test/frames';
import { everyElementShown } from '@web/test/shown';

vi.mock('sonner', () => {
  // The themed toaster's ids: each toast its own.
  let shown = 0;
  return { toast: { error: vi.fn(() => `error#${++shown}`), success: vi.fn(), dismiss: vi.fn() } };
});
// jsdom has no Web Audio: the engine stands in.
vi.mock('@web/lib/audio/app-engine', async () => ({
  soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
}));
afterEach(() => {
  sessionStore.clear();
  vi.clearAllMocks();
  fakeEngine.reset();
});

const TOKEN = 'abcdefghijklmnopqrstuv';
const shared: SharedItem = {
  kind: 'subliminal',
  name: 'Evening calm',
  messages: ['I let the day go', 'I rest deeply'],
  settings: { ...DEFAULT_SETTINGS, theme: 'forest', messageColor: '#bbf7d0' },
  sound: null,
  private_tracks: [],
  gone_tracks: [],
  shared_at: '2026-11-20T18:00:00Z',
};
const withSound: SharedItem = {
  ...shared,
  sound: {
    volume: 0.7,
    layers: [
      { kind: 'binaural', left_hz: 200, right_hz: 206, gain_db: -12 },
      { kind: 'noise', colour: 'brown', gain_db: -20 },
      { kind: 'voice', voice: 'en-us', rate: 145, pause_s: 2, level_db: -25, gain_db: -6 },
    ],
  },
  private_tracks: ['Sea at night'],
};

/** Signed in as an Intermediate member, the link with sound on the server; `whileWriting` runs as the player is written. */
function signedInWithSound(whileWriting = () => {}) {
  sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
  fakeApi({
    [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => withSound,
    [`GET ${API.plan}`]: () => planStateFor('intermediate'),
    [`PUT ${API.player}`]: ({ body }) => {
      whileWriting();
      return { ...(body as object), updated_at: '2026-11-23T10:00:00Z' };
    },
  });
}

const renderShared = () =>
  renderWithProviders(<SharedPage token={TOKEN} />, {
    path: `/s/${TOKEN}`,
    routes: [{ path: '/subliminals', element: <p>player</p> }],
  });

/** The page in the app's `main`, where the keyboard's hand-overs look for the page's heading. */
const renderSharedInMain = () =>
  renderWithProviders(
    <main id="main">
      <SharedPage token={TOKEN} />
    </main>,
    { path: `/s/${TOKEN}` },
  );

describe('SharedPage', () => {
  it('shows a visitor the name and messages, asks for no login, and invites them to sign up', async () => {
    const server = fakeApi({ [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => shared });
    renderShared();
    expect(await screen.findByRole('heading', { name: 'Evening calm' })).toBeInTheDocument();
    expect(screen.getByText('I rest deeply')).toBeInTheDocument();
    // Each number stays on one line with its unit (no-break spaces).
    expect(screen.getByText(/Forest theme/).textContent).toBe(
      'Forest theme · each message shows for 100\u00a0ms, one every 2\u00a0s · 20\u00a0px',
    );
    // Both come back here: a sign-up through its activation e-mail (decision 052).
    expect(screen.getByRole('link', { name: 'Sign up free' })).toHaveAttribute(
      'href',
      `/signup?redirect=%2Fs%2F${TOKEN}`,
    );
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', `/login?redirect=%2Fs%2F${TOKEN}`);
    expect(server.calls[0]!.auth).toBeNull();
  });

  it('says plainly when a link was revoked or never existed', async () => {
    fakeApi({ [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => jsonResponse(404, { detail: 'Not found.' }) });
    renderShared();
    expect(await screen.findByRole('alert')).toHaveTextContent(SHARED_GONE);
  });

  it('plays it for a signed-in Basic member with a theme their plan has, and locks the copy', async () => {
    const user = userEvent.setup();
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const server = fakeApi({
      [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => shared,
      [`GET ${API.plan}`]: () => planStateFor('basic'),
      [`PUT ${API.player}`]: ({ body }) => ({ ...(body as object), updated_at: '2026-11-23T10:00:00Z' }),
    });
    const { router } = renderShared();
    await user.click(await screen.findByRole('button', { name: 'Play it now' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subliminals'));
    expect(server.calls.find((call) => call.method === 'PUT')?.body).toEqual({
      playlist: [
        { message_text: 'I let the day go', source: 'shared', message_id: 1 },
        { message_text: 'I rest deeply', source: 'shared', message_id: 2 },
      ],
      settings: { ...(shared.kind === 'subliminal' && shared.settings), theme: 'classic' },
    });
  });
});

describe('SharedPage while a press waits', () => {
  it('keeps the keyboard on "Save a copy" while it runs, a second press sending nothing, Play unavailable meanwhile', async () => {
    const user = userEvent.setup();
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    let answer = (_response: Response) => {};
    const server = fakeApi({
      [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => shared,
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`POST ${fillPath(API.sharedCopy, { token: TOKEN })}`]: () =>
        new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderShared();
    const copy = await screen.findByRole('button', { name: 'Save a copy' });
    copy.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(copy).toHaveAttribute('aria-disabled', 'true'));
    expect(copy).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    await user.click(copy);
    // The other button waits on no call of its own: unavailable.
    expect(screen.getByRole('button', { name: 'Play it now' })).toBeDisabled();
    expect(server.calls.filter(({ method }) => method === 'POST')).toHaveLength(1);

    const { toast } = await import('sonner');
    answer(jsonResponse(201, { kind: 'subliminal', subliminal: { name: 'Evening calm' } }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Saved a copy as \u2068Evening calm\u2069.'));
    expect(copy).not.toHaveAttribute('aria-disabled');
    expect(copy).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Play it now' })).toBeEnabled();
  });
});

describe('SharedPage: a copy pressed again (decision 148)', () => {
  it('sends a press whose answer never came again under its key, takes its failure away once the copy is made, and a press after a copy goes under a new key', async () => {
    const user = userEvent.setup();
    const { toast } = await import('sonner');
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    let lost = true;
    const server = fakeApi({
      [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => shared,
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      // The server made the copy, and its answer was lost on the way back.
      [`POST ${fillPath(API.sharedCopy, { token: TOKEN })}`]: () => {
        if (lost) throw new TypeError('Failed to fetch');
        return jsonResponse(200, { kind: 'subliminal', subliminal: { name: 'Evening calm' } });
      },
    });
    renderShared();
    const copy = await screen.findByRole('button', { name: 'Save a copy' });
    await user.click(copy);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalled());
    const offline = vi.mocked(toast.error).mock.results[0]!.value as string;
    expect(toast.dismiss).not.toHaveBeenCalled();
    lost = false;
    await user.click(copy);
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Saved a copy as \u2068Evening calm\u2069.'));
    // The failure the press again put right goes as its success is said, and only it.
    expect(vi.mocked(toast.dismiss).mock.calls).toEqual([[offline]]);
    await user.click(copy);
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledTimes(2));
    expect(toast.dismiss).toHaveBeenCalledTimes(1);
    const keys = server.calls
      .filter(({ method }) => method === 'POST')
      .map(({ body }) => (body as { copy_key: string }).copy_key);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});

describe('SharedPage when the link goes meanwhile', () => {
  it('says so when a copy is refused because the owner stopped sharing, and shows the link gone', async () => {
    const user = userEvent.setup();
    const { toast } = await import('sonner');
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const path = fillPath(API.shared, { token: TOKEN });
    let revoked = false;
    let answerReadAgain: (response: Response) => void = () => {};
    fakeApi({
      // Read again once revoked, it answers when the test says: a network's time, many frames.
      [`GET ${path}`]: () => (revoked ? new Promise<Response>((resolve) => (answerReadAgain = resolve)) : shared),
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`POST ${fillPath(API.sharedCopy, { token: TOKEN })}`]: () => jsonResponse(404, { detail: 'Not found.' }),
    });
    everyElementShown();
    renderSharedInMain();
    const copy = await screen.findByRole('button', { name: 'Save a copy' });
    revoked = true;
    copy.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading');
    await waitFrames(5);
    answerReadAgain(jsonResponse(404, { detail: 'Not found.' }));
    expect(await screen.findByRole('heading', { name: 'Link not found' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(SHARED_GONE);
    expect(toast.error).toHaveBeenCalledWith(SHARED_GONE);
    // The buttons went with the link: the keyboard is on the heading that says so, not the page's top.
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Link not found' })).toHaveFocus());
  });

  it("puts the keyboard on the shared item's heading once a failed read's Try again has read it", async () => {
    const user = userEvent.setup();
    const path = fillPath(API.shared, { token: TOKEN });
    let reads = 0;
    let answerReadAgain: (response: Response) => void = () => {};
    fakeApi({
      [`GET ${path}`]: () =>
        ++reads === 1
          ? jsonResponse(503, { detail: 'Service unavailable.' })
          : new Promise<Response>((resolve) => (answerReadAgain = resolve)),
    });
    everyElementShown();
    renderSharedInMain();
    const again = await screen.findByRole('button', { name: 'Try again' });
    again.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading');
    await waitFrames(5);
    answerReadAgain(jsonResponse(200, shared));
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Evening calm' })).toHaveFocus());
  });

  it('plays nothing once the owner stopped sharing, and shows the link gone', async () => {
    const user = userEvent.setup();
    const { toast } = await import('sonner');
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    let revoked = false;
    const server = fakeApi({
      [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () =>
        revoked ? jsonResponse(404, { detail: 'Not found.' }) : shared,
      [`GET ${API.plan}`]: () => planStateFor('pro'),
      [`PUT ${API.player}`]: ({ body }) => ({ ...(body as object), updated_at: '2026-11-23T10:00:00Z' }),
    });
    const { router } = renderShared();
    const play = await screen.findByRole('button', { name: 'Play it now' });
    revoked = true;
    await user.click(play);
    expect(await screen.findByRole('heading', { name: 'Link not found' })).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(SHARED_GONE);
    expect(server.calls.some((call) => call.method === 'PUT')).toBe(false);
    expect(router.state.location.pathname).toBe(`/s/${TOKEN}`);
    // The press primed the sound for a start that will not come: the prime is given back (decision 080).
    expect(fakeSoundEngine.prime).toHaveBeenCalledTimes(1);
    expect(fakeEngine.primed).toBe(0);
  });
});

describe('SharedPage on arrival', () => {
  it('starts from what the server put in the document, once: the next page for the link reads it', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    const path = fillPath(API.shared, { token: TOKEN });
    const server = fakeApi({ [`GET ${path}`]: () => shared, [`GET ${API.plan}`]: () => planStateFor('basic') });
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = SHARED_DATA_ID;
    block.textContent = JSON.stringify({ status: 'ready', item: { ...shared, name: 'Served calm' } });
    document.body.append(block);

    const first = renderShared();
    expect(await screen.findByRole('heading', { name: 'Served calm' })).toBeInTheDocument();
    expect(document.getElementById(SHARED_DATA_ID)).toBeNull();
    first.unmount();
    renderShared();
    expect(await screen.findByRole('heading', { name: 'Evening calm' })).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path === path)).toHaveLength(1);
  });
});

describe('SharedPage with sound', () => {
  it('names a library track removed since it was saved as left out, and plays what can', async () => {
    const binauralOnly = {
      volume: 0.7,
      layers: [{ kind: 'binaural' as const, left_hz: 200, right_hz: 206, gain_db: -12 }],
    };
    fakeApi({
      [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => ({
        ...shared,
        sound: binauralOnly,
        gone_tracks: ['432 Hz · Natural tuning'],
      }),
    });
    renderShared();
    expect(await screen.findByText('Plays with a free account: Binaural beats.')).toBeInTheDocument();
    expect(screen.getByTestId('shared-sound-left-out')).toHaveTextContent(
      'Left out: \u2068432 Hz · Natural tuning\u2069 (no longer in the library).',
    );
  });

  it('tells a visitor which layers a free account plays and which are left out, and why', async () => {
    const server = fakeApi({ [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => withSound });
    renderShared();
    expect(await screen.findByTestId('shared-sound')).toHaveTextContent(
      'Binaural beats −12 dB · Brown noise −20 dB · Spoken affirmations 25 dB under · volume 70 %',
    );
    expect(screen.getByText('Plays with a free account: Binaural beats.')).toBeInTheDocument();
    expect(screen.getByTestId('shared-sound-left-out')).toHaveTextContent(
      "Left out: \u2068Sea at night\u2069 (the sharer's own music stays private); Brown noise (part of the Intermediate plan); Spoken affirmations (part of the Pro plan).",
    );
    expect(server.unanswered).toEqual([]);
  });

  it('starts the layers an Intermediate member plays, at their levels, and says what it left out', async () => {
    const user = userEvent.setup();
    const { toast } = await import('sonner');
    signedInWithSound();
    const { router } = renderShared();
    expect(await screen.findByText('Plays with your plan: Binaural beats, Brown noise.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Play it now' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subliminals'));
    expect(fakeSoundEngine.setVolume).toHaveBeenCalledWith(0.7);
    expect(fakeSoundEngine.setLayer.mock.calls).toEqual([
      ['binaural', { kind: 'binaural', leftHz: 200, rightHz: 206 }, 10 ** (-12 / 20), { exclusive: true }],
      ['noise', { kind: 'noise', colour: 'brown' }, 10 ** (-20 / 20)],
    ]);
    expect(toast.success).toHaveBeenCalledWith(
      "\u2068Evening calm\u2069 is in your player. Left out: \u2068Sea at night\u2069 (the sharer's own music stays private); Spoken affirmations (part of the Pro plan).",
    );
  });

  it('plays nothing, goes nowhere and says nothing when the person is signed out while the server answers (decision 085)', async () => {
    const user = userEvent.setup();
    const { toast } = await import('sonner');
    // Signed out in another tab while the player is written.
    signedInWithSound(() => sessionStore.clear());
    const { router } = renderShared();
    await user.click(await screen.findByRole('button', { name: 'Play it now' }));
    await vi.waitFor(() => expect(fakeEngine.primed).toBe(0));
    expect(fakeSoundEngine.prime).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe(`/s/${TOKEN}`);
    expect(fakeSoundEngine.setLayer).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('starts the sound in Safari, which allows it only inside the press, though it starts after the server’s answers (decision 075)', async () => {
    const user = userEvent.setup();
    fakeEngine.pressOnly = true;
    signedInWithSound();
    const { router } = renderShared();
    await user.click(await screen.findByRole('button', { name: 'Play it now' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subliminals'));
    expect(fakeSoundEngine.setLayer).toHaveBeenCalled();
    expect(fakeEngine.state).toMatchObject({ status: 'playing', refused: false });
  });
});

describe('SharedPage: the copy and the plan (decisions 124, 132)', () => {
  const messageSet: SharedItem = {
    kind: 'messages',
    name: 'Morning words',
    messages: ['I begin gently'],
    shared_at: '2026-11-20T18:00:00Z',
  };
  function signedIn(item: SharedItem, plan: ApiHandler) {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    return fakeApi({ [`GET ${fillPath(API.shared, { token: TOKEN })}`]: () => item, [`GET ${API.plan}`]: plan });
  }

  it('locks a subliminal’s copy below Intermediate as “Save a copy”, a dialog naming saving subliminals', async () => {
    const user = userEvent.setup();
    signedIn(shared, () => planStateFor('basic'));
    renderShared();
    await user.click(await screen.findByRole('button', { name: 'Save a copy Intermediate' }));
    expect(
      await screen.findByRole('dialog', { name: 'Saving subliminals is part of the Intermediate plan' }),
    ).toBeVisible();
  });

  it('locks a message set’s copy as “Add to my messages”, by the own messages’ plan, were they a higher plan’s', async () => {
    const user = userEvent.setup();
    // Every plan has own messages today, so no member meets this lock; the lock still names the copy it stands for.
    const features = PLAN_FEATURES as Record<PlanFeature, SubscriptionPlan>;
    features.ownMessages = 'intermediate';
    try {
      signedIn(messageSet, () => planStateFor('basic'));
      renderShared();
      await user.click(await screen.findByRole('button', { name: 'Add to my messages Intermediate' }));
      expect(
        await screen.findByRole('dialog', { name: 'Adding messages of your own is part of the Intermediate plan' }),
      ).toBeVisible();
      expect(screen.queryByRole('button', { name: /Save a copy/ })).toBeNull();
    } finally {
      features.ownMessages = 'basic';
    }
  });

  it('offers a message set’s “Add to my messages” while the plan is read: every member has it', async () => {
    signedIn(messageSet, () => new Promise<Response>(() => {}));
    renderShared();
    expect(await screen.findByRole('button', { name: 'Add to my messages' })).toBeEnabled();
  });

  it('offers a message set’s “Add to my messages” after the plan’s read failed, saying nothing of the plan', async () => {
    const api = signedIn(messageSet, () => jsonResponse(500, { detail: 'Server error.' }));
    renderShared();
    expect(await screen.findByRole('button', { name: 'Add to my messages' })).toBeEnabled();
    await vi.waitFor(() => expect(api.calls.filter((call) => call.path === API.plan)).toHaveLength(1));
    await waitFrames(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says where a subliminal’s copy would be that the plan could not be read, and its Try again hands the keyboard to the copy', async () => {
    const plan = planFailingOnce();
    const api = signedIn(shared, plan.read);
    everyElementShown();
    renderShared();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your plan: Server error.Save a copy shows once it is read.');
    expect(screen.getByRole('button', { name: 'Play it now' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: /Save a copy/ })).toBeNull();
    const button = within(alert).getByRole('button', { name: 'Try again' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveFocus();
    expect(api.calls.filter((call) => call.path === API.plan)).toHaveLength(2);
    plan.answer(planStateFor('pro'));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Save a copy' })).toHaveFocus());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
