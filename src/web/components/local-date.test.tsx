import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDate } from './local-date';

// A date that a server rendered hydrates with the server's fixed form, then shows the visitor's.

const ISO = '2026-11-20T23:30:00Z';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Tells the two forms apart whatever the machine's locale: the fixed one is US English in UTC. */
function fakeLocales() {
  vi.spyOn(Date.prototype, 'toLocaleDateString').mockImplementation(function (this: Date, locales, options) {
    return locales === 'en-US' && options?.timeZone === 'UTC' ? 'fixed form' : 'visitor form';
  });
}

describe('LocalDate', () => {
  it('is written in a fixed form on the server, hydrates with it, then shows the visitor’s', async () => {
    fakeLocales();
    const html = renderToString(<LocalDate iso={ISO} options={{ dateStyle: 'long' }} />);
    expect(html).toBe('fixed form');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const root = await act(async () => hydrateRoot(container, <LocalDate iso={ISO} options={{ dateStyle: 'long' }} />));
    expect(container.textContent).toBe('visitor form');
    act(() => root.unmount());
    container.remove();
  });

  it('shows the visitor’s form at once when rendered in the browser', () => {
    fakeLocales();
    const container = document.createElement('div');
    const root = createRoot(container);
    act(() => root.render(<LocalDate iso={ISO} options={{ dateStyle: 'long' }} />));
    expect(container.textContent).toBe('visitor form');
    act(() => root.unmount());
  });

  it('writes the fixed form as US English in UTC', () => {
    expect(renderToString(<LocalDate iso={ISO} options={{ dateStyle: 'long' }} />)).toBe('November 20, 2026');
  });
});
