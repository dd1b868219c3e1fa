import { expect, type Locator } from '@playwright/test';

/**
 * Waits until React has taken over a pre-rendered element. Before that, a key pressed on it reaches no
 * handler: a pre-rendered page asks for its scripts after its first paint, and React hydrates the home
 * page's lower sections after its first screen (their Suspense boundary), so the network going quiet
 * does not say it has happened. React keeps its fiber on each element it owns.
 */
export async function untilHydrated(element: Locator, { timeout }: { timeout?: number } = {}): Promise<void> {
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactFiber$'))), {
      timeout,
    })
    .toBe(true);
}

/**
 * For the first look after a document load (a goto, a reload) that waits for the app to start: its code in several
 * chunks, its first render and the page's data. 1–3 s on a quiet machine; past the 7 s an expectation waits by
 * default at a load of 22 on 2 cores (two browsers, the server and their neighbours), which CI reaches. What is
 * pre-rendered keeps the default: it is there at the first paint (docs/decisions/098-a-first-look-waits-for-the-apps-start.md).
 */
export const AFTER_APP_START = { timeout: 20_000 };
