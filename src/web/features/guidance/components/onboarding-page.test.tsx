import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import type { SubscriptionPlan } from '@shared/constants';
import type { Onboarding, ProgramSummary } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { GOAL_FREE_TEXT_MAX } from '@shared/contract/portal-plain';
import { CONTROL_CHARACTER_REFUSED, DIRECTION_CONTROL_REFUSED, maxCharactersMessage } from '@shared/contract/plain';
import { fakeApi, jsonResponse, planStateFor, pressToastAction, renderWithProviders } from '@web/test/render';
import { paths } from '@web/lib/paths';
import { ONBOARDING_TEXTS, OnboardingPage } from './onboarding-page';
import { NOTICE_BOTTOM_VAR, ONBOARDING_WAIT_MS, OnboardingPrompt, useOnboardingSettling } from './onboarding-prompt';
import { everyElementShown } from '@web/test/shown';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const fresh: Onboarding = {
  goals: [],
  free_text: '',
  headphones: null,
  session_minutes: null,
  skipped: false,
  completed_at: null,
};

/** A program of the library serving these goals, as GET /api/user/programs/ lists it. */
const program = (slug: string, goals: ProgramSummary['goals']): ProgramSummary => ({
  slug,
  title: slug,
  summary: `${slug} in a few days.`,
  goals,
  day_count: 7,
  minutes: { min: 10, max: 15 },
  progress: { slug, completed_days: [], next_day: 1, last_completed_at: null, started_at: null },
});

/** The server's PUT: stores what it gets, as the contract says it answers; the programs serve Sleep and Calm. */
function server(start: Onboarding = fresh, plan: SubscriptionPlan = 'basic') {
  let stored = start;
  const api = fakeApi({
    [`GET ${API.plan}`]: () => planStateFor(plan),
    [`GET ${API.programs}`]: () => [program('seven-nights-of-rest', ['sleep', 'calm'])],
    [`GET ${API.onboarding}`]: () => stored,
    [`PUT ${API.onboarding}`]: ({ body }) => {
      const write = body as Partial<Onboarding>;
      stored = { ...fresh, ...write, completed_at: '2026-11-23T18:00:00.000Z' };
      return stored;
    },
  });
  return api;
}

function renderPage(path: string = paths.welcome) {
  return renderWithProviders(<OnboardingPage />, {
    path,
    pattern: paths.welcome,
    routes: [
      { path: paths.portalHome, element: <p>Hub</p> },
      { path: paths.subliminals, element: <p>Subliminals page</p> },
      { path: paths.profile, element: <p>Profile page</p> },
    ],
  });
}

afterEach(() => {
  sessionStorage.clear();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});

describe('OnboardingPage', () => {
  it('saves the chosen goals, free text, headphones and length, then goes to the hub', async () => {
    const user = userEvent.setup();
    const { calls } = server();
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Sleep' }));
    await user.click(screen.getByRole('button', { name: 'Focus' }));
    await user.click(screen.getByRole('button', { name: 'Focus' }));
    expect(screen.getByRole('button', { name: 'Sleep' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Focus' })).toHaveAttribute('aria-pressed', 'false');
    await user.type(screen.getByLabelText(/In your own words/), '  winding down  ');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(screen.getByRole('heading', { name: 'Do you listen with headphones?' })).toHaveFocus();
    await user.click(screen.getByRole('radio', { name: 'No, speakers' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));

    // The length says what it is used for, and nothing more (decision 120).
    expect(
      screen.getByText(
        /^Of the programs about your goals, the portal suggests the one whose days come closest to it\./,
      ),
    ).toBeVisible();
    expect(screen.queryByText(/rough guide/)).toBeNull();
    // Arrow keys move through the lengths and choose as they go.
    await user.click(screen.getByRole('radio', { name: '10 minutes' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: '20 minutes' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Hub')).toBeInTheDocument();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      goals: ['sleep'],
      free_text: 'winding down',
      headphones: false,
      session_minutes: 20,
      skipped: false,
    });
    // The hub it shows on has the suggestions under its title, in "For you": not "ready in the portal", as the
    // person is in the portal already.
    expect(toast.success).toHaveBeenCalledWith('Saved. Your suggestions are below, under For you.');
  });

  it('answered for the first time from the profile, goes back there and says where the suggestions are, with a way there', async () => {
    const user = userEvent.setup();
    server();
    renderPage(`${paths.welcome}?from=${encodeURIComponent(paths.profile)}`);
    await user.click(await screen.findByRole('button', { name: 'Calm' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile page')).toBeInTheDocument();
    const said = 'Saved. Your suggestions are under For you, on the portal’s first page.';
    expect(toast.success).toHaveBeenCalledWith(said, { action: expect.objectContaining({ label: 'Show them' }) });
    pressToastAction(said);
    expect(await screen.findByText('Hub')).toBeInTheDocument();
  });

  it('promises suggestions only where For you has one: goals no program serves suggest nothing on Basic, and Pro’s recommendations do', async () => {
    const user = userEvent.setup();
    server(fresh, 'basic');
    const basic = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Creativity' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Hub')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Your answers are saved.');
    expect(toast.success).not.toHaveBeenCalledWith(ONBOARDING_TEXTS.saved);
    basic.unmount();
    sessionStorage.clear();
    vi.mocked(toast.success).mockClear();

    server(fresh, 'pro');
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Creativity' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Hub')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(ONBOARDING_TEXTS.saved);
  });

  it('says on Basic and Intermediate what a goal leads to on the plan, the programs’ goals named and Pro’s part locked; on Pro nothing', async () => {
    const user = userEvent.setup();
    for (const plan of ['basic', 'intermediate'] as const) {
      server(fresh, plan);
      const shown = renderPage();
      expect(
        await screen.findByText(
          'On your plan, a goal leads to a program about it: Sleep and Calm have one. Pro also recommends affirmations and tracks from your goals and your own words.',
        ),
      ).toBeInTheDocument();
      // The plan's lock, as on the hub: pressed, it tells the plan and stays on the step, the answers as they were.
      await user.click(screen.getByRole('button', { name: 'Creativity' }));
      await user.click(screen.getByRole('button', { name: /See recommendations/ }));
      expect(
        await screen.findByRole('dialog', { name: 'Personal recommendations is part of the Pro plan' }),
      ).toBeVisible();
      await user.keyboard('{Escape}');
      expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Creativity' })).toHaveAttribute('aria-pressed', 'true');
      shown.unmount();
      sessionStorage.clear();
    }

    server(fresh, 'pro');
    renderPage();
    expect(await screen.findByRole('button', { name: 'Creativity' })).toBeInTheDocument();
    // The programs and the plan have come by the time the hub's would: nothing is said of them on Pro.
    await new Promise((settle) => setTimeout(settle, 50));
    expect(screen.queryByText(/On your plan/)).toBeNull();
    expect(screen.queryByRole('button', { name: /See recommendations/ })).toBeNull();
  });

  it('says under one’s own words why the server would refuse them, and goes no further until they are put right', async () => {
    const user = userEvent.setup();
    const { calls } = server();
    renderPage();
    const words = await screen.findByLabelText(/In your own words/);
    // Pasted with a direction override, as the server refuses it.
    await user.click(words);
    await user.paste('Less \u202Erush');
    expect(screen.getByRole('alert')).toHaveTextContent(DIRECTION_CONTROL_REFUSED);
    expect(words).toHaveAttribute('aria-invalid', 'true');
    expect(words).toHaveAccessibleDescription(DIRECTION_CONTROL_REFUSED);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'What would you like from Innerwave?' })).toBeInTheDocument();
    expect(words).toHaveFocus();

    await user.clear(words);
    await user.type(words, 'Less rush');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Hub')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      expect.objectContaining({ free_text: 'Less rush' }),
    ]);
  });

  it('takes one’s own words up to their 200 characters in emoji too, keeps them over a reload, and says when one is over', async () => {
    const user = userEvent.setup();
    const { calls } = server();
    const first = renderPage();
    const words = await screen.findByLabelText(/In your own words/);
    // Two UTF-16 units each: the field's maxLength stopped them at 100, and the draft dropped more than 100.
    const full = '🌙'.repeat(GOAL_FREE_TEXT_MAX);
    await user.type(words, full);
    expect(words).toHaveValue(full);
    expect(screen.getByText('200 / 200')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    first.unmount();

    // The reload resumes with them whole.
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    const again = screen.getByLabelText(/In your own words/);
    expect(again).toHaveValue(full);
    await user.type(again, '.');
    expect(screen.getByRole('alert')).toHaveTextContent(maxCharactersMessage(GOAL_FREE_TEXT_MAX));
    expect(again).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
    expect(again).toHaveFocus();

    await user.keyboard('{Backspace}');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Hub')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      expect.objectContaining({ free_text: full }),
    ]);
  });

  it('keeps the answers when going back a step', async () => {
    const user = userEvent.setup();
    server();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Calm' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Calm' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('skips: saves only the wish to skip and goes on to the player', async () => {
    const user = userEvent.setup();
    const { calls } = server();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Skip for now' }));
    expect(await screen.findByText('Subliminals page')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ skipped: true });
    expect(toast.success).toHaveBeenCalledWith(ONBOARDING_TEXTS.skipped);
  });

  it('keeps the keyboard on "Skip for now" while the skip is saved, a second press sending nothing, Next unavailable', async () => {
    const user = userEvent.setup();
    let answer = () => {};
    const api = fakeApi({
      [`GET ${API.plan}`]: () => planStateFor('basic'),
      [`GET ${API.programs}`]: () => [],
      [`GET ${API.onboarding}`]: () => fresh,
      [`PUT ${API.onboarding}`]: () =>
        new Promise((resolve) => (answer = () => resolve({ ...fresh, skipped: true, completed_at: null }))),
    });
    renderPage();
    const skip = await screen.findByRole('button', { name: 'Skip for now' });
    skip.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(skip).toHaveAttribute('aria-disabled', 'true'));
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    // Next waits on no call of its own: unavailable, with no spinner of a save it did not ask for.
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(api.calls.filter(({ method }) => method === 'PUT')).toHaveLength(1);
    answer();
    expect(await screen.findByText('Subliminals page')).toBeInTheDocument();
  });

  it('edits earlier answers from the profile: filled in, no skip, back to the profile', async () => {
    const user = userEvent.setup();
    const { calls } = server({ ...fresh, goals: ['focus'], headphones: true, session_minutes: 30, completed_at: 'x' });
    renderPage(`${paths.welcome}?from=${encodeURIComponent(paths.profile)}`);
    expect(await screen.findByRole('button', { name: 'Focus' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('button', { name: 'Skip for now' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('radio', { name: 'Yes, usually' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile page')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ goals: ['focus'], session_minutes: 30 });
    expect(toast.success).toHaveBeenCalledWith(ONBOARDING_TEXTS.updated);
  });

  it('changes the goals beside one’s own words saved with a control character before 063, sent as they are; typed in, refused', async () => {
    const user = userEvent.setup();
    const { calls } = server({ ...fresh, goals: ['focus'], free_text: 'Less\u0007 rush', completed_at: 'x' });
    renderPage(`${paths.welcome}?from=${encodeURIComponent(paths.profile)}`);
    const words = await screen.findByLabelText(/In your own words/);
    expect(words).not.toHaveAttribute('aria-invalid');
    await user.type(words, ' now');
    expect(words).toHaveAccessibleDescription(CONTROL_CHARACTER_REFUSED);
    for (let typed = 0; typed < ' now'.length; typed += 1) await user.keyboard('{Backspace}');
    expect(words).not.toHaveAttribute('aria-invalid');

    await user.click(screen.getByRole('button', { name: 'Sleep' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile page')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      goals: ['focus', 'sleep'],
      free_text: 'Less\u0007 rush',
    });
  });

  it('resumes after a reload at the step and with the answers given, until they are saved', async () => {
    const user = userEvent.setup();
    const { calls } = server();
    const first = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Calm' }));
    await user.type(screen.getByLabelText(/In your own words/), 'slowing down');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('radio', { name: 'No, speakers' }));
    first.unmount();

    // The reload: a new page in the same tab.
    const second = renderPage();
    expect(await screen.findByRole('heading', { name: 'Do you listen with headphones?' })).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'No, speakers' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Calm' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText(/In your own words/)).toHaveValue('slowing down');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('radio', { name: '10 minutes' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Hub')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      goals: ['calm'],
      free_text: 'slowing down',
      headphones: false,
      session_minutes: 10,
      skipped: false,
    });
    second.unmount();

    // Saved: opened again, it starts at the first step with what was saved, not with the draft.
    renderPage(`${paths.welcome}?from=${encodeURIComponent(paths.profile)}`);
    expect(await screen.findByText('Step 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Calm' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('forgets the draft when the onboarding is skipped, here or from the invitation', async () => {
    const user = userEvent.setup();
    server();
    const page = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Sleep' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Skip for now' }));
    expect(await screen.findByText('Subliminals page')).toBeInTheDocument();
    page.unmount();
    expect(Object.keys(sessionStorage)).toEqual([]);

    server();
    const again = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Sleep' }));
    again.unmount();
    expect(Object.keys(sessionStorage)).toHaveLength(1);
    renderWithProviders(<OnboardingPrompt />, { path: paths.subliminals });
    await user.click(await screen.findByRole('button', { name: 'Not now' }));
    await vi.waitFor(() => expect(Object.keys(sessionStorage)).toEqual([]));
  });

  it('shows no form when the saved answers cannot be read, so a Save cannot replace them with blanks', async () => {
    const user = userEvent.setup();
    let failing = true;
    const stored: Onboarding = { ...fresh, goals: ['focus'], completed_at: 'x' };
    fakeApi({
      [`GET ${API.onboarding}`]: () => (failing ? jsonResponse(500, { detail: 'A server error occurred.' }) : stored),
    });
    everyElementShown();
    renderPage(`${paths.welcome}?from=${encodeURIComponent(paths.profile)}`);
    const tryAgain = await screen.findByRole('button', { name: 'Try again' });
    await user.click(tryAgain);
    // The read again fails too: the same button, no longer busy.
    await vi.waitFor(() => expect(tryAgain).not.toHaveAttribute('aria-disabled'));
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    failing = false;
    await user.click(tryAgain);
    expect(await screen.findByRole('button', { name: 'Focus' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('says so when saving fails, and keeps the answers', async () => {
    const user = userEvent.setup();
    fakeApi({
      [`GET ${API.onboarding}`]: () => fresh,
      [`PUT ${API.onboarding}`]: () => jsonResponse(500, {}),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Sleep' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(ONBOARDING_TEXTS.failed));
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });
});

describe('OnboardingPrompt', () => {
  it('invites a new person, and "Not now" skips for good', async () => {
    const user = userEvent.setup();
    const { calls } = server();
    renderWithProviders(<OnboardingPrompt />, { path: paths.subliminals });
    expect(await screen.findByRole('link', { name: 'Set up your practice' })).toHaveAttribute('href', paths.welcome);
    // Remembered for the portal pages' frame, which then shows it above the page's top (decision 111).
    expect(localStorage.getItem('user.invitation')).toBe('1');
    expect(localStorage.getItem('user.no-invitation')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Getting started' })).toBeNull());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ skipped: true });
    expect(localStorage.getItem('user.no-invitation')).toBe('1');
    expect(localStorage.getItem('user.invitation')).toBeNull();
  });

  it('keeps the keyboard on "Not now" while the skip is saved, then hands it to the page’s heading as the card goes', async () => {
    const user = userEvent.setup();
    everyElementShown();
    let answer = () => {};
    const api = fakeApi({
      [`GET ${API.plan}`]: () => planStateFor('basic'),
      [`GET ${API.onboarding}`]: () => fresh,
      [`PUT ${API.onboarding}`]: () =>
        new Promise((resolve) => (answer = () => resolve({ ...fresh, skipped: true, completed_at: null }))),
    });
    renderWithProviders(
      <>
        <OnboardingPrompt />
        <main id="main">
          <h1>Subliminals</h1>
        </main>
      </>,
      { path: paths.subliminals },
    );
    const notNow = await screen.findByRole('button', { name: 'Not now' });
    notNow.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(notNow).toHaveAttribute('aria-disabled', 'true'));
    expect(notNow).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(api.calls.filter(({ method }) => method === 'PUT')).toHaveLength(1);

    answer();
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Getting started' })).toBeNull());
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Subliminals' })).toHaveFocus());
  });

  it('never goes above an admin page, while it still goes above the member portal’s', async () => {
    const { calls } = server();
    // An admin page does not even ask for the answer (still invited): nothing shows.
    const admin = renderWithProviders(<OnboardingPrompt />, { path: paths.adminUsers });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Getting started' })).toBeNull();
    expect(screen.queryByText('New here? Tell us what you would like from Innerwave.')).toBeNull();
    admin.unmount();
    renderWithProviders(<OnboardingPrompt />, { path: paths.music });
    expect(await screen.findByRole('region', { name: 'Getting started' })).toBeInTheDocument();
  });

  it('tells the toasts where it ends, so they start below it, and forgets it once skipped', async () => {
    const user = userEvent.setup();
    server();
    const box = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ bottom: 212.4 } as DOMRect);
    renderWithProviders(<OnboardingPrompt />, { path: paths.subliminals });
    await screen.findByRole('region', { name: 'Getting started' });
    const published = () => document.documentElement.style.getPropertyValue(NOTICE_BOTTOM_VAR);
    expect(published()).toBe('212px');
    // Scrolled up by 100 px, it ends higher.
    box.mockReturnValue({ bottom: 112 } as DOMRect);
    window.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(published()).toBe('112px'));
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Getting started' })).toBeNull());
    expect(published()).toBe('');
    box.mockRestore();
  });

  it('stays away once answered', async () => {
    server({ ...fresh, goals: ['sleep'], completed_at: 'x' });
    renderWithProviders(<OnboardingPrompt />, { path: paths.subliminals });
    await vi.waitFor(() => expect(localStorage.getItem('user.no-invitation')).toBe('1'));
    expect(screen.queryByRole('link', { name: 'Set up your practice' })).toBeNull();
  });
});

describe('useOnboardingSettling', () => {
  function Probe() {
    return <p>{useOnboardingSettling() ? 'waiting' : 'showing'}</p>;
  }

  it('holds the page until the invitation is known', async () => {
    let answer: (value: Onboarding) => void = () => {};
    fakeApi({ [`GET ${API.onboarding}`]: () => new Promise<Onboarding>((resolve) => (answer = resolve)) });
    renderWithProviders(<Probe />, { path: paths.subliminals });
    expect(screen.getByText('waiting')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('waiting')).toBeInTheDocument();
    answer(fresh);
    expect(await screen.findByText('showing')).toBeInTheDocument();
  });

  it('renders no more once the answer is here', async () => {
    fakeApi({ [`GET ${API.onboarding}`]: () => fresh });
    let renders = 0;
    function CountingProbe() {
      const settling = useOnboardingSettling();
      renders += 1;
      return <p>{settling ? 'waiting' : 'showing'}</p>;
    }
    renderWithProviders(<CountingProbe />, { path: paths.subliminals });
    expect(await screen.findByText('showing')).toBeInTheDocument();
    const settled = renders;
    await new Promise((resolve) => setTimeout(resolve, ONBOARDING_WAIT_MS + 200));
    expect(renders).toBe(settled);
  });

  it('never holds an admin page, which the invitation does not go above, nor asks for the answer there', async () => {
    const { calls } = fakeApi({ [`GET ${API.onboarding}`]: () => new Promise<Onboarding>(() => {}) });
    renderWithProviders(<Probe />, { path: paths.adminPrograms });
    expect(screen.getByText('showing')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
  });

  it('holds it for a second at most when the answer is slow', async () => {
    fakeApi({ [`GET ${API.onboarding}`]: () => new Promise<Onboarding>(() => {}) });
    renderWithProviders(<Probe />, { path: paths.subliminals });
    expect(screen.getByText('waiting')).toBeInTheDocument();
    expect(await screen.findByText('showing', {}, { timeout: ONBOARDING_WAIT_MS + 500 })).toBeInTheDocument();
  });
});
