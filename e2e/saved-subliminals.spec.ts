import { expect, test } from '@playwright/test';
import { createActiveUser, setPlanAsStaff, signIn, signInAsNewUser } from './support/accounts';

test.describe.configure({ timeout: 120_000 });
test.skip(!process.env.E2E_STAFF_EMAIL, 'Run through scripts/e2e.mjs, which creates the staff account.');

test('an Intermediate member saves a themed subliminal and shares it; a visitor opens the link; revoking ends it', async ({
  page,
  browser,
}) => {
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'intermediate');
  await signIn(page, account);
  await page.goto('/subliminals');

  await page.getByRole('button', { name: 'Add Confidence to playlist' }).first().click();
  await page.getByRole('radio', { name: 'Forest' }).check({ force: true });
  await page.getByLabel('Name for the current playlist').fill('Steady mornings');
  await page.getByRole('button', { name: 'Save the current playlist and settings under this name' }).click();
  await expect(page.getByText(/18 messages · Forest/)).toBeVisible();

  await page.getByRole('button', { name: 'Share Steady mornings' }).click();
  await page.getByRole('button', { name: 'Create link' }).click();
  const link = await page.getByLabel('Share link').inputValue();
  expect(link).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);

  // A stranger, no account: sees the name and the messages, and is invited to sign up.
  const visitorContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.goto(new URL(link).pathname);
  await expect(visitor.getByRole('heading', { name: 'Steady mornings' })).toBeVisible();
  await expect(visitor.getByText('Forest theme', { exact: false })).toBeVisible();
  await expect(visitor.getByRole('listitem').filter({ hasText: 'I trust my own judgement.' })).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Sign up free' })).toBeVisible();

  // The owner stops sharing: the same link now says so.
  await page.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(page.getByRole('button', { name: 'Create link' })).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('alert')).toContainText('This link does not work');
  await visitorContext.close();
});

test('on Basic, saving and sharing are locked on screen and refused by the API', async ({ page }) => {
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  await expect(page.getByRole('button', { name: 'Save & share Intermediate' })).toBeVisible();
  await expect(page.getByLabel('Name for the current playlist')).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'Forest, locked' })).toBeDisabled();

  await page.getByRole('button', { name: 'Save & share Intermediate' }).click();
  await expect(page.getByRole('dialog')).toContainText('Intermediate is $36 a month');
  await page.keyboard.press('Escape');

  const access = await page.evaluate(() => localStorage.getItem('user.access'));
  const refused = await page.request.post('/api/user/subliminals/', {
    headers: { Authorization: `Bearer ${access}` },
    data: {
      name: 'Not allowed',
      playlist: [{ message_text: 'I am calm', source: 'library', message_id: 1 }],
      settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20, theme: 'classic' },
    },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'plan_required', required_plan: 'intermediate' });
});
