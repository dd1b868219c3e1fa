import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionPlan } from '@shared/constants';
import type { BillingState } from '@shared/contract';
import { BILLING_MESSAGES } from '@shared/contract/billing';
import { API } from '@shared/contract/paths';
import { usePlan } from '@web/lib/plan';
import { SESSION } from '@web/lib/session-keys';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { PAYMENT_CONFIRMATION, PORTAL_RETURN } from '../hooks/use-payment-confirmation';
import { leaveFor } from '../lib/leave-for';
import { BILLING_TEXTS } from '../messages';
import { BillingPanel } from './billing-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn(), dismiss: vi.fn() } }));
vi.mock('../lib/leave-for', () => ({ leaveFor: vi.fn() }));
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
});

const CHECKOUT_URL = 'http://127.0.0.1:4112/c/pay/cs_test_1';
const PORTAL_URL = 'http://127.0.0.1:4112/p/session/bps_1';
// Noon UTC: the same calendar day wherever the test runs.
const RENEWS = '2026-12-23T12:00:00.000Z';
const RENEWS_TEXT = new Date(RENEWS).toLocaleDateString(undefined, { dateStyle: 'long' });

const billing = (overrides: Partial<BillingState> = {}): BillingState => ({
  configured: true,
  status: null,
  renews_at: null,
  cancels_at: null,
  past_due: false,
  can_manage: false,
  ...overrides,
});
const stateOf = (plan: SubscriptionPlan, overrides: Partial<BillingState> = {}) => ({
  ...planStateFor(plan),
  billing: billing(overrides),
});
const PAID = { status: 'active', renews_at: RENEWS, can_manage: true } as const;

/** The server: GET /api/user/plan/ answers `states` one after another (the last one from then on). */
function billingServer(...states: ReturnType<typeof stateOf>[]) {
  let served = 0;
  return fakeApi({
    [`GET ${API.plan}`]: () => states[Math.min(served++, states.length - 1)],
    [`POST ${API.billingCheckout}`]: () => ({ url: CHECKOUT_URL }),
    [`POST ${API.billingPortal}`]: () => ({ url: PORTAL_URL }),
  });
}

/** Stands for what a plan unlocks elsewhere in the portal. */
function ExportProbe() {
  return <p>{usePlan().includes('exportMessages') ? 'export open' : 'export locked'}</p>;
}

const renderPanel = (path = '/profile', { strict = false } = {}) =>
  renderWithProviders(
    <>
      <BillingPanel />
      <ExportProbe />
    </>,
    { path, pattern: '/profile', strict },
  );
const panel = () => screen.getByRole('region', { name: 'Plan & billing' });

describe('Plan & billing panel', () => {
  it('offers Basic the paid plans and upgrades through Stripe Checkout', async () => {
    const api = billingServer(stateOf('basic'));
    renderPanel();
    expect(await within(panel()).findByTestId('billing-plan')).toHaveTextContent('Basic');
    expect(within(panel()).getByText(BILLING_TEXTS.free)).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Upgrade to Intermediate' })).toBeEnabled();

    await userEvent.setup().click(within(panel()).getByRole('button', { name: 'Upgrade to Pro' }));
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(api.calls.filter((call) => call.method === 'POST')).toMatchObject([
      { path: API.billingCheckout, body: { plan: 'pro' } },
    ]);
    expect(screen.getByRole('status')).toHaveTextContent(BILLING_TEXTS.toCheckout('Pro'));
  });

  it('shows a paid plan with its renewal, and changes or cancels it in the Customer Portal', async () => {
    const api = billingServer(stateOf('pro', PAID));
    renderPanel();
    expect(await within(panel()).findByTestId('billing-plan')).toHaveTextContent('Pro');
    expect(within(panel()).getByText('Active')).toBeInTheDocument();
    expect(within(panel()).getByText(BILLING_TEXTS.renewsAt(RENEWS_TEXT, 56))).toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: /Upgrade/ })).toBeNull();
    expect(within(panel()).getByText(BILLING_TEXTS.portal)).toBeInTheDocument();

    await userEvent.setup().click(within(panel()).getByRole('button', { name: 'Change or cancel plan' }));
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledWith(PORTAL_URL));
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([API.billingPortal]);
  });

  it('Back from Stripe to the page the browser kept whole: nothing waits any more, and each button leads again', async () => {
    const api = billingServer(stateOf('basic'));
    renderPanel();
    const user = userEvent.setup();
    const backFromStripe = () =>
      act(() => {
        window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      });
    await user.click(await within(panel()).findByRole('button', { name: 'Upgrade to Pro' }));
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledWith(CHECKOUT_URL));
    backFromStripe();
    expect(within(panel()).queryByText(BILLING_TEXTS.toCheckout('Pro'))).toBeNull();
    await user.click(within(panel()).getByRole('button', { name: 'Upgrade to Intermediate' }));
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(2));
    expect(api.calls.filter((call) => call.method === 'POST')).toMatchObject([
      { path: API.billingCheckout, body: { plan: 'pro' } },
      { path: API.billingCheckout, body: { plan: 'intermediate' } },
    ]);
  });

  it('Back from the portal to the page the browser kept whole: its button leads again', async () => {
    billingServer(stateOf('pro', PAID));
    renderPanel();
    const user = userEvent.setup();
    const portal = await within(panel()).findByRole('button', { name: 'Change or cancel plan' });
    await user.click(portal);
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    await user.click(portal);
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(2));
  });

  it('Upgrade and the portal button keep the keyboard while they lead to Stripe, and a second press asks nothing', async () => {
    const api = billingServer(stateOf('basic'));
    renderPanel();
    const user = userEvent.setup();
    const pro = await within(panel()).findByRole('button', { name: 'Upgrade to Pro' });
    pro.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(pro).toHaveFocus();
    expect(pro).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(within(panel()).getByRole('button', { name: 'Upgrade to Intermediate' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
    expect(leaveFor).toHaveBeenCalledTimes(1);
    expect(within(panel()).getByRole('heading', { name: /^Intermediate/ })).not.toHaveTextContent('Your choice');

    cleanup();
    billingServer(stateOf('pro', PAID));
    renderPanel();
    const portal = await within(panel()).findByRole('button', { name: 'Change or cancel plan' });
    portal.focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledWith(PORTAL_URL));
    expect(portal).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(leaveFor).toHaveBeenCalledTimes(2);
  });

  it('an Intermediate subscriber changes to Pro in the portal, never through a second checkout', async () => {
    billingServer(stateOf('intermediate', PAID));
    renderPanel();
    expect(await within(panel()).findByRole('button', { name: 'Change or cancel plan' })).toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: 'Upgrade to Pro' })).toBeNull();
  });

  it('a lock’s Pro picked by an Intermediate subscriber says the portal moves them there, under the button’s own name', async () => {
    const api = billingServer(stateOf('intermediate', PAID));
    renderPanel('/profile?upgrade=pro#billing');
    const note = await within(panel()).findByRole('note');
    expect(note).toHaveTextContent(BILLING_TEXTS.changeInPortal('Pro', 'Change or cancel plan'));
    expect(note).toHaveTextContent(
      'Your subscription moves to Pro in Stripe’s billing portal: choose “Change or cancel plan”, then Pro.',
    );
    expect(within(panel()).queryByRole('button', { name: 'Upgrade to Pro' })).toBeNull();
    await userEvent.setup().click(within(panel()).getByRole('button', { name: 'Change or cancel plan' }));
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledWith(PORTAL_URL));
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([API.billingPortal]);
  });

  it('a cancelled subscription names its own button; a plan picked at or below one’s own, or a past-due payment, adds nothing', async () => {
    billingServer(stateOf('intermediate', { ...PAID, renews_at: null, cancels_at: RENEWS }));
    const first = renderPanel('/profile?upgrade=pro#billing');
    expect(await within(panel()).findByRole('note')).toHaveTextContent(
      BILLING_TEXTS.changeInPortal('Pro', 'Renew or change plan'),
    );
    first.unmount();
    for (const [plan, overrides, path] of [
      ['pro', PAID, '/profile?upgrade=intermediate#billing'],
      ['intermediate', PAID, '/profile?upgrade=intermediate#billing'],
      ['intermediate', { ...PAID, status: 'past_due', past_due: true }, '/profile?upgrade=pro#billing'],
    ] as const) {
      billingServer(stateOf(plan, overrides));
      const shown = renderPanel(path);
      expect(
        await within(panel()).findByRole('button', { name: /payment details|Change or cancel plan/ }),
      ).toBeInTheDocument();
      expect(within(panel()).queryByRole('note')).toBeNull();
      shown.unmount();
    }
  });

  it('says when a cancelled plan ends and that nothing is deleted', async () => {
    billingServer(stateOf('intermediate', { ...PAID, renews_at: null, cancels_at: RENEWS }));
    renderPanel();
    expect(await within(panel()).findByText('Cancelled')).toBeInTheDocument();
    expect(within(panel()).getByText(BILLING_TEXTS.cancelsAt('Intermediate', RENEWS_TEXT))).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Renew or change plan' })).toBeInTheDocument();
    // Beside it, what the portal offers now: no "or cancel" for a plan cancelled already.
    expect(within(panel()).queryByText(BILLING_TEXTS.portal)).toBeNull();
    expect(
      within(panel()).getByText(/^Renew or change your plan, update your card or see invoices/),
    ).toBeInTheDocument();
  });

  it('warns when the last payment failed and leads to the card', async () => {
    billingServer(stateOf('pro', { ...PAID, status: 'past_due', past_due: true }));
    renderPanel();
    expect(await within(panel()).findByRole('alert')).toHaveTextContent(BILLING_TEXTS.pastDue('Pro'));
    expect(within(panel()).getByText('Payment failed')).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Update payment details' })).toBeInTheDocument();
  });

  it('after the subscription ended, offers the invoices without speaking of a plan to change or cancel', async () => {
    billingServer(stateOf('basic', { status: 'canceled', can_manage: true }));
    renderPanel();
    expect(await within(panel()).findByText(BILLING_TEXTS.free)).toBeInTheDocument();
    expect(within(panel()).getByText(BILLING_TEXTS.portalPast)).toBeInTheDocument();
    expect(within(panel()).queryByText(BILLING_TEXTS.portal)).toBeNull();
    expect(within(panel()).getByRole('button', { name: 'Invoices and payment details' })).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument();
  });

  it('while a first payment has not gone through, says the new plan waits for it rather than "Basic is free"', async () => {
    billingServer(stateOf('basic', { status: 'incomplete', can_manage: true }));
    renderPanel();
    expect(await within(panel()).findByText(BILLING_TEXTS.incomplete)).toBeInTheDocument();
    expect(within(panel()).queryByText(BILLING_TEXTS.free)).toBeNull();
  });

  it('after a Checkout whose first payment never went through, offers Upgrade again and no portal: nothing was paid', async () => {
    billingServer(stateOf('basic', { status: 'incomplete_expired', can_manage: false }));
    renderPanel();
    expect(await within(panel()).findByText(BILLING_TEXTS.free)).toBeInTheDocument();
    expect(within(panel()).queryByText(BILLING_TEXTS.portalPast)).toBeNull();
    expect(within(panel()).queryByRole('button', { name: 'Invoices and payment details' })).toBeNull();
    expect(within(panel()).getByRole('button', { name: 'Upgrade to Intermediate' })).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument();
  });

  it('says so when payments are not set up, and offers to ask the team instead', async () => {
    const api = billingServer(stateOf('basic', { configured: false }));
    const { router } = renderWithProviders(<BillingPanel />, {
      path: '/profile',
      pattern: '/profile',
      routes: [{ path: '/support', element: <p>The support form</p> }],
    });
    expect(await within(panel()).findByRole('note')).toHaveTextContent(BILLING_MESSAGES.notConfigured);
    expect(within(panel()).getByRole('note')).toHaveTextContent(
      'Our team sets plans by hand here: ask for the plan you want below, or write to support@innerwave.app.',
    );
    expect(within(panel()).queryByRole('button', { name: /Upgrade/ })).toBeNull();
    expect(api.calls.map((call) => call.method)).toEqual(['GET']);
    // It leads to the support form in the portal, which works without a mail program; a mailto: link did nothing then.
    await userEvent.setup().click(within(panel()).getByRole('link', { name: 'Ask for Pro' }));
    expect(router.state.location).toMatchObject({ pathname: '/support', search: '?plan=pro' });
    expect(screen.getByText('The support form')).toBeVisible();
  });

  it('an operator-set plan says nothing is billed', async () => {
    billingServer(stateOf('pro', { configured: false }));
    renderPanel();
    expect(await within(panel()).findByText(BILLING_TEXTS.setByTeam)).toBeInTheDocument();
    expect(within(panel()).queryByRole('note')).toBeNull();
  });

  it('a plan staff set after the subscription ended says nothing is billed, not the ended status', async () => {
    billingServer(stateOf('intermediate', { status: 'canceled', can_manage: true }));
    renderPanel();
    expect(await within(panel()).findByText(BILLING_TEXTS.setByTeam)).toBeInTheDocument();
    expect(within(panel()).queryByText(/canceled/)).toBeNull();
  });

  it('when the server turns out to have no payments, says why and offers the team instead', async () => {
    fakeApi({
      [`GET ${API.plan}`]: () => stateOf('basic'),
      [`POST ${API.billingCheckout}`]: () => jsonResponse(503, { detail: BILLING_MESSAGES.notConfigured }),
    });
    renderPanel();
    await userEvent.setup().click(await within(panel()).findByRole('button', { name: 'Upgrade to Pro' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(BILLING_MESSAGES.notConfigured));
    expect(within(panel()).getByRole('link', { name: 'Ask for Pro' })).toBeInTheDocument();
    expect(leaveFor).not.toHaveBeenCalled();
  });

  it('a plan staff granted while the panel was open: Checkout is refused, and the panel shows the plan without its Upgrade', async () => {
    let plan: SubscriptionPlan = 'intermediate';
    const api = fakeApi({
      [`GET ${API.plan}`]: () => stateOf(plan),
      [`POST ${API.billingCheckout}`]: () => {
        plan = 'pro';
        return jsonResponse(400, { plan: [BILLING_MESSAGES.planHeld('pro', 'pro')] });
      },
    });
    renderPanel();
    await userEvent.setup().click(await within(panel()).findByRole('button', { name: 'Upgrade to Pro' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('You have the Pro plan already.'));
    await vi.waitFor(() => expect(within(panel()).getByTestId('billing-plan')).toHaveTextContent('Pro'));
    expect(within(panel()).queryByRole('button', { name: /Upgrade/ })).toBeNull();
    expect(within(panel()).getByText(BILLING_TEXTS.setByTeam)).toBeInTheDocument();
    expect(leaveFor).not.toHaveBeenCalled();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('Upgrade refused for a subscription begun on another device: the keyboard goes from the card that went to the portal’s button', async () => {
    let state = stateOf('basic');
    fakeApi({
      [`GET ${API.plan}`]: () => state,
      [`POST ${API.billingCheckout}`]: () => {
        state = stateOf('intermediate', PAID);
        return jsonResponse(409, { detail: BILLING_MESSAGES.alreadySubscribed });
      },
    });
    renderPanel();
    const pro = await within(panel()).findByRole('button', { name: 'Upgrade to Pro' });
    pro.focus();
    await userEvent.setup().keyboard('{Enter}');
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(BILLING_MESSAGES.alreadySubscribed));
    const portal = await within(panel()).findByRole('button', { name: 'Change or cancel plan' });
    expect(pro).not.toBeInTheDocument();
    await vi.waitFor(() => expect(portal).toHaveFocus());
    expect(leaveFor).not.toHaveBeenCalled();
  });

  it('back from Checkout: says the payment is being confirmed, asks again, then shows the plan and opens its features', async () => {
    const api = billingServer(stateOf('basic'), stateOf('basic'), stateOf('pro', PAID));
    const { router } = renderPanel('/profile?billing=success');
    expect(await within(panel()).findByText(BILLING_TEXTS.confirming)).toBeInTheDocument();
    expect(await screen.findByText('export locked')).toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: /Upgrade/ })).toBeNull();

    expect(
      await screen.findByText('export open', {}, { timeout: 3 * PAYMENT_CONFIRMATION.everyMs + 1000 }),
    ).toBeInTheDocument();
    expect(within(panel()).getByTestId('billing-plan')).toHaveTextContent('Pro');
    expect(within(panel()).queryByText(BILLING_TEXTS.confirming)).toBeNull();
    expect(toast.success).toHaveBeenCalledWith(BILLING_TEXTS.confirmed('Pro'));
    expect(router.state.location.search).toBe('');
    expect(api.calls.filter((call) => call.path === API.plan).length).toBeGreaterThanOrEqual(3);
    // The person's other tabs are told, so what Pro opens shows there too (lib/plan.ts, followPlanChanges).
    expect(localStorage.getItem(SESSION.storageKeys.planChanged)).not.toBeNull();
  });

  it('back from the portal before Stripe’s news of the change: asks again until the change lands, then opens or locks everywhere', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let current = stateOf('pro', PAID);
    const api = fakeApi({ [`GET ${API.plan}`]: () => current });
    const { router } = renderPanel('/profile?billing=portal');
    expect(await within(panel()).findByTestId('billing-plan')).toHaveTextContent('Pro');
    expect(await screen.findByText('export open')).toBeInTheDocument();
    // Moved down to Intermediate in the portal; the webhook lands a few seconds after the return.
    await act(() => vi.advanceTimersByTimeAsync(3 * PORTAL_RETURN.everyMs));
    current = stateOf('intermediate', PAID);
    await act(() => vi.advanceTimersByTimeAsync(PORTAL_RETURN.everyMs + 100));
    expect(within(panel()).getByTestId('billing-plan')).toHaveTextContent('Intermediate');
    expect(await screen.findByText('export locked')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    // The person's other tabs are told too (lib/plan.ts, followPlanChanges).
    expect(localStorage.getItem(SESSION.storageKeys.planChanged)).not.toBeNull();
    // Nothing is said of it: the panel shows the plan as it is, and the asking stops.
    expect(toast.success).not.toHaveBeenCalled();
    const asked = api.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(5 * PORTAL_RETURN.everyMs));
    expect(api.calls.length).toBe(asked);
  });

  it('back from the portal with nothing changed: asks for a while, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = billingServer(stateOf('pro', PAID));
    const { router } = renderPanel('/profile?billing=portal');
    expect(await within(panel()).findByTestId('billing-plan')).toHaveTextContent('Pro');
    await act(() => vi.advanceTimersByTimeAsync(PORTAL_RETURN.forMs + 100));
    const asked = api.calls.length;
    expect(asked).toBeGreaterThanOrEqual(PORTAL_RETURN.forMs / PORTAL_RETURN.everyMs);
    expect(router.state.location.search).toBe('');
    await act(() => vi.advanceTimersByTimeAsync(5 * PORTAL_RETURN.everyMs));
    expect(api.calls.length).toBe(asked);
  });

  it('stops asking after a while, says so honestly, and can ask again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let current = stateOf('basic');
    const api = fakeApi({ [`GET ${API.plan}`]: () => current });
    renderPanel('/profile?billing=success');
    expect(await within(panel()).findByText(BILLING_TEXTS.confirming)).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_CONFIRMATION.forMs + 100));
    expect(within(panel()).getByRole('status')).toHaveTextContent(/has not confirmed the payment to us yet/);
    expect(within(panel()).queryByText(BILLING_TEXTS.confirming)).toBeNull();
    const asked = api.calls.length;
    expect(asked).toBeGreaterThanOrEqual(PAYMENT_CONFIRMATION.forMs / PAYMENT_CONFIRMATION.everyMs);
    await act(() => vi.advanceTimersByTimeAsync(5 * PAYMENT_CONFIRMATION.everyMs));
    expect(api.calls.length).toBe(asked);

    current = stateOf('intermediate', PAID);
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.click(within(panel()).getByRole('button', { name: 'Check again' }));
    await vi.waitFor(() => expect(within(panel()).getByTestId('billing-plan')).toHaveTextContent('Intermediate'));
    expect(toast.success).toHaveBeenCalledWith(BILLING_TEXTS.confirmed('Intermediate'));
  });

  it('back from a checkout left unpaid: says nothing changed', async () => {
    billingServer(stateOf('basic'));
    const { router } = renderPanel('/profile?billing=cancelled');
    await vi.waitFor(() => expect(toast.info).toHaveBeenCalledWith(BILLING_TEXTS.checkoutLeft));
    expect(router.state.location.search).toBe('');
  });

  it('with a plan carried from the pricing table, goes straight on to Checkout for it, once', async () => {
    const api = billingServer(stateOf('basic'));
    const { router } = renderPanel('/profile?checkout=pro', { strict: true });
    await vi.waitFor(() => expect(leaveFor).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(await screen.findByText(BILLING_TEXTS.toCheckout('Pro'))).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toMatchObject([{ body: { plan: 'pro' } }]);
    expect(leaveFor).toHaveBeenCalledTimes(1);
    expect(router.state.location.search).toBe('');
  });

  it('with a plan carried but no payments, shows that plan picked and why it cannot be paid here', async () => {
    const api = billingServer(stateOf('basic', { configured: false }));
    renderPanel('/profile?checkout=intermediate');
    expect(await within(panel()).findByRole('note')).toHaveTextContent(BILLING_MESSAGES.notConfigured);
    const card = within(panel()).getByText('Your choice').closest('li')!;
    // The portal's support form with the request filled in, which works without a mail program (a mailto: did nothing).
    const ask = within(card).getByRole('link', { name: 'Ask for Intermediate' });
    expect(ask).toHaveAttribute('href', '/support?plan=intermediate');
    expect(api.calls.map((call) => call.method)).toEqual(['GET']);
    expect(leaveFor).not.toHaveBeenCalled();
  });

  it('with a plan carried that the person already has, says so and buys nothing', async () => {
    const api = billingServer(stateOf('pro', PAID));
    renderPanel('/profile?checkout=pro');
    await vi.waitFor(() => expect(toast.info).toHaveBeenCalledWith(BILLING_TEXTS.alreadyOn('Pro')));
    expect(api.calls.map((call) => call.method)).toEqual(['GET']);
  });

  it('a lock’s link picks its plan', async () => {
    billingServer(stateOf('basic'));
    renderPanel('/profile?upgrade=intermediate#billing');
    const card = (await within(panel()).findByText('Your choice')).closest('li')!;
    expect(within(card).getByRole('button', { name: 'Upgrade to Intermediate' })).toBeInTheDocument();
    expect(leaveFor).not.toHaveBeenCalled();
  });
});
