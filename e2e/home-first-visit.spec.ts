import { expect, test, type Page } from './support/test';
import { signInAsNewUser } from './support/accounts';
import { AFTER_APP_START, untilHydrated } from './support/hydration';

// A first visit to `/` gets the home page pre-rendered with its own lean scripts (no router, no
// SPA entry); React takes the page over without a mismatch, and its links lead into the SPA.

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  /** No app starts without JavaScript: the load alone is waited for (e2e/support/test.ts). */
  const NO_APP = { waitUntil: 'load' } as const;

  test('the whole home page is in the document', async ({ page }) => {
    await page.goto('/', NO_APP);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Calm, focus and intention, one session at a time',
    );
    await expect(page.getByRole('button', { name: /Hz/ })).toHaveCount(10);
    await expect(page.getByRole('heading', { name: 'Simple plans, no surprises' })).toBeAttached();
    await expect(page.getByRole('main')).toContainText('$56/month');
    await expect(page.getByRole('link', { name: 'Terms and conditions' })).toHaveAttribute('href', '/terms/');
    await expect(page.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page');
  });

  // Until its script runs, a page is its pre-rendered HTML: the public bar marks no link of another page as the
  // current one (it marked Home on all of them).
  for (const path of ['/login', '/signup', '/terms/', '/privacy/', '/resetpassword/']) {
    test(`the pre-rendered ${path} marks no other page's link as the current page`, async ({ page }) => {
      await page.goto(path, NO_APP);
      await expect(page.getByRole('link', { name: 'Home', exact: true })).toBeAttached();
      await expect(page.locator('[aria-current="page"]')).toHaveCount(0);
    });
  }
});

test('React takes the page over without errors, then its links load the SPA and the SPA comes back home', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });

  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(
    scripts.some((path) => /\/assets\/index-[^/]+\.js$/.test(path)),
    scripts.join(', '),
  ).toBe(false);

  // Hydrated: the theme toggle answers.
  await page.getByRole('button', { name: 'Dark mode' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Innerwave home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Calm, focus and intention, one session at a time');
  await expect(page.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page');
  expect(problems).toEqual([]);
});

// A pre-rendered page carries its styles and paints from its first response; its scripts are asked
// for after that paint (build/vite-plugins.ts, startAfterFirstPaint), and then make it respond.
for (const path of ['/', '/login', '/signup', '/resetpassword/', '/terms/', '/privacy/', '/portal/home/']) {
  test(`${path} paints from its document, then loads its scripts`, async ({ page }) => {
    const stylesheets: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') stylesheets.push(request.url());
    });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(path);
    const timing = () =>
      page.evaluate(() => ({
        paint: performance.getEntriesByName('first-paint')[0]?.startTime,
        scripts: performance
          .getEntriesByType('resource')
          .filter((entry) => (entry as PerformanceResourceTiming).initiatorType !== 'img' && entry.name.endsWith('.js'))
          .map((entry) => entry.startTime),
      }));
    // Waited for, not read once the network is quiet: on a slow machine the first paint, and so the first
    // script, can come after half a second of quiet.
    await expect.poll(async () => (await timing()).scripts.length).toBeGreaterThan(0);
    const { paint, scripts } = await timing();
    expect(stylesheets).toEqual([]);
    expect(paint).toBeDefined();
    expect(Math.min(...scripts)).toBeGreaterThanOrEqual(paint ?? Infinity);
    // Running: the theme toggle answers (a click before the scripts have run is answered once they have).
    await page.getByRole('button', { name: 'Dark mode' }).click();
    await expect(page.locator('html')).toHaveClass(/dark/);
  });
}

// A signed-in visit to a page that starts the app at once asks for the app's code beside the page's own, from the
// first paint, where it waited for that code to come and run; a visitor, whose page never starts the app, never asks
// for it (build/pages.ts, appModules; docs/decisions/103-the-app-comes-sooner-for-every-signed-in-visit.md).
test('a signed-in visit to the legal pages and the hub asks for the app’s code before the page’s own has come; a visitor never does', async ({
  page,
}) => {
  // Six page loads, one of them held, and a sign-in: past the default 30 s at a load of 20 on 2 cores.
  test.slow();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  // The app's own chunk, and the layout a signed-in visit shows these pages in: no page's own code imports either.
  const appCode = (path: string) => /\/assets\/(spa|portal-layout)-[\w-]+\.js$/.test(path);
  const pages = ['/terms/', '/privacy/', '/portal/home/'];

  for (const path of pages) {
    scripts.length = 0;
    await page.goto(path);
    // Running (React has taken the page over), and nothing more asked for since.
    await untilHydrated(page.getByRole('button', { name: 'Dark mode' }));
    await page.waitForLoadState('networkidle');
    expect(scripts.filter(appCode), path).toEqual([]);
  }

  await signInAsNewUser(page);
  for (const path of pages) {
    // The page's own entry is held: only its loader, right after the first paint, can ask for the app's code now.
    const entry = await pageEntry(page, path);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${entry}`, async (route) => {
      await held;
      await route.continue();
    });
    scripts.length = 0;
    await page.goto(path, { waitUntil: 'commit' });
    await expect.poll(() => new Set(scripts.filter(appCode)).size, { message: path }).toBe(2);
    release();
    // And the app then shows the page, its frame gone.
    await expect(page.locator('#portal-frame')).toHaveCount(0, AFTER_APP_START);
    await expect(page.locator('#root').getByRole('heading', { level: 1 })).toBeVisible();
    await page.unrouteAll();
  }
});

// A signed-in visit to the hub asks for what the hub shows the person beside the app's code, each once, and the app
// takes those answers; a visitor asks for none (docs/decisions/104-a-page-s-data-comes-beside-the-apps-code.md).
test('a signed-in visit to the hub asks for its data before the app’s code has come, each once; a visitor asks for none', async ({
  page,
}) => {
  // Two page loads, one of them held, and a sign-in: past the default 30 s on a loaded machine.
  test.slow();
  const reads: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/user/')) reads.push(pathname);
  });
  await page.goto('/portal/home/');
  await untilHydrated(page.getByRole('button', { name: 'Dark mode' }));
  await page.waitForLoadState('networkidle');
  expect(reads).toEqual([]);

  await signInAsNewUser(page);
  // The app's own chunk is held: only the page's own code can ask for the hub's data now.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/spa-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  reads.length = 0;
  await page.goto('/portal/home/', { waitUntil: 'commit' });
  const hubReads = ['/api/user/onboarding/', '/api/user/plan/', '/api/user/practice/', '/api/user/programs/'];
  await expect.poll(() => [...new Set(reads)].sort()).toEqual(hubReads);
  release();
  // The app shows the hub with what was read (a new person's plan has no recommendations: its teaser), asking again
  // for none of it, nor for the recommendations its plan does not include.
  await expect(page.getByRole('button', { name: /See recommendations.*Pro/ })).toBeVisible(AFTER_APP_START);
  await expect(page.getByRole('heading', { name: 'Where would you like to start?' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(reads.sort()).toEqual(hubReads);
  await page.unrouteAll();
});

/** The entry script of the pre-rendered page at `path`, as its loader names it (build/vite-plugins.ts). */
async function pageEntry(page: Page, path: string): Promise<string> {
  const html = await (await page.request.get(path)).text();
  const entry = /<script data-entry="([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error(`${path} has no loader`);
  return entry;
}

test("buttons tapped before the page's scripts arrive are answered once they have run", async ({ page }) => {
  let release = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
  let asked = () => {};
  const scriptsAsked = new Promise<void>((resolve) => (asked = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    asked();
    await scriptsHeld;
    await route.continue();
  });
  await page.emulateMedia({ colorScheme: 'light' });
  // Its scripts held, the page starts only once they are released below: the load alone is waited for.
  await page.goto('/', { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Dark mode' }).click();
  await page
    .getByRole('main')
    .getByRole('button', { name: /^528 Hz/ })
    .click();
  // Nothing could answer yet: the page has asked for its scripts, and they are held.
  await scriptsAsked;
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  release();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('dialog', { name: /528 Hz/ })).toBeVisible();
  // The open modal hides the rest of the page from the accessibility tree.
  await expect(page.getByRole('button', { name: 'Dark mode', includeHidden: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(await page.evaluate(() => localStorage.getItem('innerwave.theme'))).toBe('dark');
});
