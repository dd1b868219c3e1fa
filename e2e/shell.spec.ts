import { expect, test } from './support/test';
import { signInAsNewUser } from './support/accounts';

test('the health check answers', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok', db: 'ok' });
});

test('a guarded deep link sends a visitor to login with the full path', async ({ page }) => {
  await page.goto('/subliminals?from=mail');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsubliminals%3Ffrom%3Dmail$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('public deep links render their page', async ({ page }) => {
  await page.goto('/terms/');
  await expect(page.getByRole('heading', { level: 1, name: /terms/i })).toBeVisible();
  await expect(page.getByText(/May 13, 2025/).first()).toBeVisible();
});

test('dark mode persists across a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Dark mode' }).click();
  await expect(html).toHaveClass(/dark/);
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
});

test('without a stored choice the theme follows the system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/dark/);
});

test('where the browser refuses to store anything, the theme still follows the system', async ({ page }) => {
  // Site data blocked: every use of localStorage throws.
  await page.addInitScript(() =>
    Object.defineProperty(window, 'localStorage', {
      get: () => {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    }),
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
});

test('a page opened from the menu starts at its top; Back returns to where the last one was', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsNewUser(page);
  await page.goto('/music');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.mouse.wheel(0, 1500);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  const scrolled = await page.evaluate(() => window.scrollY);

  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Subliminals' }).click();
  await expect(page).toHaveURL(/\/subliminals$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(page).toHaveURL(/\/music$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
});
