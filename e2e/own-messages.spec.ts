import { expect, test, type Page } from './support/test';
import { AFTER_APP_START, AFTER_PAGE_CODE } from './support/hydration';
import { AFTER_HASHING, signIn, signInAsNewUser } from './support/accounts';

test.describe.configure({ timeout: 120_000 });

test('own messages flash like the library’s, and the playlist and settings follow the account to another browser', async ({
  page,
  browser,
}) => {
  const account = await signInAsNewUser(page);
  await page.goto('/subliminals');

  await page.getByLabel('New category of your own').fill('Mornings');
  await page.getByRole('button', { name: 'Add the category' }).click();
  const newMessage = page.getByLabel('New message in Mornings');
  for (const text of ['I begin the day calm.', 'I choose one thing at a time.', 'My breath is steady.']) {
    await newMessage.fill(text);
    await page.getByRole('button', { name: 'Add the message to Mornings' }).click();
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  }
  // One's own order: a message moved to the top stays there after a reload.
  const moveUp = page.getByRole('button', { name: 'Move "My breath is steady." up' });
  const moveDown = page.getByRole('button', { name: 'Move "My breath is steady." down' });
  await expect(moveDown).toBeDisabled();
  await moveUp.click();
  await expect(moveDown).toBeEnabled();
  await moveUp.click();
  await expect(moveUp).toBeDisabled(AFTER_APP_START);
  await page.reload();
  await expect(moveUp).toBeDisabled();
  await expect(moveDown).toBeEnabled();

  await page.getByRole('button', { name: 'Add Mornings to playlist' }).click();
  await expect(page.getByRole('heading', { name: /Playlist/ })).toContainText('(3)');
  await page.getByLabel('Flash speed (ms)').fill('600');
  await page.getByLabel('Flash speed (ms)').blur();
  await expect(page.getByRole('status').filter({ hasText: 'Saved to your account' })).toBeVisible({ timeout: 10_000 });

  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'I understand, start' }).click();
  await expect(page.getByTestId('flash-message')).toHaveText(
    /I begin the day calm\.|I choose one thing at a time\.|My breath is steady\./,
  );
  await page.keyboard.press('Escape');

  // Another browser, the same person: what was saved is there.
  const elsewhere = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const other = await elsewhere.newPage();
  await signIn(other, account);
  await other.goto('/subliminals');
  await expect(other.getByRole('heading', { name: /Playlist/ })).toContainText('(3)');
  await expect(other.getByLabel('Flash speed (ms)')).toHaveValue('600');
  await expect(other.getByText('I choose one thing at a time.').first()).toBeVisible();
  await elsewhere.close();
});

test('a long word of ones own neither widens the page on a phone nor covers its buttons', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  const longName = 'Selbstbewusstseinsentwicklungsmöglichkeiten';
  const longMessage = 'I'.padEnd(200, 'x');
  await page.getByLabel('New category of your own').fill(longName);
  await page.getByRole('button', { name: 'Add the category' }).click();
  await page.getByLabel(`New message in ${longName}`).fill(longMessage);
  await page.getByRole('button', { name: `Add the message to ${longName}` }).click();
  await expect(page.getByText(longMessage, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Add ${longName} to playlist` }).click();
  await expect(page.getByRole('heading', { name: /Playlist/ })).toContainText('(1)');

  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The message's edit button sits beside its text, not over the next button (which is under them).
  const edit = await page.getByRole('button', { name: `Edit message "${longMessage}"` }).boundingBox();
  const up = await page.getByRole('button', { name: `Move "${longMessage}" up` }).boundingBox();
  expect(edit!.x + edit!.width <= up!.x || edit!.y + edit!.height <= up!.y).toBe(true);
});

test('a long category name of ones own shows whole on a phone, wrapped under its buttons’ row, not cut', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  const name = 'Evenings after a long day at work, before sleep';
  await page.getByLabel('New category of your own').fill(name);
  await page.getByRole('button', { name: 'Add the category' }).click();
  const shown = page.getByText(name, { exact: true });
  await expect(shown).toBeVisible();
  // Every character is drawn: nothing of it runs past its box, to be hidden under an ellipsis.
  expect(await shown.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('a long message of ones own shows whole while it is edited, wrapped at the field’s width, on a phone and a desk', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  // The longest a message can be (200 characters), with a word longer than the field is wide.
  const longMessage = `I meet the day calm, and ${'unhurried'.repeat(8)}, and I let each breath carry me forward into a quiet, soft and gentle evening, grateful for all of it.`;
  expect(longMessage).toHaveLength(200);
  await page.getByLabel('New category of your own').fill('Long');
  await page.getByRole('button', { name: 'Add the category' }).click();
  await page.getByLabel('New message in Long').fill(longMessage);
  await page.getByRole('button', { name: 'Add the message to Long' }).click();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.getByRole('button', { name: `Edit message "${longMessage}"` }).click();
    const field = page.getByRole('textbox', { name: `message "${longMessage}"` });
    await expect(field).toHaveValue(longMessage);
    // Every character inside the field's box: nothing scrolled out of it sideways or below.
    const [scrollWidth, clientWidth, scrollHeight, clientHeight] = await field.evaluate((node) => [
      node.scrollWidth,
      node.clientWidth,
      node.scrollHeight,
      node.clientHeight,
    ]);
    expect(scrollWidth, `${width}: the text's width`).toBeLessThanOrEqual(clientWidth);
    expect(scrollHeight, `${width}: the text's height`).toBeLessThanOrEqual(clientHeight);
    expect(clientHeight, `${width}: more than one line`).toBeGreaterThan(48);
    // A one-line text still: Enter saves it, here unchanged, and the page shows it again.
    await page.keyboard.press('Enter');
    await expect(field).toHaveCount(0);
  }
});

test('in a narrow list a long message of ones own keeps the row’s width, its buttons going under it', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  const long =
    'I welcome every new opportunity with an open heart, a calm and steady mind, and the quiet confidence that I am ready for whatever today brings.';
  const short = 'I am calm.';
  await page.getByLabel('New category of your own').fill('Days');
  await page.getByRole('button', { name: 'Add the category' }).click();
  for (const text of [long, short]) {
    await page.getByLabel('New message in Days').fill(text);
    await page.getByRole('button', { name: 'Add the message to Days' }).click();
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  }
  const rowOf = (text: string) =>
    page
      .getByRole('listitem')
      .filter({ has: page.getByText(text, { exact: true }) })
      .last();
  // A phone, and a small laptop, whose two columns leave the list as narrow: the text was squeezed
  // beside four buttons into a column of a word or two a line.
  for (const width of [390, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    const row = (await rowOf(long).boundingBox())!;
    const text = (await page.getByText(long, { exact: true }).boundingBox())!;
    expect(text.width, `at ${width} px`).toBeGreaterThan(0.7 * row.width);
    const up = (await page.getByRole('button', { name: `Move "${long}" up` }).boundingBox())!;
    expect(up.y, `at ${width} px`).toBeGreaterThanOrEqual(text.y + text.height);
    // A short one still sits on one line with its buttons.
    const shortText = (await page.getByText(short, { exact: true }).boundingBox())!;
    const remove = (await page.getByRole('button', { name: `Delete the message "${short}"` }).boundingBox())!;
    expect(
      Math.abs(shortText.y + shortText.height / 2 - (remove.y + remove.height / 2)),
      `at ${width} px`,
    ).toBeLessThan(4);
  }
});

test('a long message at the largest size is made smaller to stay wholly on a phone’s screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  const longMessage =
    'I meet every part of this long and winding day with patience, with kindness toward the people around me, and with a calm that stays with me until I rest tonight.';
  await page.getByLabel('New category of your own').fill('Long');
  await page.getByRole('button', { name: 'Add the category' }).click();
  await page.getByLabel('New message in Long').fill(longMessage);
  await page.getByRole('button', { name: 'Add the message to Long' }).click();
  await page.getByRole('button', { name: 'Add Long to playlist' }).click();
  const fontSize = page.getByLabel(/Font size/);
  await fontSize.focus();
  await page.keyboard.press('End');
  await expect(fontSize).toHaveValue('70');
  // Shown long enough to be measured on a slow machine.
  await page.getByLabel('Flash speed (ms)').fill('3000');
  await page.getByLabel('Display interval (ms)').fill('1000');
  await page.getByLabel('Display interval (ms)').blur();

  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'I understand, start' }).click();
  // Measured in the page, in one go, on a message that is there and placed: on a slow machine the one
  // Playwright saw can be gone by the time it is asked about.
  const shown = await (
    await page.waitForFunction(() => {
      const message = document.querySelector('[data-testid="flash-message"]');
      if (!message || getComputedStyle(message).visibility !== 'visible') return null;
      const box = message.getBoundingClientRect();
      return {
        top: box.top,
        bottom: box.bottom,
        right: box.right,
        fontPx: parseFloat(getComputedStyle(message).fontSize),
      };
    })
  ).jsonValue();
  if (!shown) throw new Error('no message was measured');
  expect(shown.top).toBeGreaterThanOrEqual(0);
  expect(shown.bottom).toBeLessThanOrEqual(844);
  expect(shown.right).toBeLessThanOrEqual(390);
  expect(shown.fontPx).toBeLessThan(70);
});

test('a category name one has already, in another case, is refused with the name one has', async ({ page }) => {
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  await page.getByLabel('New category of your own').fill('BobCat');
  await page.getByRole('button', { name: 'Add the category' }).click();
  await expect(page.getByLabel('New message in BobCat')).toBeVisible();
  await page.getByLabel('New category of your own').fill('  bobcat ');
  await page.getByRole('button', { name: 'Add the category' }).click();
  await expect(page.getByText('You already have a category named “\u2068BobCat\u2069”.')).toBeVisible();
  await expect(page.getByLabel('New category of your own')).toHaveValue('  bobcat ');
  await expect(page.getByLabel('New message in bobcat', { exact: true })).toHaveCount(0);
  const shots = process.env.E2E_SCREENSHOTS;
  if (shots)
    for (const width of [390, 1280])
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 844 });
        await page.emulateMedia({ colorScheme });
        await page.getByRole('button', { name: 'Add the category' }).click();
        await expect(page.getByText('You already have a category named “\u2068BobCat\u2069”.').last()).toBeVisible();
        await page.screenshot({ path: `${shots}/own-category-taken-${width}-${colorScheme}.png` });
      }
});

test('messages written by keyboard alone: the field keeps the keyboard after each one, and an edit gives it back to its button', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  // A category, then three messages, each typed and Entered where the last one left the keyboard.
  await page.getByLabel('New category of your own').focus();
  await page.keyboard.type('Keys');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('New message in Keys')).toBeVisible();
  await expect(page.getByLabel('New category of your own')).toBeFocused();
  await page.getByLabel('New message in Keys').focus();
  for (const text of ['I am steady.', 'I am patient.', 'I am here.']) {
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await expect(page.getByText(text, { exact: true })).toBeVisible();
    await expect(page.getByLabel('New message in Keys')).toBeFocused();
  }
  // Add, clicked, also leaves the keyboard in the field for the next one.
  await page.getByLabel('New message in Keys').fill('I am kind.');
  await page.getByRole('button', { name: 'Add the message to Keys' }).click();
  await expect(page.getByText('I am kind.', { exact: true })).toBeVisible();
  await expect(page.getByLabel('New message in Keys')).toBeFocused();

  // Edited and saved with Enter, then opened and closed with Escape from its Save button: the keyboard is back
  // on the message's edit button each time, not at the top of the page.
  const edit = page.getByRole('button', { name: 'Edit message "I am patient."' });
  await edit.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
  await page.keyboard.type(' Always');
  await page.keyboard.press('Enter');
  const edited = page.getByRole('button', { name: 'Edit message "I am patient. Always"' });
  await expect(edited).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
  await expect(edited).toBeFocused();
});

/**
 * A new member on /subliminals, reached by its link from Meditations (visited first, so that its page later shows at
 * once when its link is followed), once the empty player the page saves at first is in the account.
 */
async function onSubliminalsAfterMeditations(page: Page) {
  await signInAsNewUser(page);
  await page.goto('/music');
  await expect(page.getByRole('heading', { name: 'Meditation Music' })).toBeVisible();
  await page.getByRole('link', { name: 'Subliminals' }).first().click();
  const saved = page.getByRole('status').filter({ hasText: 'Saved to your account' });
  await expect(saved).toBeVisible(AFTER_PAGE_CODE);
  /** The player as the account holds it. */
  const held = () =>
    page.evaluate(async () => {
      const answer = await fetch('/api/user/player/', {
        headers: { Authorization: `Bearer ${localStorage.getItem('user.access')}` },
      });
      return (await answer.json()) as { playlist: unknown[]; updated_at: string | null };
    });
  await expect.poll(async () => (await held()).updated_at).not.toBeNull();
  return { playlist: page.getByRole('heading', { name: /Playlist/ }), saved, held };
}

test('a category added to the playlist just before a link or a reload stays in it, and in the account', async ({
  page,
}) => {
  const { playlist, saved, held } = await onSubliminalsAfterMeditations(page);
  const playerLength = async () => (await held()).playlist.length;

  // Added, then a link followed at once (within the moment the player waits before saving): both in one call, as
  // Playwright's own clicks can take longer than that moment on a busy machine.
  const added = await page.evaluate(async () => {
    document.querySelector<HTMLButtonElement>('button[aria-label^="Add "][aria-label$=" to playlist"]')!.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
    document.querySelector<HTMLAnchorElement>('nav a[href="/music"]')!.click();
    return (JSON.parse(localStorage.getItem('innerwave.subliminals.playlist') ?? '[]') as unknown[]).length;
  });
  expect(added).toBeGreaterThan(0);
  await expect(page).toHaveURL(/\/music$/);
  await expect.poll(playerLength).toBe(added);
  await page.getByRole('link', { name: 'Subliminals' }).first().click();
  await expect(saved).toBeVisible(AFTER_PAGE_CODE);
  await expect(playlist).toContainText(`(${added})`);

  // Added again, then the page reloaded at once.
  await page
    .getByRole('button', { name: /^Add .+ to playlist$/ })
    .nth(1)
    .click();
  await expect(playlist).not.toContainText(`(${added})`);
  const twice = Number(/\((\d+)\)/.exec((await playlist.textContent()) ?? '')?.[1]);
  await page.reload();
  await expect(saved).toBeVisible({ timeout: 10_000 });
  await expect(playlist).toContainText(`(${twice})`);
  await expect.poll(playerLength).toBe(twice);
});

test('a change sent as the player is left, while an older save is slow to answer, is the one the account keeps', async ({
  page,
}) => {
  const { playlist, saved, held } = await onSubliminalsAfterMeditations(page);
  // The next save reaches the server 3 s late; every later one at once.
  let slowed: Promise<void> | undefined;
  await page.route('**/api/user/player/', async (route) => {
    if (route.request().method() === 'PUT' && !slowed) {
      slowed = new Promise((resolve) => setTimeout(resolve, 3000));
      await slowed;
    }
    await route.continue();
  });
  const slowSave = page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith('/player/'));
  await page
    .getByRole('button', { name: /^Add .+ to playlist$/ })
    .first()
    .click();
  const older = await slowSave;
  const olderAnswer = page.waitForResponse((response) => response.request() === older, { timeout: 20_000 });
  // While it is on its way: another category added, and a link followed at once, so the newer playlist is sent then.
  const added = await page.evaluate(async () => {
    document.querySelectorAll<HTMLButtonElement>('button[aria-label^="Add "][aria-label$=" to playlist"]')[1]!.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
    document.querySelector<HTMLAnchorElement>('nav a[href="/music"]')!.click();
    return (JSON.parse(localStorage.getItem('innerwave.subliminals.playlist') ?? '[]') as unknown[]).length;
  });
  await expect(page).toHaveURL(/\/music$/);
  expect((older.postDataJSON() as { playlist: unknown[] }).playlist.length).toBeLessThan(added);
  await olderAnswer;
  expect((await held()).playlist).toHaveLength(added);
  await page.getByRole('link', { name: 'Subliminals' }).first().click();
  await expect(saved).toBeVisible(AFTER_PAGE_CODE);
  await expect(playlist).toContainText(`(${added})`);
});

test('a category added to a long playlist shows there: unfolded, its first message in the playlist’s view, the page unmoved', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  const playlist = page.getByRole('region', { name: /Playlist/ });
  const count = async () => Number(/\((\d+)\)/.exec((await playlist.getByRole('heading').textContent()) ?? '')?.[1]);
  const adds = page.getByRole('button', { name: /^Add .+ to playlist$/ });
  // Library categories until the playlist is longer than the 50 rows it shows folded.
  let next = 0;
  while ((await count()) <= 50) {
    const before = await count();
    await adds.nth(next++).click();
    await expect.poll(count).toBeGreaterThan(before);
  }
  const before = await count();
  // Unfolded as they were added; folded again on the next visit.
  await page.reload();
  await expect(playlist.getByRole('button', { name: `Show the other ${before - 50} messages` })).toBeVisible();
  // The page a little down, as a person scrolling the categories has it, once the account's answer is in: the page
  // as it stays. The router has restored its place in the render that showed it (history.scrollRestoration is
  // manual), so there is no browser's restoring to wait for.
  await expect(page.getByText('Saved to your account')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 40));
  const scrolled = await page.evaluate(() => window.scrollY);

  // Pressed where it is (Playwright's click would scroll it into view first).
  await adds.nth(next).evaluate((button: HTMLButtonElement) => button.click());
  await expect.poll(count).toBeGreaterThan(before);
  const first = playlist.locator('ol > li').nth(before);
  await expect(first).toBeVisible();
  await expect(playlist.getByRole('button', { name: /^Show the other/ })).toHaveCount(0);
  // In the playlist's box, which scrolled to it; the page stays where the person had it.
  const { row, box } = await first.evaluate((element) => ({
    row: element.getBoundingClientRect().toJSON() as DOMRect,
    box: element.closest('ol')!.parentElement!.getBoundingClientRect().toJSON() as DOMRect,
  }));
  expect(row.top).toBeGreaterThanOrEqual(box.top);
  expect(row.bottom).toBeLessThanOrEqual(box.bottom);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
});

test('a message being written when the session ends is back once its person is signed in again', async ({
  page,
  browser,
}) => {
  const account = await signInAsNewUser(page);
  await page.goto('/subliminals');
  await page.getByLabel('New category of your own').fill('Evening');
  await page.getByRole('button', { name: 'Add the category' }).click();
  await page.getByLabel('New message in Evening').fill('I let the day go.');
  await page.getByRole('button', { name: 'Add the message to Evening' }).click();
  await page.getByRole('button', { name: 'Edit message "I let the day go."' }).click();
  const edit = page.getByRole('textbox', { name: 'message "I let the day go."' });
  await edit.pressSequentially(' I rest now.');
  await page.getByLabel('New message in Evening').fill('I wake up rested.');

  // Signed out from another browser: the next call this one makes ends its session, on the way to login.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, account);
  await otherPage.goto('/profile');
  await otherPage.getByRole('button', { name: 'Sign out everywhere else' }).click();
  const dialog = otherPage.getByRole('dialog', { name: 'Sign out everywhere else?' });
  await dialog.getByLabel('Current password').fill(account.password);
  await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(otherPage.getByText(/^Signed out 1 other session/)).toBeVisible(AFTER_HASHING);
  await other.close();

  await page.reload();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsubliminals$/, { timeout: 15_000 });
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/subliminals$/, AFTER_HASHING);

  // The page's first screen after a login (the session, the lists): slow on a loaded machine.
  await expect(edit).toHaveValue('I let the day go. I rest now.', { timeout: 20_000 });
  await expect(page.getByLabel('New message in Evening')).toHaveValue('I wake up rested.', AFTER_APP_START);
  await expect(page.getByText('What you wrote before is back. It has not been sent yet.')).toHaveCount(2);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('I let the day go. I rest now.', { exact: true })).toBeVisible();
  await expect(page.getByText('What you wrote before is back. It has not been sent yet.')).toHaveCount(1);
  // Saved: a reload gives back only what is still unsent.
  await page.reload();
  await expect(page.getByLabel('New message in Evening')).toHaveValue('I wake up rested.');
  await expect(page.getByText('What you wrote before is back. It has not been sent yet.')).toHaveCount(1);
});

// Decision 088: each tab keeps its drafts in its own storage; a logout in another tab takes them, an expiry does not.
test('a message being written in one tab stays through an expiry, and goes when its person logs out in another tab', async ({
  page,
}) => {
  // A sign-up and two logins, each hashing a password: past two minutes on a loaded machine.
  test.setTimeout(180_000);
  const account = await signInAsNewUser(page);
  const drafts = () => page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('draft.')));
  const logInHere = async () => {
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsubliminals$/, { timeout: 15_000 });
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/subliminals$/, AFTER_HASHING);
  };
  await page.goto('/subliminals');
  await page.getByLabel('New category of your own').fill('Evening');
  await page.getByRole('button', { name: 'Add the category' }).click();
  const field = page.getByLabel('New message in Evening');
  await field.fill('I wake up rested.');
  await expect.poll(drafts).toHaveLength(1);

  // The session expires (the server refuses its tokens) in the other tab: this one is sent to log in, and keeps it.
  const other = await page.context().newPage();
  await other.goto('/subliminals');
  await other.evaluate(() => {
    localStorage.setItem('user.access', 'not-a-token');
    localStorage.setItem('user.refresh', 'not-a-token');
  });
  await other.reload();
  await expect(other).toHaveURL(/\/login/, { timeout: 15_000 });
  await logInHere();
  await expect(field).toHaveValue('I wake up rested.', { timeout: 20_000 });
  await expect(page.getByText('What you wrote before is back. It has not been sent yet.')).toBeVisible();

  // The person logs out in the other tab: what they typed here goes too, and is not given back at the next login.
  await other.goto('/logout');
  await expect(other).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect.poll(drafts).toEqual([]);
  await logInHere();
  await expect(page.getByRole('button', { name: 'Add the message to Evening' })).toBeVisible({ timeout: 20_000 });
  await expect(field).toHaveValue('');
  await expect(page.getByText('What you wrote before is back. It has not been sent yet.')).toHaveCount(0);
});
