import { fireEvent, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { SubscriptionPlan } from '@shared/constants';
import { API } from '@shared/contract/paths';
import { fakeApi, planStateFor, renderWithProviders } from '@web/test/render';
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
