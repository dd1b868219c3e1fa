import { expect, test, type Page } from './support/test';
import { signInAsNewUser } from './support/accounts';

// What a person notices next: the site knowing they are signed in, where Learn and Contact land,
// a page that keeps its length while it renders, the bars on a phone, and the way home from a 404
// (also from a link whose path no longer decodes).

const scrollHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

test('signed in, the pre-rendered home and /login show the account and the way into the portal', async ({ page }) => {
  const { email } = await signInAsNewUser(page);
  await page.goto('/');
  const header = page.getByRole('banner');
  const portal = header.getByRole('link', { name: /Open the portal/ });
  await expect(portal).toBeVisible();
  await expect(portal).toHaveAttribute('title', `Signed in as \u2068${email}\u2069`);
  await expect(header.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('link', { name: /^Get Started/ })).toHaveCount(0);

  // The pre-rendered page holds both versions and shows a signed-in visit its own from the first paint:
  // the bar's buttons and the hero's do not move when the page's script takes over.
  await page.setViewportSize({ width: 1280, height: 800 });
  const boxes = async () => ({
    theme: await header.getByRole('button', { name: 'Dark mode' }).boundingBox(),
    portal: await portal.boundingBox(),
    hero: await page.getByRole('main').getByRole('link', { name: 'Open the portal' }).first().boundingBox(),
    session: await page
      .getByRole('main')
      .getByRole('link', { name: /Start a session/ })
      .first()
      .boundingBox(),
  });
  await page.route('**/assets/*.js', (route) => route.abort());
  // Its scripts refused, the page never starts: the load alone is waited for (e2e/support/test.ts).
  await page.goto('/', { waitUntil: 'load' });
  await expect(header.getByRole('link', { name: 'Log in' })).toBeHidden();
  const painted = await boxes();
  await page.unrouteAll();
  await page.goto('/');
  await expect(portal).toHaveAttribute('title', `Signed in as \u2068${email}\u2069`);
  await expect(header.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  expect(await boxes()).toEqual(painted);

  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  await expect(page.getByRole('main').getByText(email)).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Open the portal' }).click();
  await expect(page).toHaveURL(/\/subliminals$/);
  await page.getByRole('button', { name: `${email}, account menu` }).click();
  await page.getByRole('menuitem', { name: 'Back to the site' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the home page keeps its length while its sections render: each reserves the height it renders at', async ({
  page,
}) => {
  // A section that renders taller than it reserved moves everything below it as it comes into view:
  // a tap aimed at the footer's links after scrolling to them lands above them.
  for (const [width, reserve] of [
    [390, '--reserve-phone'],
    [768, '--reserve-tablet'],
    [1280, '--reserve-desktop'],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const before = await scrollHeight(page);
    await page.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        scrollTo(0, y);
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20)));
      }
    });
    const sections = await page.locator('.render-when-near[style*="--reserve-phone"]').evaluateAll(
      (elements, name) =>
        elements.map((element) => {
          const style = getComputedStyle(element);
          const content =
            element.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
          return { reserved: parseFloat(style.getPropertyValue(name)), content: Math.round(content) };
        }),
      reserve,
    );
    expect(sections.length).toBeGreaterThan(5);
    for (const [index, { reserved, content }] of sections.entries())
      expect(
        Math.abs(content - reserved),
        `section ${index + 1} at ${width} px: ${content} rendered, ${reserved} reserved`,
      ).toBeLessThanOrEqual(2);
    expect(await scrollHeight(page), `${width} px`).toBeGreaterThanOrEqual(before - 2 * sections.length);
    expect(await scrollHeight(page), `${width} px`).toBeLessThanOrEqual(before + 2 * sections.length);
  }
});

test('Learn and Contact land on their sections of the portal hub', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Learn' }).click();
  await expect(page).toHaveURL(/\/portal\/home\/#learn$/);
  await expect(page.locator('#learn-title')).toBeInViewport();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' }).click();
  await expect(page).toHaveURL(/\/portal\/home\/#contact$/);
  await expect(page.locator('#contact-title')).toBeInViewport();
});

test('on a phone the bar is opaque; in dark mode the home page has the night sky', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const background = await page.getByRole('banner').evaluate((header) => getComputedStyle(header).backgroundColor);
  expect(background).toMatch(/^rgb\(/);
  const sky = await page.locator('.home-sky').evaluate((element) => getComputedStyle(element).backgroundImage);
  expect(sky).toContain('gradient');
});

test('the 404 page has a way home', async ({ page }) => {
  // A real 404 for search engines and link checkers, with the app's friendly page.
  for (const path of ['/no-such-page', '/portal/nonsense']) {
    const answer = await page.goto(path);
    expect(answer?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  }
  // A page's other form leads to its one URL.
  expect((await page.goto('/terms'))?.status()).toBe(200);
  await expect(page).toHaveURL(/\/terms\/$/);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Calm, focus and intention');
});

test('a link a mail client mangled into a bad percent-escape opens the app, not an API answer', async ({ page }) => {
  const unknown = await page.goto('/%ZZ');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  // A reset link whose id no longer decodes is still the reset page, which says the link is bad as it opens
  // (decision 145).
  await page.goto('/password-reset/%ZZ/abc');
  await expect(page.getByText('This link is no longer valid')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();

  // A share link so mangled is a link not found, and its page's script runs (it stopped on the escape):
  // a tap on the theme button before it runs is answered once it does.
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const share = await page.goto('/s/%ZZ');
  expect(share?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Link not found' })).toBeVisible();
  await page.getByRole('button', { name: 'Dark mode' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(errors).toEqual([]);
});
