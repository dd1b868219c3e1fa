import { expect, test } from '@playwright/test';

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
  // The home page paints before its scripts load (docs/decisions/022-pre-rendered-pages-paint-before-their-scripts.md):
  // a click before React has taken the page over does nothing (CI's runs clicked that early).
  await page.waitForLoadState('networkidle');
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
