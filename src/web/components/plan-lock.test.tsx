import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NO_BILLING } from '@shared/contract/billing';
import { API } from '@shared/contract/paths';
import { fakeApi, planStateFor, renderWithProviders } from '@web/test/render';
import { PlanLock } from './plan-lock';

async function openLock(configured: boolean) {
  fakeApi({ [`GET ${API.plan}`]: () => ({ ...planStateFor('basic'), billing: { ...NO_BILLING, configured } }) });
  const { router } = renderWithProviders(<PlanLock feature="exportMessages" what="Exporting your messages" />, {
    routes: [{ path: '/profile', element: <p>profile</p> }],
  });
  await userEvent.setup().click(await screen.findByRole('button', { name: /Exporting your messages/ }));
  return {
    router,
    dialog: await screen.findByRole('dialog', { name: 'Exporting your messages is part of the Pro plan' }),
  };
}

describe('PlanLock', () => {
  it('leads to the profile’s Plan & billing with the plan picked, when payments are taken', async () => {
    const { dialog, router } = await openLock(true);
    expect(dialog).toHaveTextContent('Stripe takes the payment');
    expect(dialog).toHaveTextContent('streaming subliminal sounds, AI subliminal recommendation,');
    await userEvent.setup().click(within(dialog).getByRole('link', { name: 'Upgrade to Pro' }));
    expect(router.state.location.pathname + router.state.location.search + router.state.location.hash).toBe(
      '/profile?upgrade=pro#billing',
    );
  });

  it('says payments are not set up and who changes the plan, and still leads to Plan & billing', async () => {
    const { dialog } = await openLock(false);
    expect(dialog).toHaveTextContent('Payments are not set up on this server');
    expect(within(dialog).getByRole('link', { name: 'Plan & billing' })).toHaveAttribute(
      'href',
      '/profile?upgrade=pro#billing',
    );
  });
});
