import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOME } from '@shared/constants';
import { Hero } from './hero';

function prefersReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes('prefers-reduced-motion'),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

const backdrop = () => screen.getByTestId('hero-backdrop');
const images = () => Array.from(backdrop().querySelectorAll('img'));
const visible = () => images().findIndex((img) => img.classList.contains('opacity-100'));

describe('hero backdrop', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the first image eagerly and cross-fades to the next every 5 s, loading each one a step ahead', () => {
    prefersReducedMotion(false);
    render(<Hero />);
    expect(images()).toHaveLength(2);
    expect(images()[0]).toHaveAttribute('fetchpriority', 'high');
    expect(images()[0]).toHaveAttribute('loading', 'eager');
    expect(images()[1]).toHaveAttribute('loading', 'lazy');
    expect(visible()).toBe(0);
    act(() => vi.advanceTimersByTime(HOME.heroRotationMs));
    expect(visible()).toBe(1);
    expect(images()).toHaveLength(3);
    for (let step = 0; step < 3; step++) act(() => vi.advanceTimersByTime(HOME.heroRotationMs));
    expect(visible()).toBe(0);
    expect(images()).toHaveLength(HOME.heroImageCount);
  });

  it('under reduced motion shows only the first image, still', () => {
    prefersReducedMotion(true);
    render(<Hero />);
    act(() => vi.advanceTimersByTime(HOME.heroRotationMs * 2));
    expect(images()).toHaveLength(1);
    expect(visible()).toBe(0);
  });
});
