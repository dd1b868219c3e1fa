import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GoalId, Onboarding, Practice, ProgramSummary, Recommendations } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { HubGuidance, reminderDue, suggestedProgram } from './hub-guidance';
import { everyElementShown } from '@web/test/shown';

const onboarding: Onboarding = {
  goals: ['sleep'],
  free_text: '',
  headphones: true,
  session_minutes: 10,
  skipped: false,
  completed_at: '2026-11-23T18:00:00.000Z',
};

const program = (
  slug: string,
  title: string,
  goals: ProgramSummary['goals'],
  minutes = { min: 10, max: 15 },
  dayCount = 7,
): ProgramSummary => ({
  slug,
  title,
  summary: `${title} in a few days.`,
  goals,
  day_count: dayCount,
  minutes,
  progress: { slug, completed_days: [], next_day: 1, last_completed_at: null, started_at: null },
});
const programs = [
  program('steady-focus', 'Steady Focus', ['focus'], { min: 15, max: 30 }, 5),
  program('seven-nights-of-rest', 'Seven Nights of Rest', ['sleep', 'calm']),
];

const practice: Practice = {
  week: {
    since: '2026-11-16T18:00:00.000Z',
    minutes: 12,
    sessions: 2,
    daily_minutes: [0, 0, 0, 0, 0, 2, 10],
    daily_seconds: [0, 0, 0, 0, 0, 130, 610],
  },
  total_sessions: 2,
  last_sessions: [],
  tries_not_listed: 0,
  reminder: { enabled: false, time_of_day: null },
};

const recommendations: Recommendations = {
  categories: [{ id: 3, name: 'Restful Sleep', reason: 'Because you chose Sleep' }],
  messages: [],
  tracks: [{ id: 7, kind: 'selfeggio', name: '174 Hz', reason: 'Close to what you listened to' }],
  programs: [{ slug: 'seven-nights-of-rest', title: 'Seven Nights of Rest', reason: 'Because you chose Sleep' }],
  ranked: true,
  based_on: { goals: ['sleep'], free_text: false, own_messages: false, history: true },
};

function renderHub(
  plan: 'basic' | 'intermediate' | 'pro',
  answer: Recommendations = recommendations,
  answers: Onboarding = onboarding,
  week: Practice = practice,
) {
  const api = fakeApi({
    [`GET ${API.onboarding}`]: () => answers,
    [`GET ${API.programs}`]: () => programs,
    [`GET ${API.practice}`]: () => week,
    [`GET ${API.plan}`]: () => planStateFor(plan),
    [`GET ${API.recommendations}`]: () =>
      plan === 'pro' ? answer : jsonResponse(403, { code: 'plan_required', required_plan: 'pro' }),
  });
  renderWithProviders(<HubGuidance />);
  return api;
}

describe('HubGuidance', () => {
  it('suggests the program of the chosen goal, and shows Basic a teaser without asking for recommendations', async () => {
    const { calls } = renderHub('basic');
    const suggestion = await screen.findByTestId('suggested-program');
    expect(suggestion).toHaveTextContent('Because you chose Sleep');
    expect(suggestion).toHaveTextContent('Seven Nights of Rest');
    expect(await screen.findByRole('button', { name: /See recommendations/ })).toHaveTextContent('Pro');
    expect(screen.getByText('12 minutes in the last seven days.')).toBeInTheDocument();
    expect(calls.some((call) => call.path === API.recommendations)).toBe(false);
  });

  it.each([
    ['Under a minute in the last seven days.', 1],
    ['0 minutes in the last seven days.', 0],
  ])('says "%s" when %i sittings came to under a minute in all', async (said, sessions) => {
    renderHub('basic', recommendations, onboarding, {
      ...practice,
      week: { ...practice.week, minutes: 0, sessions, daily_minutes: [0, 0, 0, 0, 0, 0, 0] },
    });
    expect(await screen.findByText(said)).toBeInTheDocument();
  });

  it.each(['basic', 'intermediate'] as const)(
    'on %s, offers what Pro would rank under its lock, and says nothing is ranked now',
    async (plan) => {
      renderHub(plan);
      const card = await screen.findByRole('region', { name: 'Personal recommendations' });
      await waitFor(() =>
        expect(card).toHaveTextContent(
          'With Pro, Innerwave itself ranks programs, affirmations, tracks and messages for you from your goals, your own words and what you listen to, each with the reason.',
        ),
      );
      expect(card).toContainElement(screen.getByRole('button', { name: /See recommendations/ }));
      expect(card).not.toHaveTextContent(/Ranked from|Worked out by|gentle places/);
      expect(screen.queryByRole('region', { name: 'Recommended for you' })).toBeNull();
    },
  );

  it('says on the programs card that no program is about the goals chosen, when none is', async () => {
    renderHub('basic', recommendations, { ...onboarding, goals: ['creativity', 'courage'] });
    expect(await screen.findByText(/^No program is about Creativity or Courage yet\. A few days/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'See the programs' })).toBeVisible();
    expect(screen.queryByTestId('suggested-program')).not.toBeInTheDocument();
  });

  it('under a suggestion for one goal, says no program is about the others chosen', async () => {
    renderHub('basic', recommendations, { ...onboarding, goals: ['creativity', 'sleep', 'courage'] });
    const suggestion = await screen.findByTestId('suggested-program');
    expect(suggestion).toHaveTextContent('Because you chose Sleep');
    expect(suggestion).toHaveTextContent('No program is about Creativity or Courage yet.');
  });

  it('names no goal under a suggestion when each chosen goal has a program', async () => {
    renderHub('basic', recommendations, { ...onboarding, goals: ['focus', 'sleep'], session_minutes: null });
    const suggestion = await screen.findByTestId('suggested-program');
    expect(suggestion).toHaveTextContent('Because you chose Focus');
    expect(suggestion).not.toHaveTextContent('No program is about');
  });

  it('before the onboarding is answered, promises a program only for the goals one is about, naming them', async () => {
    const open = { ...onboarding, goals: [], session_minutes: null, completed_at: null };
    renderHub('basic', recommendations, open);
    const card = (await screen.findByRole('link', { name: 'Set up your practice' })).closest('div')!;
    await waitFor(() =>
      expect(card).toHaveTextContent(
        'Tell us your goals in three short questions. A program is suggested here when you choose a goal one is about: Sleep, Calm, or Focus.',
      ),
    );
    expect(card).not.toHaveTextContent(/we suggest a program|recommendations/);
  });

  it('before the onboarding is answered, tells Pro that the goals also rank the recommendations', async () => {
    renderHub('pro', recommendations, { ...onboarding, goals: [], session_minutes: null, completed_at: null });
    const card = (await screen.findByRole('link', { name: 'Set up your practice' })).closest('div')!;
    await waitFor(() => expect(card).toHaveTextContent(/or Focus\. Your goals also rank your recommendations\.Set up/));
  });

  it('before the onboarding is answered, says nothing of recommendations while the plan cannot be read', async () => {
    fakeApi({
      [`GET ${API.onboarding}`]: () => ({ ...onboarding, goals: [], session_minutes: null, completed_at: null }),
      [`GET ${API.programs}`]: () => programs,
      [`GET ${API.practice}`]: () => practice,
      [`GET ${API.plan}`]: () => jsonResponse(500, { detail: 'Server error.' }),
    });
    renderWithProviders(<HubGuidance />);
    const card = (await screen.findByRole('link', { name: 'Set up your practice' })).closest('div')!;
    await waitFor(() => expect(card).toHaveTextContent(/or Focus\.Set up/));
    expect(card).not.toHaveTextContent('recommendations');
  });

  it('suggests, of the programs about the goals, the one whose days are nearest the session length, and says how long they are', async () => {
    renderHub('basic', recommendations, { ...onboarding, goals: ['sleep', 'focus'], session_minutes: 30 });
    const suggestion = await screen.findByTestId('suggested-program');
    expect(suggestion).toHaveTextContent('Because you chose Focus');
    expect(suggestion).toHaveTextContent('Steady Focus5 days · 15–30 min a day');
  });

  it('shows Pro the ranked recommendations with their reasons', async () => {
    renderHub('pro');
    expect(await screen.findByRole('link', { name: /Restful Sleep/ })).toHaveTextContent('Because you chose Sleep');
    expect(screen.getByRole('link', { name: /174 Hz/ })).toHaveTextContent('Close to what you listened to');
    expect(screen.queryByRole('button', { name: /See recommendations/ })).toBeNull();
  });

  it('leads a recommended category to its affirmations, open in the player, in one press', async () => {
    renderHub('pro');
    expect(await screen.findByRole('link', { name: /Restful Sleep/ })).toHaveAttribute(
      'href',
      '/subliminals?category=3',
    );
  });

  it('says that general starting points are not yet ranked, without the same reason under each', async () => {
    const startHere = 'A gentle place to start';
    renderHub('pro', {
      categories: [
        { id: 1, name: 'Confidence', reason: startHere },
        { id: 2, name: 'Calm & Stress Relief', reason: startHere },
      ],
      messages: [],
      tracks: [{ id: 7, kind: 'bonus', name: 'Deep Brown Noise', reason: startHere }],
      programs: [{ slug: 'seven-nights-of-rest', title: 'Seven Nights of Rest', reason: startHere }],
      ranked: false,
      based_on: { goals: [], free_text: false, own_messages: false, history: false },
    });
    expect(await screen.findByRole('link', { name: 'Confidence' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Deep Brown Noise' })).toBeInTheDocument();
    expect(screen.queryByText(startHere)).toBeNull();
    const card = screen.getByRole('region', { name: 'Recommended for you' });
    expect(card).toHaveTextContent('Nothing to go on yet, so these are gentle places to start.');
    expect(card).not.toHaveTextContent('Ranked from your goals');
  });

  it('says when what the person gave matched nothing, and keeps the starting points’ reason to itself', async () => {
    const startHere = 'A gentle place to start';
    renderHub('pro', {
      categories: [{ id: 1, name: 'Confidence', reason: startHere }],
      messages: [],
      tracks: [],
      programs: [{ slug: 'seven-nights-of-rest', title: 'Seven Nights of Rest', reason: startHere }],
      ranked: false,
      based_on: { goals: [], free_text: true, own_messages: false, history: false },
    });
    expect(await screen.findByRole('link', { name: 'Confidence' })).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Recommended for you' });
    expect(card).toHaveTextContent('Nothing you told us or listened to matches the library yet');
    expect(card).not.toHaveTextContent('Ranked from your goals');
  });

  it('says what ranked recommendations were ranked from', async () => {
    renderHub('pro');
    const card = await screen.findByRole('region', { name: 'Recommended for you' });
    await screen.findByRole('link', { name: /Restful Sleep/ });
    expect(card).toHaveTextContent('Ranked from your goals, your own messages and what you have listened to');
    expect(card).not.toHaveTextContent('Nothing to go on yet');
  });
});

describe('the recommendations card when its reads fail (decision 124)', () => {
  beforeEach(everyElementShown);
  /** The hub with the plan's and the recommendations' answers given by the test, one after another. */
  function renderFailing(plans: (() => unknown)[], recommendationAnswers: (() => unknown)[] = []) {
    const api = fakeApi({
      [`GET ${API.onboarding}`]: () => onboarding,
      [`GET ${API.programs}`]: () => programs,
      [`GET ${API.practice}`]: () => practice,
      [`GET ${API.plan}`]: () => (plans.length > 1 ? plans.shift()! : plans[0]!)(),
      [`GET ${API.recommendations}`]: () =>
        (recommendationAnswers.length > 1 ? recommendationAnswers.shift()! : recommendationAnswers[0]!)(),
    });
    renderWithProviders(<HubGuidance />);
    return api;
  }
  const failing = () => jsonResponse(500, { detail: 'Server error.' });

  it('says the plan could not be read, and its "Try again" keeps the keyboard, busy, until the recommendations come', async () => {
    let answerPlan: (answer: unknown) => void = () => {};
    const api = renderFailing(
      [failing, () => new Promise((resolve) => (answerPlan = resolve))],
      [() => recommendations],
    );
    const card = await screen.findByRole('region', { name: 'Personal recommendations' });
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your plan: Server error.');
    const button = within(alert).getByRole('button', { name: 'Try again' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(api.calls.filter((call) => call.path === API.plan)).toHaveLength(2);
    answerPlan(planStateFor('pro'));
    // The first control of what took the message's place: the first program recommended.
    const recommended = await screen.findByRole('region', { name: 'Recommended for you' });
    await waitFor(() => expect(within(recommended).getByRole('link', { name: /Seven Nights of Rest/ })).toHaveFocus());
    expect(within(recommended).queryByRole('alert')).toBeNull();
  });

  it('says the recommendations could not be read on Pro, and a second failure keeps the keyboard on "Try again"', async () => {
    renderFailing([() => planStateFor('pro')], [failing, () => jsonResponse(503, { detail: 'Try later.' })]);
    const card = await screen.findByRole('region', { name: 'Recommended for you' });
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the recommendations: Server error.');
    const button = within(alert).getByRole('button', { name: 'Try again' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(alert).toHaveTextContent('Could not load the recommendations: Try later.'));
    expect(button).not.toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
  });
});

describe('suggestedProgram', () => {
  it('follows the order of the goals', () => {
    expect(suggestedProgram(['focus', 'sleep'], programs)?.program.slug).toBe('steady-focus');
    expect(suggestedProgram(['gratitude'], programs)).toBeNull();
  });

  it('takes, of the programs about any chosen goal, the one whose days come closest to the session length', () => {
    const calm = [
      program('seven-nights-of-rest', 'Seven Nights of Rest', ['sleep', 'calm'], { min: 10, max: 20 }),
      program('mindful-moments', 'Mindful Moments', ['mindfulness', 'calm'], { min: 5, max: 15 }),
      program('steady-focus', 'Steady Focus', ['focus'], { min: 15, max: 30 }),
    ];
    const slug = (goals: GoalId[], minutes: number | null) => suggestedProgram(goals, calm, minutes)?.program.slug;
    expect(slug(['calm'], null)).toBe('seven-nights-of-rest');
    expect(slug(['calm'], 5)).toBe('mindful-moments');
    expect(slug(['calm'], 20)).toBe('seven-nights-of-rest');
    // Within the range of both: the goal chosen first, then the first listed.
    expect(slug(['mindfulness', 'sleep'], 10)).toBe('mindful-moments');
    expect(slug(['calm', 'focus'], 60)).toBe('steady-focus');
    expect(suggestedProgram(['focus', 'calm'], calm, 5)).toEqual({ program: calm[1], goal: 'calm' });
    expect(suggestedProgram(['creativity'], calm, 10)).toBeNull();
  });
});

describe('reminderDue', () => {
  const at = (hhmm: string) => new Date(`2026-11-23T${hhmm}:00`);
  const on = { ...practice, reminder: { enabled: true, time_of_day: '19:00' } };
  it('is due once the time has passed on a day without a session', () => {
    expect(reminderDue(on, at('18:59'))).toBe(false);
    expect(reminderDue(on, at('19:00'))).toBe(true);
    expect(reminderDue(practice, at('21:00'))).toBe(false);
    const listened = {
      ...on,
      last_sessions: [
        {
          id: 1,
          kind: 'program' as const,
          ref: '',
          title: 'x',
          seconds: 60,
          finished: true,
          started_at: at('08:00').toISOString(),
          recorded_at: at('08:01').toISOString(),
        },
      ],
    };
    expect(reminderDue(listened, at('21:00'))).toBe(false);
  });
});
