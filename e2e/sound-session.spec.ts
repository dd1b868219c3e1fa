import { randomBytes, randomInt } from 'node:crypto';
import { expect, test, type Locator, type Page } from './support/test';
import { AFTER_PAGE_CODE } from './support/hydration';
import { toneWav } from './audio-analysis';
import { createActiveUser, setPlanAsStaff, signIn, signInAsNewUser } from './support/accounts';
import { addLibraryTrack, removeLibraryTrack, untilShown } from './support/content';
import { putInCorner, startFlashing } from './support/flashing';

type Watched = { audioContexts: AudioContext[]; __innerwaveTimeScale: number };

// Signing up, waiting for the seeded library, decoding a track and a timer: more than 30 s when busy.
test.describe.configure({ timeout: 120_000 });

/** The test hook: sleep timers last 1/600 of their time (15 min → 1.5 s, a 10-minute fade → 1 s). */
async function shortenTime(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as Watched).__innerwaveTimeScale = 1 / 600;
    const contexts: AudioContext[] = [];
    (window as unknown as Watched).audioContexts = contexts;
    const Original = window.AudioContext;
    window.AudioContext = class extends Original {
      constructor(options?: AudioContextOptions) {
        super(options);
        contexts.push(this);
      }
    };
  });
}

/** How far the page's audio clock moves in 300 ms (0 when suspended or absent). */
const audioAdvance = (page: Page) =>
  page.evaluate(async () => {
    const [context] = (window as unknown as Watched).audioContexts;
    if (!context) return 0;
    const before = context.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return context.state === 'running' ? context.currentTime - before : 0;
  });

test('a track follows the person through the portal in the mini-player, and a sleep timer fades it out and stops it', async ({
  page,
}) => {
  await shortenTime(page);
  await signInAsNewUser(page);
  await page.goto('/music');
  const play = page.getByRole('button', { name: /^Play 528 Hz/ });
  await untilShown(page, play);
  await play.click();
  const card = page.getByTestId('audio-item').filter({ hasText: '528 Hz' });
  await expect(card).toHaveAttribute('data-state', 'playing', { timeout: 20_000 });
  await expect(card.getByRole('slider', { name: 'Seek 528 Hz' })).toBeVisible();

  const player = page.getByRole('region', { name: 'Now playing' });
  await expect(player.getByRole('link')).toHaveText(/^528 Hz/);
  await expect(player.getByTestId('mini-player-time')).toHaveText(/^0:0\d · looping$/);

  // Away from /music the sound plays on, and the mini-player says so.
  const nav = page.getByRole('navigation', { name: 'Portal' });
  await nav.getByRole('link', { name: 'Subliminals' }).click();
  await expect(page).toHaveURL(/\/subliminals/);
  await expect(player.getByRole('link')).toHaveText(/^528 Hz/);
  expect(await audioAdvance(page)).toBeGreaterThan(0.1);
  await nav.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile/);
  expect(await audioAdvance(page)).toBeGreaterThan(0.1);

  // Pause holds everything (the audio clock stops), Resume goes on.
  await player.getByRole('button', { name: 'Pause' }).click();
  await expect(player.getByTestId('mini-player-time')).toHaveText(/^Paused · /);
  await expect.poll(() => audioAdvance(page)).toBe(0);
  await player.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => audioAdvance(page)).toBeGreaterThan(0.1);

  // The volume moves by glides; the slider says where it is.
  await player.getByLabel('Master volume').fill('0.5');
  await expect(player.getByLabel('Master volume')).toHaveAttribute('aria-valuetext', '50%');

  // A 15-minute timer with a 10-minute fade, at 1/600: the fade begins after 0.5 s, silence at 1.5 s.
  await nav.getByRole('link', { name: 'Meditations' }).click();
  await expect(card).toHaveAttribute('data-state', 'playing', AFTER_PAGE_CODE);
  await player.getByLabel('Fade-out').selectOption({ label: '10 min' });
  await player.getByLabel('Sleep timer').selectOption({ label: '15 min' });
  await expect(player.getByTestId('mini-player-time')).toHaveText(/^Fading out · \d+:\d\d left$/);
  await expect(player).toHaveCount(0, { timeout: 10_000 });
  await expect(card).toHaveAttribute('data-state', 'ended');
  await expect(card.getByText('Ended')).toBeVisible();
  await expect.poll(() => audioAdvance(page)).toBe(0);
});

/** The person goes to another tab and comes back to this one: the page is hidden, then shown again. */
const leaveTheTabAndComeBack = (page: Page) =>
  page.evaluate(() => {
    for (const state of ['hidden', 'visible'] as const) {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    }
  });

test('a library track staff remove stops in the mini-player on another portal page, the noise under it playing on', async ({
  page,
}) => {
  test.skip(!process.env.E2E_STAFF_EMAIL, 'Run through scripts/e2e.mjs, which creates the staff account.');
  // A track of its own (its own tone, so its own file), which no other test plays.
  const name = `Evening bell ${randomBytes(3).toString('hex')}`;
  const id = await addLibraryTrack(page.request, 'custom', name, toneWav(2, 8000, randomInt(200, 800)));
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'intermediate');
  await shortenTime(page);
  // The page's clock, so the lists read on /music can be made older than the 30 s they count as fresh.
  await page.clock.install();
  await signIn(page, account);
  await page.goto('/music');
  const play = page.getByRole('button', { name: `Play ${name}` });
  await untilShown(page, play);
  await play.click();
  const card = page.getByTestId('audio-item').filter({ hasText: name });
  await expect(card).toHaveAttribute('data-state', 'playing', { timeout: 20_000 });
  await page.getByRole('group', { name: 'Noise colour' }).getByRole('button', { name: 'Brown' }).click();
  const player = page.getByRole('region', { name: 'Now playing' });
  await expect(player.getByRole('link')).toHaveText(`${name} + Brown noise`);

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile/);
  await removeLibraryTrack(page.request, 'custom', id);
  // Still playing: nothing has asked for the list yet.
  await expect(player.getByRole('link')).toHaveText(`${name} + Brown noise`);

  await page.clock.fastForward('00:31');
  await leaveTheTabAndComeBack(page);
  await expect(page.getByText(`\u2068${name}\u2069 stopped: it is no longer in the library.`)).toHaveCount(1);
  await expect(player.getByRole('link')).toHaveText('Brown noise');
  expect(await audioAdvance(page)).toBeGreaterThan(0.1);
});

test('a track that cannot be fetched says so and goes back to idle, never "Ended"', async ({ page }) => {
  await signInAsNewUser(page);
  await page.goto('/music');
  const play = page.getByRole('button', { name: /^Play 174 Hz/ });
  await untilShown(page, play);
  // The connection drops as the file is asked for.
  await page.route('**/media/**', (route) => route.abort('internetdisconnected'));
  await play.click();
  await expect(page.getByText('Failed to play audio')).toBeVisible();
  // The tone's card (a custom track's description names 174 Hz too).
  const card = page.getByTestId('audio-item').filter({ hasText: '174 Hz' }).first();
  await expect(card).toHaveAttribute('data-state', 'idle');
  await expect(card.getByText('Ended')).toHaveCount(0);
});

// Practice history credits each sound with the time it played (docs/decisions/036-a-session-is-what-plays.md).
test('a track played in place of another is a session of its own in the history, each with the time it played', async ({
  page,
  request,
}) => {
  await signInAsNewUser(page);
  await page.goto('/music');
  const first = page.getByRole('button', { name: /^Play 528 Hz/ });
  await untilShown(page, first);
  await first.click();
  const player = page.getByRole('region', { name: 'Now playing' });
  await expect(player.getByTestId('mini-player-time')).toHaveText(/^0:0[3-9] · looping$/, { timeout: 20_000 });
  // One sound at a time (Basic): 432 Hz takes the place of 528 Hz, and the engine plays on.
  await page.getByRole('button', { name: /^Play 432 Hz/ }).click();
  await expect(player.getByRole('link')).toHaveText(/^432 Hz/);
  // Credited from when it is heard: its loading (over a second on a busy machine) is not listening.
  // The mini-player's clock starts again with it, as its entry in the history does.
  await expect(player.getByTestId('mini-player-time')).toHaveText(/^0:0[0-2] · looping$/, { timeout: 20_000 });
  // Two seconds of it heard, by the clock the history credits: a wall-clock wait falls short when the machine is
  // busy and the sound starts or runs late.
  await expect(player.getByTestId('mini-player-time')).toHaveText(/^0:0[2-9] · looping$/, { timeout: 20_000 });
  const recorded = page.waitForResponse(
    (response) => response.url().endsWith('/api/user/history/') && response.request().method() === 'POST',
  );
  await player.getByRole('button', { name: 'Stop' }).click();
  expect((await recorded).ok()).toBe(true);

  const access = await page.evaluate(() => localStorage.getItem('user.access'));
  let entries: { title: string; seconds: number; finished: boolean }[] = [];
  await expect
    .poll(async () => {
      const history = await request.get('/api/user/history/', { headers: { authorization: `Bearer ${access}` } });
      entries = history.ok() ? await history.json() : [];
      return entries.map((entry) => entry.title);
    })
    .toEqual([expect.stringMatching(/^432 Hz/), expect.stringMatching(/^528 Hz/)]);
  const [second, earlier] = entries;
  expect(earlier!.seconds).toBeGreaterThanOrEqual(3);
  expect(second!.seconds).toBeGreaterThanOrEqual(2);
  expect(entries.every((entry) => !entry.finished)).toBe(true);
  // To the person it was one sitting (decision 038): one session, listed once (both were tries).
  const practice = await request.get('/api/user/practice/', { headers: { authorization: `Bearer ${access}` } });
  const summary = await practice.json();
  expect({ week: summary.week.sessions, total: summary.total_sessions }).toEqual({ week: 1, total: 1 });
  expect(summary.last_sessions).toHaveLength(1);
});

// A page may go without its pagehide (a phone drops a page it put away, a tab closed on a busy machine): what plays
// is sent so far when the page is hidden, and kept (docs/decisions/090-a-session-is-recorded-as-it-goes.md).
test('a track playing when the page is hidden is in the history though the page then dies without a word', async ({
  page,
  request,
}) => {
  await signInAsNewUser(page);
  await page.goto('/music');
  const play = page.getByRole('button', { name: /^Play 432 Hz/ });
  await untilShown(page, play);
  await play.click();
  const player = page.getByRole('region', { name: 'Now playing' });
  await expect(player.getByTestId('mini-player-time')).toHaveText(/^0:0[3-9] · looping$/, { timeout: 20_000 });
  // Well before the next minute's record (CHECKPOINT_MS), which would be sent hidden or not.
  const sofar = page.waitForResponse(
    (response) => response.url().endsWith('/api/user/history/') && response.request().method() === 'POST',
    { timeout: 30_000 },
  );
  // The page is hidden, as a phone's page put away is. Headless Chromium keeps every page visible, another tab in
  // front too, so the page is told as the browser would tell it.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const response = await sofar;
  expect(response.status()).toBe(201);
  const access = await page.evaluate(() => localStorage.getItem('user.access'));
  // The renderer is killed: no pagehide, no record at the end.
  const cdp = await page.context().newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  // Answered never: the page it would answer from is gone.
  void cdp.send('Page.crash').catch(() => undefined);
  await crashed;

  const history = await request.get('/api/user/history/', { headers: { authorization: `Bearer ${access}` } });
  const entries = (await history.json()) as { title: string; seconds: number; kind: string }[];
  expect(entries).toEqual([expect.objectContaining({ kind: 'music', title: expect.stringMatching(/^432 Hz/) })]);
  expect(entries[0]!.seconds).toBeGreaterThanOrEqual(3);
});

// One clock for a session (docs/decisions/036-a-session-is-what-plays.md): the session screen and the
// mini-player read the engine's, even when the sound began before the messages.
test('the subliminals session screen shows the time the mini-player shows, and pauses with it', async ({ page }) => {
  await signInAsNewUser(page);
  await page.goto('/music');
  const play = page.getByRole('button', { name: /^Play 528 Hz/ });
  await untilShown(page, play);
  await play.click();
  const player = page.getByRole('region', { name: 'Now playing' });
  const playerTime = player.getByTestId('mini-player-time');
  await expect(playerTime).toHaveText(/^0:0[3-9] · looping$/, { timeout: 20_000 });

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Subliminals' }).click();
  const screen = await startFlashing(page);
  await putInCorner(screen);
  const screenTime = screen.getByTestId('session-time');

  const clockOf = async (locator: Locator) => (await locator.textContent())?.match(/\d+:\d\d/)?.[0];
  // Both tick four times a second: read together, they agree (a second's edge may fall between reads).
  await expect.poll(async () => (await clockOf(screenTime)) === (await clockOf(playerTime))).toBe(true);
  expect(await clockOf(screenTime)).not.toBe('0:00');

  await player.getByRole('button', { name: 'Pause' }).click();
  await expect(screenTime).toHaveText(/^Paused · /);
  expect(await clockOf(screenTime)).toBe(await clockOf(playerTime));
  await screen.getByRole('button', { name: 'Resume' }).click();
  await expect(playerTime).toHaveText(/looping$/);
});

// Signing out records what plays first, while the person is still signed in (screens.md#your-practice).
test('signing out while a track plays records it, then logs out', async ({ page }) => {
  await signInAsNewUser(page);
  await page.goto('/music');
  const play = page.getByRole('button', { name: /^Play 432 Hz/ });
  await untilShown(page, play);
  await play.click();
  const player = page.getByRole('region', { name: 'Now playing' });
  await expect(player.getByTestId('mini-player-time')).toHaveText(/^0:0[3-9] · looping$/, { timeout: 20_000 });
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/(user\/history|logout)\//.test(request.url()))
      calls.push(new URL(request.url()).pathname);
  });
  const recorded = page.waitForResponse(
    (response) => response.url().endsWith('/api/user/history/') && response.request().method() === 'POST',
  );
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Sign Out' }).click();
  const response = await recorded;
  expect(response.status()).toBe(201);
  expect(await response.json()).toMatchObject({ kind: 'music', title: expect.stringMatching(/^432 Hz/) });
  expect((await response.json()).seconds).toBeGreaterThanOrEqual(3);
  await expect(page).toHaveURL(/\/login/);
  expect(calls[0]).toBe('/api/user/history/');
  expect(calls.at(-1)).toMatch(/logout/);
});
