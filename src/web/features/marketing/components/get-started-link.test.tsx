import { act, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PublicChrome } from '@web/components/layouts/public-chrome';
import { sessionStore } from '@web/lib/session';
import { Pricing } from './pricing';
import { ProTeaser } from './pro-teaser';

afterEach(() => sessionStore.clear());

const pricingLinks = () =>
  within(screen.getByRole('region', { name: 'Simple plans, no surprises' })).getAllByRole('link');

describe('Get Started on the pricing table', () => {
  it('carries a paid plan to sign-up, and Basic signs up free', () => {
    render(
      <>
        <Pricing />
        <ProTeaser />
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
    render(<Pricing />);
    expect(pricingLinks().map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Open the portal', '/subliminals'],
      ['Choose Intermediate', '/profile?checkout=intermediate'],
      ['Choose Pro', '/profile?checkout=pro'],
    ]);
  });

  it('for a visitor, keeps its element through hydration, as the bar’s "Log in" does: a tap then counts', async () => {
    const page = (
      <PublicChrome>
        <Pricing />
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
