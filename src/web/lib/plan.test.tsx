import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { SubscriptionPlan } from '@shared/constants';
import { API } from '@shared/contract/paths';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { followPlanChanges, usePlan } from './plan';
import { SESSION } from './session-keys';

/** A page that shows what usePlan says, in a signed-in frame that follows the other tabs (as app/portal-shell.tsx). */
function PlanShown() {
  const queryClient = useQueryClient();
  useEffect(() => followPlanChanges(queryClient), [queryClient]);
  const { plan, includes } = usePlan();
  return (
    <p>
      {plan ?? 'unknown'}, export {includes('exportMessages') ? 'open' : 'locked'}
    </p>
  );
}

describe('the plan a tab shows follows a payment made elsewhere, as the app reads (30 s fresh)', () => {
  async function renderThenPayOnServer() {
    let plan: SubscriptionPlan = 'basic';
    fakeApi({ [`GET ${API.plan}`]: () => planStateFor(plan) });
    renderWithProviders(<PlanShown />, { appQueryClient: true });
    expect(await screen.findByText('basic, export locked')).toBeInTheDocument();
    plan = 'pro';
  }

  it('the tab showing again (paid in another tab or on another device): the plan is read anew', async () => {
    await renderThenPayOnServer();
    fireEvent(document, new Event('visibilitychange', { bubbles: true }));
    expect(await screen.findByText('pro, export open')).toBeInTheDocument();
  });

  it('another tab confirming a payment, this one side by side with it: the plan is read anew', async () => {
    await renderThenPayOnServer();
    fireEvent(
      window,
      new StorageEvent('storage', { key: SESSION.storageKeys.planChanged, newValue: String(Date.now()) }),
    );
    expect(await screen.findByText('pro, export open')).toBeInTheDocument();
  });
});

/** What a screen that claims (has) and one that only plays (includes) read of the plan. */
function PlanRead() {
  const { has, includes } = usePlan();
  const said = has('exportMessages');
  return (
    <p>
      export {said === undefined ? 'unknown' : said ? 'open' : 'locked'}, layers played{' '}
      {includes('soundLayers') ? 'together' : 'alone'}
    </p>
  );
}

describe('a plan not yet known (decision 124)', () => {
  it('while its read is under way: has says nothing, includes plays as included, until the plan answers', async () => {
    let answerPlan: (answer: Response) => void = () => {};
    fakeApi({ [`GET ${API.plan}`]: () => new Promise<Response>((resolve) => (answerPlan = resolve)) });
    renderWithProviders(<PlanRead />);
    expect(screen.getByText('export unknown, layers played together')).toBeInTheDocument();
    answerPlan(jsonResponse(200, planStateFor('basic')));
    expect(await screen.findByText('export locked, layers played alone')).toBeInTheDocument();
  });

  it('once its read failed: has still says nothing, never that the feature is open', async () => {
    const api = fakeApi({ [`GET ${API.plan}`]: () => jsonResponse(500, { detail: 'Server error.' }) });
    renderWithProviders(<PlanRead />);
    await waitFor(() => expect(api.calls).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByText('export unknown, layers played together')).toBeInTheDocument();
  });
});
