import { expect, test } from './support/test';
import { AFTER_HASHING, signIn, signInAsNewUser } from './support/accounts';
import { putInCorner, startFlashing } from './support/flashing';

// Issue 18 end to end: a new person picks Sleep → the hub suggests the sleep program → day 1 starts
// a session on the sound engine → stopping it records the session → "Your practice" shows it.

// Signing up, the seeded programs and the first audio start: more than 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

/** The mini-player's clock of a program's day once two seconds of it have been heard ("0:02 · 9:58 left"). */
const TWO_SECONDS_HEARD = /^0:(0[2-9]|[1-5]\d) · .+ left$/;

test('a new person picks Sleep, starts the suggested program, and finds the stopped session in their practice', async ({
  page,
}) => {
  await signInAsNewUser(page);

  // The invitation sits above the page after the first login; it covers nothing.
  const invitation = page.getByRole('region', { name: 'Getting started' });
  await invitation.getByRole('link', { name: 'Set up your practice' }).click({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your practice' })).toBeVisible();

  await page.getByRole('button', { name: 'Sleep' }).click();
  await expect(page.getByRole('button', { name: 'Sleep' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Yes, usually' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: '10 minutes' }).click();
  await page.getByRole('button', { name: 'Save' }).click();

  // The hub suggests the program that serves the chosen goal.
  await expect(page).toHaveURL(/\/portal\/home\/$/);
  const suggestion = page.getByTestId('suggested-program');
  await expect(suggestion).toContainText('Because you chose Sleep');
  await expect(suggestion.getByRole('heading', { name: 'Seven Nights of Rest' })).toBeVisible();
  await expect(invitation).toHaveCount(0);
  // Basic sees what recommendations are and the way to them, not an empty box.
  await expect(page.getByRole('button', { name: /See recommendations.*Pro/ })).toBeVisible();
  await suggestion.getByRole('link', { name: /Seven Nights of Rest/ }).click();

  await expect(page).toHaveURL(/\/programs\/seven-nights-of-rest$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Seven Nights of Rest' })).toBeVisible();
  await expect(page.getByText('Not started')).toBeVisible();
  await page.getByRole('button', { name: 'Start day 1' }).click();

  // The day plays on the one sound engine: the mini-player shows it, with the day's own length.
  const player = page.getByRole('region', { name: 'Now playing' });
  await expect(player).toBeVisible({ timeout: 30_000 });
  await expect(player.getByTestId('mini-player-time')).toHaveText(/left$/, { timeout: 30_000 });
  await expect(page.getByRole('figure')).toContainText('Message 1 of');
  // Started as it plays, before its first record reaches the server.
  await expect(page.getByText('Started · 0 of 7 days done')).toBeVisible();
  // A couple of seconds of listening, by the clock the history credits, then Stop: a wall-clock wait can fall short
  // when a busy machine starts or runs the sound late, and a session under a second is not recorded at all.
  await expect(player.getByTestId('mini-player-time')).toHaveText(TWO_SECONDS_HEARD, { timeout: 30_000 });
  const recorded = page.waitForResponse(
    (response) => response.url().endsWith('/api/user/history/') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Stop' }).first().click();
  expect((await recorded).ok()).toBe(true);
  await expect(player).toHaveCount(0);
  // Stopped early, the day is not done, and the program stays started: the server recorded its session.
  await expect(page.getByRole('button', { name: 'Start day 1' })).toBeVisible();
  await expect(page.getByText('Started · 0 of 7 days done')).toBeVisible();

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Your practice' }).click();
  await expect(page).toHaveURL(/\/practice$/);
  const sessions = page.getByRole('region', { name: 'Last sessions' });
  await expect(sessions.getByRole('link', { name: 'Seven Nights of Rest · Day 1' })).toBeVisible();
  await expect(sessions).toContainText('stopped');

  // The history can be deleted, after a confirmation.
  await sessions.getByRole('button', { name: 'Delete history' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete history' }).click();
  await expect(sessions).toContainText('Nothing yet.');
});

test('a session under way when the tab closes is recorded as stopped', async ({ page, request }) => {
  await signInAsNewUser(page);
  await page.goto('/programs/seven-nights-of-rest');
  await page.getByRole('button', { name: 'Start day 1' }).click();
  const player = page.getByRole('region', { name: 'Now playing' });
  await expect(player).toBeVisible({ timeout: 30_000 });
  // Two seconds heard, by the clock the history credits (as above).
  await expect(player.getByTestId('mini-player-time')).toHaveText(TWO_SECONDS_HEARD, { timeout: 30_000 });
  const access = await page.evaluate(() => localStorage.getItem('user.access'));
  // Closed as a person closes a tab (the page's unload runs).
  await page.close({ runBeforeUnload: true });

  let entries: { title: string; finished: boolean; seconds: number }[] = [];
  await expect
    .poll(async () => {
      const history = await request.get('/api/user/history/', { headers: { authorization: `Bearer ${access}` } });
      entries = history.ok() ? await history.json() : [];
      return entries.length;
    })
    .toBe(1);
  expect(entries).toEqual([expect.objectContaining({ title: 'Seven Nights of Rest · Day 1', finished: false })]);
  expect(entries[0]!.seconds).toBeGreaterThanOrEqual(2);
});

// Messages flashed with no sound are a session too (screens.md#your-practice).
test('a flashing session with no sound is recorded, named by its category, and shows in the practice', async ({
  page,
}) => {
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  const screen = await startFlashing(page);
  await expect(screen.getByTestId('session-time')).toHaveText(/^0:0[3-9] so far/, { timeout: 20_000 });
  const recorded = page.waitForResponse(
    (response) => response.url().endsWith('/api/user/history/') && response.request().method() === 'POST',
  );
  await screen.getByRole('button', { name: 'Stop' }).click();
  const response = await recorded;
  expect(response.status()).toBe(201);
  const entry = await response.json();
  expect(entry).toMatchObject({
    kind: 'subliminal',
    title: 'Confidence',
    ref: expect.stringMatching(/^category:\d+$/),
  });
  expect(entry.seconds).toBeGreaterThanOrEqual(3);

  await page.goto('/practice');
  const sessions = page.getByRole('region', { name: 'Last sessions' });
  await expect(sessions.getByText('Confidence')).toBeVisible();
  await expect(page.getByText('No sessions in the last seven days.', { exact: false })).toHaveCount(0);
});

// Signed out from another browser while a session flashes here (decision 046): its record, refused for
// the revoked token, waits in this browser and is recorded once the person signs in here again.
test('messages flashing in a browser signed out from another are recorded once the person signs in there again', async ({
  browser,
}) => {
  // The browser signed out waits for its next token refresh (every 30 s) on a machine busy flashing.
  test.setTimeout(240_000);
  const flashingContext = await browser.newContext();
  const flashing = await flashingContext.newPage();
  const account = await signInAsNewUser(flashing);
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, account);
  await other.goto('/profile');
  await expect(other.getByText(/Also signed in on 1 other device or browser, since/)).toBeVisible();

  await flashing.goto('/subliminals');
  const screen = await startFlashing(flashing);
  await putInCorner(screen);
  await expect(screen.getByTestId('session-time')).toHaveText(/^0:(0[5-9]|[1-5]\d) so far/, { timeout: 20_000 });

  await other.getByRole('button', { name: 'Sign out everywhere else' }).click();
  const dialog = other.getByRole('dialog', { name: 'Sign out everywhere else?' });
  await dialog.getByLabel('Current password').fill(account.password);
  await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(other.getByText('Signed out 1 other session. You are still signed in here.')).toBeVisible(AFTER_HASHING);

  // The flashing browser learns of it at its next token refresh, and goes to login.
  await expect(flashing).toHaveURL(/\/login/, { timeout: 45_000 });
  const access = await other.evaluate(() => localStorage.getItem('user.access'));
  const history = async () => {
    const answer = await other.request.get('/api/user/history/', { headers: { authorization: `Bearer ${access}` } });
    return (await answer.json()) as { kind: string; title: string; seconds: number }[];
  };
  // Its record was refused with the revoked token.
  expect(await history()).toEqual([]);

  // Signs in again on the login page it was sent to, and is taken back to where it was.
  await flashing.getByLabel('Email').fill(account.email);
  await flashing.getByLabel('Password', { exact: true }).fill(account.password);
  await flashing.getByRole('button', { name: 'Log in' }).click();
  await expect(flashing).toHaveURL(/\/subliminals$/, AFTER_HASHING);
  await flashing.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Your practice' }).click();
  await expect(flashing.getByRole('region', { name: 'Last sessions' }).getByText('Confidence')).toBeVisible(
    AFTER_HASHING,
  );
  const entries = await history();
  expect(entries).toEqual([expect.objectContaining({ kind: 'subliminal', title: 'Confidence' })]);
  expect(entries[0]!.seconds).toBeGreaterThanOrEqual(5);
  // Once: another start of the app in that browser sends nothing again.
  await flashing.reload();
  await expect(flashing.getByRole('region', { name: 'Last sessions' }).getByText('Confidence')).toBeVisible(
    AFTER_HASHING,
  );
  expect(await history()).toHaveLength(1);
  await flashingContext.close();
  await otherContext.close();
});

test('the invitation above a page is as wide as the page under it, its edges on the page’s', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsNewUser(page);
  const invitation = page.getByRole('region', { name: 'Getting started' });
  // The subliminals' wide page, then narrower ones (Applications, Profile and Support each hold a width of their own).
  for (const [path, heading] of [
    ['/subliminals', 'Subliminals'],
    ['/applications', 'Desktop applications'],
    ['/profile', 'Profile'],
    ['/support', 'Support'],
  ] as const) {
    await page.goto(path);
    const title = page.getByRole('heading', { level: 1, name: heading });
    await expect(title).toBeVisible({ timeout: 20_000 });
    await expect(invitation).toBeVisible({ timeout: 20_000 });
    // The page's column is its heading's parent: the element that holds the page's width.
    const edges = async () => {
      const note = await invitation.boundingBox();
      const column = await title.locator('xpath=..').boundingBox();
      return note && column
        ? { left: Math.round(note.x - column.x), right: Math.round(note.x + note.width - column.x - column.width) }
        : null;
    };
    await expect.poll(edges, { message: `the invitation's edges against ${path}'s column` }).toEqual({
      left: 0,
      right: 0,
    });
  }
});

test('a list’s "Try again" never pressed, the keyboard resting on it, gives its first program the keyboard when the list reads itself back online', async ({
  context,
  page,
}) => {
  await signInAsNewUser(page);
  await page.route('**/api/user/programs/', (route) => route.fulfill({ status: 500, json: { detail: 'Server down' } }));
  await page.goto('/programs');
  const message = page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Try again' }) });
  const tryAgain = message.getByRole('button', { name: 'Try again' });
  await expect(message).toContainText('Could not load this list');
  await page.unroute('**/api/user/programs/');

  // Tabbed to, not pressed; the connection drops and comes back, and TanStack Query reads the list by itself (decision 131).
  await tryAgain.focus();
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(page.getByRole('link', { name: /Seven Nights of Rest/ })).toBeFocused();
  await expect(message).toHaveCount(0);
});

test('a list’s "Try again" pressed offline says so at once, and back online reads the list and gives its first program the keyboard', async ({
  context,
  page,
}) => {
  await signInAsNewUser(page);
  await page.route('**/api/user/programs/', (route) => route.fulfill({ status: 500, json: { detail: 'Server down' } }));
  await page.goto('/programs');
  const message = page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Try again' }) });
  const tryAgain = message.getByRole('button', { name: 'Try again' });
  await expect(message).toContainText('Could not load this list');
  await page.unroute('**/api/user/programs/');

  await context.setOffline(true);
  await tryAgain.focus();
  await page.keyboard.press('Enter');
  await expect(message).toHaveText('You seem to be offline. This loads by itself once you are back online.Try again');
  await expect(tryAgain).toHaveAttribute('aria-disabled', 'true');
  await expect(tryAgain).toBeFocused();

  await context.setOffline(false);
  await expect(page.getByRole('link', { name: /Seven Nights of Rest/ })).toBeFocused();
  await expect(message).toHaveCount(0);
});
