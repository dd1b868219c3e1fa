import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { act } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FrequencyCards } from './frequency-cards';
import { Hero } from './hero';

// The pre-rendered home page asks for no image but the hero's first before it paints; the others come
// once the app runs (docs/decisions/033-the-home-page-fetches-its-first-screen-first.md).

afterEach(() => document.body.replaceChildren());

/** The images' sources in the server's HTML, then after the browser hydrated it. */
async function sourcesBeforeAndAfterHydration(page: ReactElement) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  const sources = () => Array.from(container.querySelectorAll('img'), (img) => img.getAttribute('src'));
  const before = sources();
  const root = await act(async () => hydrateRoot(container, page));
  const after = sources();
  act(() => root.unmount());
  return { before, after };
}

describe('the home page’s first screen', () => {
  it('pre-renders the first hero image alone; the next one mounts once the page hydrates', async () => {
    const { before, after } = await sourcesBeforeAndAfterHydration(<Hero />);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatch(/hero-1-800/);
    expect(after).toHaveLength(2);
    expect(after[1]).toMatch(/hero-2-800/);
  });

  it('pre-renders the frequency cards without their images, which come once the page hydrates', async () => {
    const { before, after } = await sourcesBeforeAndAfterHydration(<FrequencyCards />);
    expect(before).toHaveLength(10);
    expect(before.every((src) => src === null)).toBe(true);
    expect(after.every((src) => src !== null && /card-\d+/.test(src))).toBe(true);
  });
});
