import { expect, test } from './support/test';
import { linkOf, readLatestMail, signInAsNewUser, strongPassword, uniqueEmail } from './support/accounts';
import { untilShown } from './support/content';
import { undersized } from './support/touch';

// Paying for a plan: Pro picked on the home page is carried through sign-up, the activation mail and
// login into Stripe Checkout — here the stand-in scripts/e2e.mjs starts, whose Pay button sends the
// signed webhooks to the app — and back in the profile the plan is Pro and what Pro adds is open.

test.describe.configure({ timeout: 180_000 });
/** For the steps that wait on the server, the mail or the stand-in's webhook on a busy machine. */
const SLOW = 30_000;

test('Pro from the home page: sign up, activate, log in, pay at Checkout, and Pro is open', async ({ page }) => {
  const standIn = process.env.STRIPE_API_URL;
  if (!standIn) throw new Error('Run the e2e tests with `npm run test:e2e` (it starts the Stripe stand-in).');
  const email = uniqueEmail('billing');
  const password = strongPassword();

  await page.goto('/');
  await page.getByRole('link', { name: 'Get Started with Pro' }).first().click();
  await expect(page).toHaveURL(/\/signup\?plan=pro$/);
  await expect(page.getByText('You chose Pro ($56 a month).')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('checkbox', { name: /at least 18/ }).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/login\?plan=pro$/, { timeout: SLOW });
  await expect(page.getByText(/checkout is next/)).toBeVisible();

  // The mail's link, as a person opens it: the choice waited on the device.
  await page.goto(linkOf(await readLatestMail(email, 'Activate'), 'activation'));
  await expect(page).toHaveURL(/\/login$/, { timeout: SLOW });
  await expect(page.getByText('You chose Pro ($56 a month).')).toBeVisible();
  // Signed up in this browser: the address is filled in (decision 111).
  await expect(page.getByLabel('Email')).toHaveValue(email);
  // The keyboard is in Password, what is left to type (decision 117).
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');

  await page.waitForURL((url) => url.href.startsWith(`${standIn}/checkout/`), { timeout: SLOW });
  await expect(page.getByText(/Subscribe to Pro/)).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/profile(\?billing=success)?$/, { timeout: SLOW });
  const billing = page.getByRole('region', { name: 'Plan & billing' });
  await expect(billing.getByTestId('billing-plan')).toHaveText('Pro', { timeout: SLOW });
  await expect(billing.getByText('Active')).toBeVisible();
  await expect(billing.getByText(/^Renews on .+ at \$56 a month\.$/)).toBeVisible();
  await expect(billing.getByRole('button', { name: 'Change or cancel plan' })).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);

  // A renewal fails and is paid in Stripe's portal (the stand-in's, which sends its events): Pro throughout.
  await billing.getByRole('button', { name: 'Change or cancel plan' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${standIn}/portal/`), { timeout: SLOW });
  await page.getByRole('button', { name: 'Fail the next payment' }).click();
  await page.getByRole('link', { name: 'Return' }).click();
  await expect(billing.getByText('Payment failed')).toBeVisible({ timeout: SLOW });
  await billing.getByRole('button', { name: 'Update payment details' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${standIn}/portal/`), { timeout: SLOW });
  await page.getByRole('button', { name: 'Pay the failed payment' }).click();
  await page.getByRole('link', { name: 'Return' }).click();
  await expect(billing.getByText('Active')).toBeVisible({ timeout: SLOW });
  await expect(billing.getByText('Payment failed')).toHaveCount(0);
  await expect(billing.getByTestId('billing-plan')).toHaveText('Pro');

  // The home page's pricing knows the plan once the app does: Pro is theirs, and nothing sells a Checkout.
  await page.goto('/');
  const pricing = page.getByRole('region', { name: 'Simple plans, no surprises' });
  await pricing.scrollIntoViewIfNeeded();
  await expect(pricing.getByText('Your plan')).toBeVisible({ timeout: SLOW });
  await expect(pricing.getByText('Included in your Pro plan')).toHaveCount(2);
  await expect(pricing.getByRole('link', { name: /^Choose/ })).toHaveCount(0);

  // Pro's export of one's own messages is open.
  await page.goto('/subliminals');
  await page.getByLabel('New category of your own').fill('Evenings');
  await page.getByRole('button', { name: 'Add the category' }).click();
  await page.getByLabel('New message in Evenings').fill('I let the day go.');
  await page.getByRole('button', { name: 'Add the message to Evenings' }).click();
  await expect(page.getByText('I let the day go.', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /Export & share/ })).toHaveCount(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export my messages as JSON' }).click();
  const file = await (await download).path();
  const { readFile } = await import('node:fs/promises');
  expect(await readFile(file, 'utf8')).toContain('I let the day go.');
});

test('a visitor who picked no plan signs up free and is not sent to checkout', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Get Started with Basic' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByText(/You chose/)).toHaveCount(0);
});

test('paid in one tab, Pro opens in the other tab of the same browser without a reload; Upgrade clicked twice opens one Checkout', async ({
  page,
  context,
}) => {
  const standIn = process.env.STRIPE_API_URL;
  if (!standIn) throw new Error('Run the e2e tests with `npm run test:e2e` (it starts the Stripe stand-in).');
  await signInAsNewUser(page);
  const other = await context.newPage();
  await other.goto('/subliminals');
  const exportLock = other.getByRole('button', { name: /Export & share/ });
  await expect(exportLock).toBeVisible({ timeout: SLOW });

  await page.goto('/profile');
  const checkouts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/billing/checkout/')) checkouts.push(request.url());
  });
  await page.getByRole('button', { name: 'Upgrade to Pro' }).dblclick();
  await page.waitForURL((url) => url.href.startsWith(`${standIn}/checkout/`), { timeout: SLOW });
  expect(checkouts).toHaveLength(1);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('region', { name: 'Plan & billing' }).getByTestId('billing-plan')).toHaveText('Pro', {
    timeout: SLOW,
  });

  // The other tab, side by side and never brought to the front: the lock on Pro's export goes.
  await expect(exportLock).toHaveCount(0, { timeout: SLOW });
  await expect(other.getByLabel('New category of your own')).toBeVisible();
});

test('on a phone, a lock’s Upgrade lands on the plan it names, its card whole above the mini-player, in both themes', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await signInAsNewUser(page);
  await page.goto('/music');
  // A track playing: the mini-player takes the bottom of the screen.
  const play = page.getByRole('button', { name: /^Play 528 Hz/ });
  await untilShown(page, play);
  await play.click();
  const player = page.getByRole('region', { name: 'Now playing' });
  await expect(player).toBeVisible({ timeout: 20_000 });

  const chosenCardInView = async () => {
    const card = page.getByRole('listitem').filter({ hasText: 'Your choice' });
    await expect(card).toContainText('Pro');
    await expect(card.getByRole('button', { name: 'Upgrade to Pro' })).toBeVisible();
    // Scrolled once the card shows (a frame after it): its whole box between the bar and the mini-player.
    await expect
      .poll(async () => {
        const [box, bar, bottom] = await Promise.all([
          card.boundingBox(),
          page.locator('header').first().boundingBox(),
          player.boundingBox(),
        ]);
        return box!.y >= bar!.y + bar!.height && box!.y + box!.height <= bottom!.y;
      })
      .toBe(true);
  };
  const upgradeFromLock = async () => {
    await page.getByRole('button', { name: /^Your own music/ }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Upgrade to Pro' }).click();
    await expect(page).toHaveURL(/\/profile\?upgrade=pro#billing$/);
    await chosenCardInView();
  };
  await upgradeFromLock();
  // Back to the music, the track still playing, and the same again in the dark theme.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goBack();
  await expect(page).toHaveURL(/\/music$/);
  await upgradeFromLock();
});

test.describe('on a touch phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

  // A member's road to Pro, measured as the portal is in reflow.spec.ts (decision 126): the pricing, our return from
  // Checkout while the payment is confirmed and once it is, and a Checkout left. The stand-in's pages are not ours.
  test('the pricing, the return from Checkout and Plan & billing take a finger', async ({ page }) => {
    const standIn = process.env.STRIPE_API_URL;
    if (!standIn) throw new Error('Run the e2e tests with `npm run test:e2e` (it starts the Stripe stand-in).');
    const findings: string[] = [];
    const measure = async (what: string) => {
      for (const finding of await undersized(page, 'body')) findings.push(`${what}: ${finding}`);
    };
    await signInAsNewUser(page);

    await page.goto('/');
    const pricing = page.getByRole('region', { name: 'Simple plans, no surprises' });
    await pricing.scrollIntoViewIfNeeded();
    await expect(pricing.getByText('Your plan')).toBeVisible({ timeout: SLOW });
    await measure('the pricing of a Basic member');
    await pricing.getByRole('link', { name: 'Choose Pro' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${standIn}/checkout/`), { timeout: SLOW });
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL(/\/profile/, { timeout: SLOW });
    await measure('the return from Checkout');
    const billing = page.getByRole('region', { name: 'Plan & billing' });
    await expect(billing.getByTestId('billing-plan')).toHaveText('Pro', { timeout: SLOW });
    await measure('Plan & billing on Pro');

    await page.goto('/profile?billing=cancelled');
    await expect(billing.getByTestId('billing-plan')).toHaveText('Pro', { timeout: SLOW });
    // With the toast that says so, and its Close.
    await expect(page.getByText('You left checkout before paying.', { exact: false })).toBeVisible();
    await measure('the return from a Checkout left');
    expect(findings).toEqual([]);
  });
});
