import { act, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionPlan } from '@shared/constants';
import type { BillingState } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { PublicChrome } from '@web/components/layouts/public-chrome';
import { sessionStore } from '@web/lib/session';
import { SESSION } from '@web/lib/session-keys';
import { fakeApi, jsonResponse, planStateFor } from '@web/test/render';
import { Pricing } from './pricing';
import { ProTeaser } from './pro-teaser';
import { MEMBER_PLAN_FRESH_MS, useMemberPlan } from '../hooks/use-member-plan';

/** The pricing, and the Pro teaser above it when asked, given the plan as the home page reads it. */
function PlanSections({ teaser = false }: { teaser?: boolean }) {
  const member = useMemberPlan();
  return (
    <>
      {teaser ? <ProTeaser member={member} /> : null}
      <Pricing member={member} />
    </>
  );
}

afterEach(() => {
  sessionStore.clear();
  vi.unstubAllGlobals();
});

const pricingLinks = () =>
  within(screen.getByRole('region', { name: 'Simple plans, no surprises' })).getAllByRole('link');

describe('Get Started on the pricing table', () => {
  it('carries a paid plan to sign-up, and Basic signs up free', () => {
    render(
      <>
        <Pricing member={undefined} />
        <ProTeaser member={undefined} />
      </>,
    );
    expect(pricingLinks().map((link) => [link.getAttribute('aria-label'), link.getAttribute('href')])).toEqual([
      ['Get Started with Basic', '/signup'],
      ['Get Started with Intermediate', '/signup?plan=intermediate'],
      ['Get Started with Pro', '/signup?plan=pro'],
    ]);
    // Styled as the buttons they stand in.
    for (const link of pricingLinks()) expect(link).toHaveClass('btn');
    // The Pro teaser's button is Pro's too.
    expect(screen.getAllByRole('link', { name: 'Get Started with Pro' })).toHaveLength(2);
  });

  it('takes someone signed in to checkout for a paid plan, and into the portal for Basic', () => {
    sessionStore.setTokens({ access: 'x.eyJ1c2VyX2lkIjo3fQ.y', refresh: 'r' }, 'member@example.com');
    render(<PlanSections />);
    expect(pricingLinks().map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Open the portal', '/subliminals'],
      ['Choose Intermediate', '/profile?checkout=intermediate'],
      ['Choose Pro', '/profile?checkout=pro'],
    ]);
  });

  it('for a visitor, keeps its element through hydration, as the bar’s "Log in" does: a tap then counts', async () => {
    const page = (
      <PublicChrome>
        <Pricing member={undefined} />
      </PublicChrome>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(page);
    document.body.append(container);
    const before = [
      within(container).getByRole('link', { name: 'Log in' }),
      within(container).getByRole('link', { name: 'Get Started with Basic' }),
      within(container).getByRole('link', { name: 'Get Started with Pro' }),
    ];
    const root = await act(async () => hydrateRoot(container, page));
    expect(within(container).queryByRole('link', { name: /Open the portal|Choose Pro/ })).toBeNull();
    for (const link of before) {
      expect(link.isConnected, link.textContent ?? '').toBe(true);
      expect(link.className).not.toContain('signed-out:hidden');
    }
    act(() => root.unmount());
    container.remove();
  });
});

describe('the pricing table for a member, once their plan is known', () => {
  const member = (plan: SubscriptionPlan, status: BillingState['status'] = null) => {
    sessionStore.setTokens({ access: 'x.eyJ1c2VyX2lkIjo3fQ.y', refresh: 'r' }, 'member@example.com');
    const state = planStateFor(plan);
    fakeApi({ [`GET ${API.plan}`]: () => ({ ...state, billing: { ...state.billing, configured: true, status } }) });
    render(<PlanSections />);
  };
  /** Each card: its heading, and what it leads to (a link's text and address, or its words). */
  const cards = () =>
    within(screen.getByRole('region', { name: 'Simple plans, no surprises' }))
      .getAllByRole('listitem')
      .filter((item) => item.querySelector('h3'))
      .map((card) => {
        const link = card.querySelector(':scope > a');
        return [
          card.querySelector('h3')!.textContent,
          link
            ? `${link.textContent} → ${link.getAttribute('href')}`
            : card.querySelector(':scope > p:last-child')!.textContent,
        ];
      });

  it('renews a lapsed access token once; a session that cannot be renewed keeps the buttons and the page', async () => {
    sessionStore.setTokens({ access: 'x.eyJ1c2VyX2lkIjo3fQ.y', refresh: 'r' }, 'member@example.com');
    const { calls } = fakeApi({
      [`GET ${API.plan}`]: (call) =>
        call.auth === 'Bearer renewed' ? planStateFor('pro') : jsonResponse(401, { detail: 'expired' }),
      [`POST ${API.tokenRefresh}`]: () => ({ access: 'renewed' }),
    });
    const { unmount } = render(<PlanSections />);
    await waitFor(() => expect(cards()[2]![0]).toBe('ProYour plan'));
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `GET ${API.plan}`,
      `POST ${API.tokenRefresh}`,
      `GET ${API.plan}`,
    ]);
    unmount();

    sessionStore.setTokens({ access: 'x.eyJ1c2VyX2lkIjo3fQ.y', refresh: 'ended' }, 'member@example.com');
    const refused = fakeApi({
      [`GET ${API.plan}`]: () => jsonResponse(401, { detail: 'expired' }),
      [`POST ${API.tokenRefresh}`]: () => jsonResponse(401, { detail: 'Token is invalid or expired' }),
    });
    render(<PlanSections />);
    await waitFor(() => expect(refused.calls).toHaveLength(2));
    expect(cards().map(([, leads]) => leads)).toEqual([
      'Open the portal → /subliminals',
      'Choose Intermediate → /profile?checkout=intermediate',
      'Choose Pro → /profile?checkout=pro',
    ]);
    // Still signed in, still here: the portal ends the session, not the home page.
    expect(sessionStore.get().isAuthenticated).toBe(true);
    expect(window.location.pathname).toBe('/');
  });

  it('on Basic: Basic is theirs, the paid plans lead to Checkout', async () => {
    member('basic');
    await waitFor(() => expect(cards()[0]![0]).toBe('BasicYour plan'));
    expect(cards()).toEqual([
      ['BasicYour plan', 'Open the portal → /subliminals'],
      ['Intermediate', 'Choose Intermediate → /profile?checkout=intermediate'],
      ['Pro', 'Choose Pro → /profile?checkout=pro'],
    ]);
  });

  it('on Intermediate with a subscription: Basic is included, Pro leads to Plan & billing, where the portal changes it', async () => {
    member('intermediate', 'active');
    await waitFor(() => expect(cards()[1]![0]).toBe('IntermediateYour plan'));
    expect(cards()).toEqual([
      ['Basic', 'Included in your Intermediate plan'],
      ['IntermediateYour plan', 'Open the portal → /subliminals'],
      ['Pro', 'Choose Pro → /profile?upgrade=pro#billing'],
    ]);
  });

  it('on Pro: no plan invites a Checkout', async () => {
    member('pro', 'canceled');
    await waitFor(() => expect(cards()[2]![0]).toBe('ProYour plan'));
    expect(cards()).toEqual([
      ['Basic', 'Included in your Pro plan'],
      ['Intermediate', 'Included in your Pro plan'],
      ['ProYour plan', 'Open the portal → /subliminals'],
    ]);
    expect(screen.queryByRole('link', { name: /Choose/ })).toBeNull();
    // Their plan stands out, not Intermediate as for a visitor.
    expect(screen.getByRole('link', { name: 'Open the portal' })).toHaveClass('btn-primary');
  });
});

describe('the Pro teaser for a member, once their plan is known', () => {
  const member = (plan: SubscriptionPlan, status: BillingState['status'] = null) => {
    sessionStore.setTokens({ access: 'x.eyJ1c2VyX2lkIjo3fQ.y', refresh: 'r' }, 'member@example.com');
    const state = planStateFor(plan);
    const api = fakeApi({
      [`GET ${API.plan}`]: () => ({ ...state, billing: { ...state.billing, configured: true, status } }),
    });
    render(<PlanSections teaser />);
    return api;
  };
  const teaser = () => screen.getByRole('region', { name: /Upgrade when you want more|Everything Innerwave has/ });
  const teaserLink = () => {
    const link = within(teaser()).getByRole('link');
    return `${link.textContent} → ${link.getAttribute('href')}`;
  };

  it('on Basic: Pro leads to Checkout, from the one read of the plan the pricing answers too', async () => {
    const { calls } = member('basic');
    await screen.findByText('Your plan');
    expect(teaserLink()).toBe('Choose Pro → /profile?checkout=pro');
    expect(teaser()).toHaveTextContent('Upgrade when you want more');
    expect(calls.filter((call) => call.path === API.plan)).toHaveLength(1);
  });

  it('on Intermediate with a subscription: Pro leads to Plan & billing, where the portal changes it', async () => {
    member('intermediate', 'active');
    await screen.findByText('Your plan');
    expect(teaserLink()).toBe('Choose Pro → /profile?upgrade=pro#billing');
  });

  it('on Pro: says Pro is theirs and opens the portal, with no "Choose Pro" or upgrade', async () => {
    member('pro', 'active');
    await waitFor(() => expect(within(teaser()).getByText('Your plan')).toBeVisible());
    expect(teaserLink()).toBe('Open the portal → /subliminals');
    expect(teaser()).not.toHaveTextContent(/Upgrade|go Pro/);
    expect(screen.queryByRole('link', { name: /Choose Pro/ })).toBeNull();
  });
});

describe('the pricing and the Pro teaser after the plan changes elsewhere', () => {
  /** A Basic member's home page, whose plan the server then answers as `now.plan`. */
  const basicMember = () => {
    sessionStore.setTokens({ access: 'x.eyJ1c2VyX2lkIjo3fQ.y', refresh: 'r' }, 'member@example.com');
    const now: { plan: SubscriptionPlan } = { plan: 'basic' };
    const api = fakeApi({ [`GET ${API.plan}`]: () => planStateFor(now.plan) });
    render(<PlanSections teaser />);
    const reads = () => api.calls.filter((call) => call.path === API.plan).length;
    return { now, reads };
  };
  /** What the pricing's Pro card leads to. */
  const pricingSays = () =>
    within(screen.getByRole('region', { name: 'Simple plans, no surprises' }))
      .getAllByRole('listitem')
      .find((item) => item.querySelector('h3')?.textContent?.startsWith('Pro'))!
      .querySelector(':scope > a')?.textContent;
  const teaserSays = () =>
    within(screen.getByRole('region', { name: /Upgrade when you want more|Everything Innerwave has/ })).getByRole(
      'link',
    ).textContent;
  const setVisibility = (state: DocumentVisibilityState) => {
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(state);
    document.dispatchEvent(new Event('visibilitychange'));
  };
  afterEach(() => vi.restoreAllMocks());

  it('follows Pro bought in another tab at once, when that tab says so', async () => {
    const { now, reads } = basicMember();
    await waitFor(() => expect(pricingSays()).toBe('Choose Pro'));
    expect(teaserSays()).toBe('Choose Pro');
    now.plan = 'pro';
    // Another tab's payment confirmed (lib/plan-changes.ts): its storage event reaches this one.
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', { key: SESSION.storageKeys.planChanged, newValue: String(Date.now()) }),
      );
    });
    await waitFor(() => expect(pricingSays()).toBe('Open the portal'));
    expect(teaserSays()).toBe('Open the portal');
    expect(screen.queryByRole('link', { name: /Choose/ })).toBeNull();
    expect(reads()).toBe(2);
    // Another key changed in storage reads nothing.
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION.storageKeys.profileSaved, newValue: '1' }));
    });
    expect(reads()).toBe(2);
  });

  it('reads the plan again when the page shows after a while hidden, not at every glance away', async () => {
    let clock = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    const { now, reads } = basicMember();
    await waitFor(() => expect(pricingSays()).toBe('Choose Pro'));
    now.plan = 'pro';
    act(() => setVisibility('hidden'));
    clock += MEMBER_PLAN_FRESH_MS - 1;
    act(() => setVisibility('visible'));
    expect(reads()).toBe(1);
    act(() => setVisibility('hidden'));
    clock += 1;
    act(() => setVisibility('visible'));
    await waitFor(() => expect(pricingSays()).toBe('Open the portal'));
    expect(teaserSays()).toBe('Open the portal');
    expect(reads()).toBe(2);
  });
});
