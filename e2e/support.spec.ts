import { expect, test } from './support/test';
import { readLatestMail, setPlanAsStaff, signIn, signInAsNewUser } from './support/accounts';

// The support form end to end: a paying member sends a request from the portal, it is mailed to the
// support address (priority, Reply-To the member) with a copy to them, and staff close it in the admin.

test('a paid member’s request reaches the support address and staff mark it handled', async ({ page, browser }) => {
  test.skip(!process.env.E2E_STAFF_EMAIL, 'Run through scripts/e2e.mjs, which creates the staff account.');
  const member = await signInAsNewUser(page);
  await setPlanAsStaff(page.request, member.email, 'intermediate');
  const subject = `Sound stops ${Date.now().toString(36)}`;

  await page.goto('/subliminals');
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Support' }).first().click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByText('Your plan includes priority support: your requests are answered first.')).toBeVisible();
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('The sound stops after two minutes.\nOn every device.');
  await page.getByLabel('Send me a copy by e-mail').check();
  await page.getByRole('button', { name: 'Send request' }).click();
  const thanks = page.getByRole('heading', { name: /^Thanks — your request #\d+ reached us\.$/ });
  await expect(thanks).toBeVisible();
  const id = /#(\d+)/.exec((await thanks.textContent()) ?? '')![1];

  const toSupport = await readLatestMail('support@innerwave.app', subject);
  expect(toSupport.subject).toBe(`[Priority] Support request #${id}: \u2068${subject}\u2069`);
  expect(toSupport.replyTo).toBe(member.email);
  expect(toSupport.text).toContain('The sound stops after two minutes.\nOn every device.');
  const copy = await readLatestMail(member.email, 'support request');
  expect(copy.text).toContain('within 48 business hours');

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, { email: process.env.E2E_STAFF_EMAIL!, password: process.env.E2E_STAFF_PASSWORD! });
  await staff.goto('/admin/support');
  const item = staff.getByRole('listitem').filter({ hasText: `#${id} · ${subject}` });
  // The admin's first screen after a staff login (its chunk, the session, the list): slow on a loaded CI machine.
  await expect(item.getByText('Priority', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(item.getByText(member.email)).toBeVisible();
  // click, not check: in the open list the request leaves as soon as it is handled.
  await item.getByLabel(`Handled #${id}`).click();
  await expect(staff.getByText(`Request #${id} is handled.`)).toBeVisible();
  await expect(staff.getByRole('listitem').filter({ hasText: `#${id} · ${subject}` })).toHaveCount(0);
  await staffContext.close();
});
