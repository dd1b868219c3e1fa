import { expect, test, type Page } from './support/test';
import { AFTER_HASHING, readLatestMail, signInAsNewUser, uniqueEmail } from './support/accounts';

// The profile open in two tabs of one browser: what one tab changes, the other shows.

async function saveNames(page: Page, names: { first?: string; last?: string }) {
  await page.getByRole('button', { name: 'Edit profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit profile' });
  if (names.first !== undefined) await dialog.getByLabel('First name').fill(names.first);
  if (names.last !== undefined) await dialog.getByLabel('Last name').fill(names.last);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('a second tab follows names and an address changed in the first, and its open dialog keeps only what was typed', async ({
  context,
  page,
}) => {
  const { password } = await signInAsNewUser(page);
  await page.goto('/profile');
  await saveNames(page, { first: 'Ada', last: 'Lovelace' });
  const other = await context.newPage();
  await other.goto('/profile');
  await expect(other.getByTestId('profile-name')).toHaveText('Ada Lovelace');

  // The second tab starts an edit of the first name, then the first tab saves a new last name.
  await other.getByRole('button', { name: 'Edit profile' }).click();
  const dialog = other.getByRole('dialog', { name: 'Edit profile' });
  await dialog.getByLabel('First name').fill('Mira');
  await saveNames(page, { last: 'Okafor' });
  await expect(other.getByTestId('profile-name')).toHaveText('Ada Okafor');
  await expect(dialog.getByLabel('Last name')).toHaveValue('Okafor');
  await expect(dialog.getByLabel('First name')).toHaveValue('Mira');
  // Its Save no longer puts the old last name back, and the first tab follows in turn.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(other.getByTestId('profile-name')).toHaveText('Mira Okafor');
  await expect(page.getByTestId('profile-name')).toHaveText('Mira Okafor');

  // A new address confirmed in a third tab: both profiles show it, in the card and in the Account card.
  const newEmail = uniqueEmail('moved');
  await page.getByRole('button', { name: 'Change e-mail' }).click();
  const change = page.getByRole('dialog', { name: 'Change e-mail' });
  await change.getByLabel('New e-mail').fill(newEmail);
  await change.getByLabel('Current password').fill(password);
  await change.getByRole('button', { name: 'Send the link' }).click();
  await expect(change).toBeHidden(AFTER_HASHING);
  const mail = await readLatestMail(newEmail, 'Confirm your new');
  const link = mail.links.find((candidate) => new URL(candidate).pathname.startsWith('/email/confirm/'));
  expect(link).toBeDefined();
  const third = await context.newPage();
  await third.goto(link!);
  await expect(third).toHaveURL(/\/profile$/);
  // Opened once more (a double click, another tab), the used link is refused, but the page sees the account
  // already has its address and says the change is done, not that the address was not changed.
  const again = await context.newPage();
  await again.goto(link!);
  await expect(again).toHaveURL(/\/profile$/);
  await expect(again.getByText('Your e-mail address was changed.', { exact: false })).toBeVisible();
  for (const tab of [page, other]) await expect(tab.getByRole('main').getByText(newEmail)).toHaveCount(2);
});

test('names of 150 characters without a space wrap inside the profile card and are cut short in the account menu, at 1280 and 390 px', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/profile');
  const [first, last] = ['W'.repeat(150), 'M'.repeat(150)];
  await saveNames(page, { first, last });
  const name = page.getByTestId('profile-name');
  await expect(name).toHaveText(`${first} ${last}`);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Nothing runs out of its box, nor the page out of the window; the card's button stays on screen.
    const overflow = await name.evaluate((element) => ({
      name: element.scrollWidth - element.clientWidth,
      page: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(overflow, `at ${width} px`).toEqual({ name: 0, page: 0 });
    const edit = await page.getByRole('button', { name: 'Edit profile' }).boundingBox();
    expect(edit!.x + edit!.width).toBeLessThanOrEqual(width);

    await page.getByRole('button', { name: /account menu$/ }).click();
    const menu = page.getByRole('menu');
    const inMenu = menu.getByText(`${first} ${last}`);
    await expect(inMenu).toHaveAttribute('title', `${first} ${last}`);
    const [menuBox, nameBox] = [await menu.boundingBox(), await inMenu.boundingBox()];
    expect(nameBox!.x + nameBox!.width).toBeLessThanOrEqual(menuBox!.x + menuBox!.width);
    expect(menuBox!.x + menuBox!.width).toBeLessThanOrEqual(width);
    await page.keyboard.press('Escape');
  }
});
