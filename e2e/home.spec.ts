import { expect, test, type Page } from './support/test';
import { AFTER_PAGE_CODE, untilHydrated } from './support/hydration';

// The home page's links and buttons go where docs/product/screens.md#home says; its modals work by
// mouse and keyboard; the legal pages carry their date.

const main = (page: Page) => page.getByRole('main');

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The page arrives pre-rendered; wait until React has taken it over (its links and modals work then).
  await page.waitForLoadState('networkidle');
});

test('Get Started buttons go to signup, a paid plan’s carrying the plan', async ({ page }) => {
  const buttons = main(page).getByRole('link', { name: /^Get Started/ });
  expect(await buttons.count()).toBeGreaterThanOrEqual(5);
  for (const href of await buttons.evaluateAll((links) => links.map((a) => a.getAttribute('href'))))
    expect(href).toMatch(/^\/signup(\?plan=(intermediate|pro))?$/);
  await expect(main(page).getByRole('link', { name: 'Get Started with Pro' }).first()).toHaveAttribute(
    'href',
    '/signup?plan=pro',
  );
  await buttons.first().click();
  await expect(page).toHaveURL(/\/signup$/);
});

test('the Beta badge, the calls to action and the sound-frequencies button go to subliminals (via login when signed out)', async ({
  page,
}) => {
  for (const name of [/Beta/, /Start a session/, /Open the subliminals player/, /Sound frequencies/]) {
    await page.goto('/');
    await main(page).getByRole('link', { name }).click();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsubliminals$/);
  }
});

test('Windows goes to applications (via login when signed out)', async ({ page }) => {
  await main(page).getByRole('link', { name: 'Windows' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fapplications$/);
});

test('the footer links to the legal pages, which show their date', async ({ page }) => {
  const footer = page.getByRole('contentinfo');
  await footer.getByRole('link', { name: /terms/i }).click();
  await expect(page).toHaveURL(/\/terms\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Terms and conditions' })).toBeVisible();
  await expect(page.getByText('Last updated May 13, 2025')).toBeVisible();
  await page
    .getByRole('contentinfo')
    .getByRole('link', { name: /privacy/i })
    .click();
  await expect(page).toHaveURL(/\/privacy\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
  await expect(page.getByText('Last updated May 13, 2025')).toBeVisible();
});

test('the public bar: Programs opens by keyboard, Escape closes it and returns focus; the links go to portal home and its sections', async ({
  page,
}) => {
  const bar = page.getByRole('navigation', { name: 'Main' });
  const programs = bar.getByRole('button', { name: 'Programs' });
  await untilHydrated(programs);
  await programs.focus();
  await page.keyboard.press('ArrowDown');
  await expect(programs).toHaveAttribute('aria-expanded', 'true');
  await expect(bar.getByRole('link', { name: 'Portal' })).toBeFocused();
  await expect(bar.getByRole('link')).toHaveCount(1 + 7 + 3);
  await page.keyboard.press('Escape');
  await expect(programs).toHaveAttribute('aria-expanded', 'false');
  await expect(programs).toBeFocused();
  await expect(bar.getByRole('link', { name: 'Audio Library' })).toHaveAttribute('href', '/portal/home/');
  await expect(bar.getByRole('link', { name: 'Learn' })).toHaveAttribute('href', '/portal/home/#learn');
  await expect(bar.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/portal/home/#contact');
  await bar.getByRole('link', { name: 'Contact' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Contact' })).toBeVisible(AFTER_PAGE_CODE);
  await expect(page.getByText(/48 business hours/)).toBeVisible();
});

test('a frequency card opens its modal by mouse; Escape closes it and focus returns to the card', async ({ page }) => {
  const card = main(page).getByRole('button', { name: /^528 Hz/ });
  await card.click();
  const dialog = page.getByRole('dialog', { name: /528 Hz/ });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(card).toBeFocused();
});

test('a frequency card opens by keyboard and closes with its Close button', async ({ page }) => {
  const card = main(page).getByRole('button', { name: /^174 Hz/ });
  await untilHydrated(card);
  await card.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: /174 Hz/ });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toBeFocused();
});

test('Android and iOS open the under-development modal; I understand closes it', async ({ page }) => {
  for (const name of ['Android', 'iOS']) {
    const button = main(page).getByRole('button', { name });
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'This feature is under development' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'I understand' }).click();
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
  }
});

test('Join needs an e-mail, then opens the under-development modal; Escape closes it', async ({ page }) => {
  const email = main(page).getByRole('textbox', { name: 'E-mail address' });
  const join = main(page).getByRole('button', { name: 'Join' });
  await join.click();
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(await email.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
  await email.fill('me@example.com');
  await email.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'This feature is under development' });
  await expect(dialog).toContainText('The newsletter');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
});

test('the page shows the claim, the three plans and the equalizer sample', async ({ page }) => {
  await expect(main(page).getByText('1,200+ people are meditating').first()).toBeVisible();
  for (const price of ['$0', '$36', '$56']) await expect(main(page).getByText(price, { exact: true })).toBeVisible();
  for (const hz of ['963 Hz', '528 Hz', '396 Hz'])
    await expect(main(page).locator('figcaption', { hasText: hz })).toBeVisible();
});

test('the equalizer sample fits in its card on narrow phones (320 to 390 px), nothing cut off', async ({ page }) => {
  const card = page.getByRole('region', { name: 'Three tones to start with' }).locator('> div');
  for (const width of [320, 360, 375, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await card.scrollIntoViewIfNeeded();
    // The card hides what runs past it: at 360 px the last bars were cut, at 320 px the text beside them too.
    const overflow = await card.evaluate((element) => ({
      bands: element.lastElementChild!.scrollWidth - element.lastElementChild!.clientWidth,
      card: element.scrollWidth - element.clientWidth,
    }));
    expect(overflow, `at ${width} px`).toEqual({ bands: 0, card: 0 });
    // Nor squeezed: each "963 Hz" stays on one line.
    const lines = await card.locator('figcaption > span:first-child').evaluateAll((labels) =>
      labels.map((label) => {
        const text = document.createRange();
        text.selectNodeContents(label);
        return new Set([...text.getClientRects()].map((rect) => Math.round(rect.top))).size;
      }),
    );
    expect(lines, `at ${width} px`).toEqual([1, 1, 1]);
  }
});

test('the home page, the legal pages and the account forms each have a meta description of their own', async ({
  page,
}) => {
  const descriptions = new Map<string, string>();
  for (const path of ['/', '/terms/', '/privacy/', '/signup', '/login', '/resetpassword/']) {
    const html = await (await page.request.get(path)).text();
    const description = /<meta name="description" content="([^"]+)"/.exec(html)?.[1];
    expect(description, path).toBeDefined();
    descriptions.set(path, description!);
  }
  // Search results showed the home page's marketing line under the terms and the privacy policy.
  expect(new Set(descriptions.values()).size).toBe(descriptions.size);
  expect(descriptions.get('/privacy/')).toContain('What Innerwave stores about you');
});
