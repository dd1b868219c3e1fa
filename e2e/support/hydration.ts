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
 * How long the app's start is waited for: its code in several chunks, its first render and the page's data. 1–3 s on a
 * quiet machine; past the 7 s an expectation waits by default at a load of 22 on 2 cores (two browsers, the server and
 * their neighbours), which CI reaches. Every goto and reload of a document that starts an app waits for it
 * (e2e/support/test.ts): the SPA's, its route documents and the pre-rendered pages. Left to a start without a load:
 * the app's code coming once the connection is back (docs/decisions/098-a-first-look-waits-for-the-apps-start.md).
 */
export const AFTER_APP_START = { timeout: 20_000 };

/**
 * For the first look after a click that moves to another page: inside the app, the router shows the page, and changes
 * the address, once the page's chunk has come, which took 7 s and more at a load of 30 on 2 cores, as the app's start
 * does; from a pre-rendered page, once the next document has come. The same for a redirect the app makes after a call
 * (logout to login). `toHaveURL` waits it by default (e2e/support/test.ts); a first look at the new page's element takes
 * it (docs/decisions/098-a-first-look-waits-for-the-apps-start.md).
 */
export const AFTER_PAGE_CODE = AFTER_APP_START;
