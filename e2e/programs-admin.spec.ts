import { expect, test, type Locator } from './support/test';
import { signIn, signInAsNewUser } from './support/accounts';
import { hiddenWhenTabbing } from './support/focus';
import { AFTER_PAGE_CODE } from './support/hydration';

// Staff edit a guidance program on /admin/programs; a member sees the change on /programs/{slug}
// (docs/product/guidance.md#staff-editing). Named *admin.spec.ts so it runs in the 'admin' project,
// after the specs that read the seeded programs as first written.

const staffEmail = process.env.E2E_STAFF_EMAIL ?? '';
const staffPassword = process.env.E2E_STAFF_PASSWORD ?? '';

test('a staff edit of a program’s days shows on the program page for a member', async ({ browser }) => {
  test.skip(!staffEmail, 'Run through scripts/e2e.mjs, which creates the staff account.');
  // Two sign-ins, one of them a new account, and a long form: more than the default on a loaded machine.
  test.setTimeout(120_000);
  const newTitle = `Noticing the breath ${Date.now() % 100000}`;

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, { email: staffEmail, password: staffPassword });
  await staff.goto('/admin');
  await staff.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Programs' }).click();
  await expect(staff).toHaveURL(/\/admin\/programs$/);
  await staff.getByRole('button', { name: 'Edit Mindful Moments' }).click();

  // Day 2 gets a new title and a message, then becomes day 1. What it holds is read first: a retry
  // finds the program as the first attempt saved it.
  const dayTwoMessages = staff.locator('#day-1-messages');
  const messages = (await dayTwoMessages.inputValue()).split('\n').filter((line) => line.trim() !== '');
  const [intro = ''] = (await staff.locator('#day-1-intro').inputValue()).split(/\n\s*\n/);
  await staff.locator('#day-1-title').fill(newTitle);
  await dayTwoMessages.press('End');
  await dayTwoMessages.pressSequentially('\nI notice one breath at a time.');
  await staff.getByRole('button', { name: 'Move day 2 up' }).click();
  await expect(staff.locator('#day-0-title')).toHaveValue(newTitle);
  await expect(staff.getByRole('button', { name: 'Move day 1 down' })).toBeFocused();
  await staff.getByRole('button', { name: 'Save program' }).click();
  await expect(staff.getByText('Saved \u2068Mindful Moments\u2069.')).toBeVisible();
  await expect(staff.getByText('Members see what is saved.')).toBeVisible();
  await staffContext.close();

  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await signInAsNewUser(member);
  await member.goto('/programs/mindful-moments');
  // A new member starts at day 1: the day staff moved there.
  await expect(member.getByRole('heading', { level: 2, name: newTitle })).toBeVisible();
  // Staff added a message to the day's own.
  await expect(member.getByText(`${messages.length + 1} messages to read, one at a time`)).toBeVisible();
  await expect(member.getByText(intro, { exact: false })).toBeVisible();
  await member.goto('/admin/programs');
  await expect(member.getByRole('heading', { name: 'Staff only' })).toBeVisible();
  await memberContext.close();
});

test('a program saved in another tab meanwhile is not saved over without a word: the editor says so and keeps what was typed', async ({
  browser,
}) => {
  test.skip(!staffEmail, 'Run through scripts/e2e.mjs, which creates the staff account.');
  test.setTimeout(120_000);
  const stamp = Date.now() % 100000;
  const theirs = `Their intention ${stamp}`;
  const mine = `My intention ${stamp}`;
  // Two tabs of one staff member (one browser, one session), both open on the same program.
  const context = await browser.newContext();
  const first = await context.newPage();
  await signIn(first, { email: staffEmail, password: staffPassword });
  await first.goto('/admin/programs?program=clear-intentions');
  const second = await context.newPage();
  await second.goto('/admin/programs?program=clear-intentions');

  await second.locator('#day-0-title').fill(theirs);
  await second.getByRole('button', { name: 'Save program' }).click();
  await expect(second.getByText('Members see what is saved.')).toBeVisible();

  await first.locator('#day-0-title').fill(mine);
  await first.getByRole('button', { name: 'Save program' }).click();
  // A refused save reads the program again before it says so: more than the default on a loaded machine.
  await expect(first.getByRole('alert').filter({ hasText: 'This program was changed meanwhile' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(first.locator('#day-0-title')).toHaveValue(mine);
  // Reloaded before anything more is typed: what was typed is back, and so is what the refusal said (decision 096).
  await first.reload();
  await expect(first.locator('#day-0-title')).toHaveValue(mine, { timeout: 30_000 });
  await expect(first.getByRole('alert').filter({ hasText: 'This program was changed meanwhile' })).toBeVisible();
  // Told, a second Save puts what was typed in its place.
  await first.getByRole('button', { name: 'Save program' }).click();
  await expect(first.getByText('Members see what is saved.')).toBeVisible();
  await second.reload();
  await expect(second.locator('#day-0-title')).toHaveValue(mine);
  await context.close();
});

test('every field of the program editor reached with Tab stays clear of its sticky Save bar, on a phone and a desk', async ({
  page,
}) => {
  test.skip(!staffEmail, 'Run through scripts/e2e.mjs, which creates the staff account.');
  test.setTimeout(120_000);
  await signIn(page, { email: staffEmail, password: staffPassword });
  await page.goto('/admin/programs');
  await page.getByRole('button', { name: 'Edit Mindful Moments' }).click();
  const title = page.locator('#program-title');
  await expect(title).toBeVisible();
  const hidden: string[] = [];
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    // Down from the program's title through its days, and up from the Save bar.
    const found = await hiddenWhenTabbing(page, [title, page.getByRole('button', { name: 'Save program' })]);
    // Not a textarea: Chromium reveals its caret's line, not the whole box, bars or none (a matter of its own).
    hidden.push(...found.filter((line) => !/: textarea "/.test(line)).map((line) => `${width}: ${line}`));
  }
  expect(hidden, hidden.join('\n')).toEqual([]);
});

/** How far above the screen's bottom the sticky bar holding `button` rests, the page scrolled to its top. */
const gapUnderBar = (button: Locator) =>
  button.evaluate((node) => {
    window.scrollTo(0, 0);
    return Math.round(window.innerHeight - node.closest('.sticky')!.getBoundingClientRect().bottom);
  });

test('the program editor’s Save bar rests as far above the screen’s bottom as the subliminals’ Start/Stop bar, on a phone and a desk', async ({
  page,
}) => {
  test.skip(!staffEmail, 'Run through scripts/e2e.mjs, which creates the staff account.');
  await signIn(page, { email: staffEmail, password: staffPassword });
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/subliminals');
    const start = page.getByRole('button', { name: 'Start', exact: true });
    await expect(start).toBeVisible({ timeout: 20_000 });
    const underStartStop = await gapUnderBar(start);
    await page.goto('/admin/programs');
    await page.getByRole('button', { name: 'Edit Mindful Moments' }).click();
    const save = page.getByRole('button', { name: 'Save program' });
    await expect(save).toBeVisible();
    expect(await gapUnderBar(save), `${width}: under the Save bar`).toBe(underStartStop);
    // The gap the bars publish with their height (lib/bottom-chrome.ts), so a field reached with Tab stops 1 rem
    // above the bar, not 12 px more.
    expect(underStartStop, `${width}: under the Start/Stop bar`).toBe(12);
  }
});

test('a program whose title and address are one long word fits a 390 px phone, as it is typed and once created', async ({
  page,
}) => {
  test.skip(!staffEmail, 'Run through scripts/e2e.mjs, which creates the staff account.');
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, { email: staffEmail, password: staffPassword });
  await page.goto('/admin/programs?program=new');
  // 80 letters, the longest title; the address made from it is its first 60 (decision 107).
  const title = `Quietness${Date.now() % 100000}`.padEnd(80, 'x');
  await page.locator('#program-title').fill(title);
  await page.locator('#program-summary').fill('One long word.');
  await page.locator('#day-0-title').fill('One');
  await page.locator('#day-0-intro').fill('Sit.');
  await page.locator('#day-0-messages').fill('I am here.');
  const sideways = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await expect(page.locator('#program-slug-hint')).toContainText(title.toLowerCase().slice(0, 60));
  expect(await sideways(), 'as it is typed').toBe(0);
  await page.getByRole('button', { name: 'Create program' }).click();
  await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible(AFTER_PAGE_CODE);
  expect(await sideways(), 'once created').toBe(0);
  // Not left for the other specs' lists.
  await page.getByRole('button', { name: `Delete ${title}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', level: 2 })).toBeVisible();
});

test('a day or a layer removed in the program editor comes back with the toast’s Undo, with the keyboard on it', async ({
  page,
}) => {
  test.skip(!staffEmail, 'Run through scripts/e2e.mjs, which creates the staff account.');
  test.setTimeout(120_000);
  await signIn(page, { email: staffEmail, password: staffPassword });
  await page.goto('/admin/programs?program=mindful-moments');
  const title = page.locator('#day-1-title');
  const dayTwo = await title.inputValue();
  const messages = await page.locator('#day-1-messages').inputValue();
  await page.getByRole('button', { name: 'Remove day 2' }).press('Enter');
  await expect(title).not.toHaveValue(dayTwo);
  const toast = page.getByRole('listitem').filter({ hasText: 'Day 2 removed; not saved yet.' });
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(title).toHaveValue(dayTwo);
  await expect(page.locator('#day-1-messages')).toHaveValue(messages);
  await expect(title).toBeFocused();

  // A layer: one is added first, so that the day has one whatever the seed gave it (decision 129).
  await page.getByRole('button', { name: 'Add a layer to day 1' }).click();
  const layers = page.locator('#program-day-0 select[id$="-kind"]');
  const last = (await layers.count()) - 1;
  await page.locator(`#day-0-layer-${last}-kind`).selectOption('binaural');
  await page.getByRole('button', { name: `Remove layer ${last + 1} of day 1` }).click();
  await expect(layers).toHaveCount(last);
  await page
    .getByRole('listitem')
    .filter({ hasText: `Layer ${last + 1} of day 1 removed; not saved yet.` })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expect(page.locator(`#day-0-layer-${last}-kind`)).toHaveValue('binaural');
  await expect(page.locator(`#day-0-layer-${last}-kind`)).toBeFocused();
  await expect(page.getByText('Unsaved changes.')).toBeVisible();
});

test('an Undo that would bring a day past four layers says so and stays, and works once a layer makes room', async ({
  page,
}) => {
  test.skip(!staffEmail, 'Run through scripts/e2e.mjs, which creates the staff account.');
  test.setTimeout(120_000);
  await signIn(page, { email: staffEmail, password: staffPassword });
  await page.goto('/admin/programs?program=mindful-moments');
  const layers = page.locator('#program-day-0 select[id$="-kind"]');
  const add = page.getByRole('button', { name: 'Add a layer to day 1' });
  await expect(page.locator('#day-0-title')).toBeVisible();
  if ((await layers.count()) === 4) await page.getByRole('button', { name: 'Remove layer 4 of day 1' }).click();
  await add.click();
  await page.locator('#day-0-layer-0-kind').selectOption('binaural');
  await page.getByRole('button', { name: 'Remove layer 1 of day 1' }).click();
  // The pointer rests on the toasts, which holds them (a loaded machine took longer than their 5 s to add the layers
  // with the pointer); the layers are added from the keyboard meanwhile.
  const removed = page.getByRole('listitem').filter({ hasText: 'Layer 1 of day 1 removed; not saved yet.' });
  await removed.hover();
  while ((await layers.count()) < 4) await add.press('Enter');

  await removed.getByRole('button', { name: 'Undo' }).click();
  // Nothing comes back; the limit is named, and the removal's toast and its Undo stay (decision 133).
  await expect(
    page.getByText('Layer 1 cannot come back: day 1 already has 4 layers, the most a day can hold.'),
  ).toBeVisible();
  await expect(layers).toHaveCount(4);
  await expect(removed).toBeVisible();
  // The keyboard is back on the page where it was, the gain of the layer added last, where the room is made, not left
  // in the toast (app/themed-toaster.tsx).
  await expect(page.locator('#program-day-0 :focus')).toHaveCount(1);

  await page.getByRole('button', { name: 'Remove layer 4 of day 1' }).click();
  // Its toast is under the newer ones now: the pointer on the stack spreads it, as a person's does.
  await page.getByRole('listitem').filter({ hasText: 'Layer 4 of day 1 removed; not saved yet.' }).hover();
  await removed.getByRole('button', { name: 'Undo' }).click();
  await expect(layers).toHaveCount(4);
  await expect(page.locator('#day-0-layer-0-kind')).toHaveValue('binaural');
  await expect(page.locator('#day-0-layer-0-kind')).toBeFocused();
});
