import { expect, test } from './support/test';
import { signInAsNewUser } from './support/accounts';

// Back from Stripe with the browser's back-forward cache on, as every browser keeps a page left for another site:
// Playwright turns the cache off for its Chromium, so this file turns it on again (a launch option, for the whole
// file's worker), and the profile shown again from the cache must not stay "Taking you to Stripe Checkout"
// (docs/decisions/112-a-members-billing-road-walked.md).

test.describe.configure({ timeout: 180_000 });
/** For the steps that wait on the server or the stand-in on a busy machine. */
const SLOW = 30_000;

test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  },
});

test('Back from Checkout to the profile as it was left: nothing says it is leaving, and Upgrade leads again', async ({
  page,
}) => {
  const standIn = process.env.STRIPE_API_URL;
  if (!standIn) throw new Error('Run the e2e tests with `npm run test:e2e` (it starts the Stripe stand-in).');
  await signInAsNewUser(page);
  await page.goto('/profile');
  const billing = page.getByRole('region', { name: 'Plan & billing' });
  await billing.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${standIn}/checkout/`), { timeout: SLOW });
  await expect(page.getByText(/Subscribe to Pro/)).toBeVisible();
  // Shown again from the cache: no load event comes.
  const restored = page.waitForEvent('framenavigated');
  await page.goBack({ waitUntil: 'commit' });
  await restored;
  expect(
    await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type),
  ).toBe('navigate');
  await expect(billing.getByText('Taking you to Stripe Checkout for Pro…')).toHaveCount(0);
  await billing.getByRole('button', { name: 'Upgrade to Intermediate' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${standIn}/checkout/`), { timeout: SLOW });
  await expect(page.getByText(/Subscribe to Intermediate/)).toBeVisible();
});
