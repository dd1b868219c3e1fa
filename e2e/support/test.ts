import { expect as baseExpect, test as base, type Page } from '@playwright/test';
import { APP_STARTED_ATTRIBUTE } from '../../src/web/lib/app-started';
import { AFTER_APP_START, AFTER_PAGE_CODE } from './hydration';

// Every spec takes `test` (and whatever else it imports from Playwright) from here: eslint.config.js says so.
export * from '@playwright/test';

/**
 * Playwright's `expect`, but `toHaveURL` waits AFTER_PAGE_CODE unless given a timeout: an address is the first look
 * after a click, a form's submit or a menu's item that moves to another page, which the router shows, and writes in
 * the address bar, once the page's chunk has come (or once the next document has), past the 7 s default on a loaded
 * machine (docs/decisions/098-a-first-look-waits-for-the-apps-start.md).
 */
export const expect = baseExpect.extend({
  async toHaveURL(page: Page, url: Parameters<ReturnType<typeof baseExpect<Page>>['toHaveURL']>[0], options?: object) {
    const assertion = this.isNot ? baseExpect(page).not : baseExpect(page);
    try {
      await assertion.toHaveURL(url, { ...AFTER_PAGE_CODE, ...options });
      return { pass: !this.isNot, message: () => `the page's URL is as expected`, name: 'toHaveURL' };
    } catch (error) {
      return { pass: this.isNot, message: () => (error as Error).message, name: 'toHaveURL' };
    }
  },
});

const STARTED = `html[${APP_STARTED_ATTRIBUTE}]`;

/**
 * Any document that starts an app once started: the SPA's (index.html, its module script), and those the build gives
 * a loader that asks for their script after their first paint (`script[data-entry]`, build/vite-plugins.ts
 * startAfterFirstPaint): the pre-rendered pages, whose own code hydrates them and marks it, or hands over to the SPA,
 * which does, and the SPA's route documents (`*.route.html`). A document with neither passes at once: an API answer, a
 * file (docs/decisions/098-a-first-look-waits-for-the-apps-start.md).
 */
const STARTED_OR_NO_APP = `${STARTED}, html:not(:has(script[type="module"][src], script[data-entry]))`;

async function untilStarted(page: Page, selector: string): Promise<void> {
  await base.step(
    'app started',
    async () => {
      await baseExpect(page.locator(selector)).toBeAttached(AFTER_APP_START);
    },
    { box: true },
  );
}

/**
 * Waits for the app of the page's document to start, as a step of its own in the report ("app started"), given
 * AFTER_APP_START: its code in several chunks, its first render and the page's data, past the 7 s an expectation
 * waits by default on a loaded machine. For a start without a load of the SPA's document: the login's hand-over
 * (docs/decisions/098-a-first-look-waits-for-the-apps-start.md).
 */
export async function untilAppStarted(page: Page): Promise<void> {
  await untilStarted(page, STARTED);
}

/**
 * A `goto` or `reload` given a `waitUntil` of its own is a test of what shows before the app starts, or of a page
 * whose scripts it holds or refuses (which would never start): it does not wait for the app.
 */
const waitsForTheApp = (options?: { waitUntil?: string }) => options?.waitUntil === undefined;

const patched = new WeakSet<object>();

/**
 * Makes `goto` and `reload` of every page of the worker wait for the start of its document's app: the `page` of a
 * test, and the pages a test opens in contexts of its own, which a `page` fixture would not reach. They share one
 * prototype.
 */
function waitForTheAppAfterLoads(pagePrototype: Page) {
  if (patched.has(pagePrototype)) return;
  patched.add(pagePrototype);
  const { goto, reload } = pagePrototype;
  pagePrototype.goto = async function (this: Page, ...args: Parameters<Page['goto']>) {
    const response = await goto.apply(this, args);
    if (waitsForTheApp(args[1])) await untilStarted(this, STARTED_OR_NO_APP);
    return response;
  };
  pagePrototype.reload = async function (this: Page, ...args: Parameters<Page['reload']>) {
    const response = await reload.apply(this, args);
    if (waitsForTheApp(args[0])) await untilStarted(this, STARTED_OR_NO_APP);
    return response;
  };
}

export const test = base.extend<object, { appStartAfterLoads: void }>({
  appStartAfterLoads: [
    async ({ browser }, use) => {
      const context = await browser.newContext();
      waitForTheAppAfterLoads(Object.getPrototypeOf(await context.newPage()) as Page);
      await context.close();
      await use();
    },
    { scope: 'worker', auto: true },
  ],
});
