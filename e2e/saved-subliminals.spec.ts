import { expect, test, type Page } from './support/test';
import {
  AFTER_HASHING,
  createActiveUser,
  linkOf,
  readLatestMail,
  setPlanAsStaff,
  sharedSubliminalPath,
  signIn,
  signInAsNewUser,
  strongPassword,
  uniqueEmail,
} from './support/accounts';
import { AFTER_APP_START } from './support/hydration';
import { expectToastShown, noteToasts } from './support/toasts';

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
  await page.getByRole('button', { name: 'Save the current playlist, settings and sound under this name' }).click();
  await expect(page.getByText(/18 messages · Forest/)).toBeVisible();

  await page.getByRole('button', { name: 'Share Steady mornings' }).click();
  await page.getByRole('button', { name: 'Create link' }).click();
  const link = await page.getByLabel('Share link').inputValue();
  expect(link).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);

  // A stranger, no account: sees the name and the messages, and is invited to sign up. The server
  // filled the page (docs/decisions/024-the-server-fills-the-share-page.md): it reads nothing itself,
  // and hydrates without a console error (a mismatch or a refused inline script would log one).
  const visitorContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const visitor = await visitorContext.newPage();
  const reads: string[] = [];
  const errors: string[] = [];
  visitor.on('request', (request) => void (request.url().includes('/api/shared/') && reads.push(request.url())));
  visitor.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  expect((await visitor.goto(new URL(link).pathname))?.status()).toBe(200);
  await expect(visitor.getByRole('heading', { name: 'Steady mornings' })).toBeVisible();
  await expect(visitor.getByText('Forest theme', { exact: false })).toBeVisible();
  await expect(visitor.getByRole('listitem').filter({ hasText: 'I trust my own judgement.' })).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Sign up free' })).toBeVisible();
  await visitor.waitForLoadState('networkidle');
  expect(errors).toEqual([]);

  // The owner opens the link too: signed in, the document paints it in the portal's chrome (the server
  // filled that frame too: docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md), and the app shows
  // it in the same place (to play or copy) from what the server put in the document, reading the link no
  // more than the stranger's page did.
  const ownerTab = await page.context().newPage();
  const ownerReads: string[] = [];
  ownerTab.on('request', (request) => void (request.url().includes('/api/shared/') && ownerReads.push(request.url())));
  await ownerTab.route('**/assets/*.js', (route) => route.abort());
  // Its scripts refused, the page never starts: the load alone is waited for (e2e/support/test.ts).
  await ownerTab.goto(new URL(link).pathname, { waitUntil: 'load' });
  const frame = ownerTab.locator('#portal-frame');
  await expect(frame.getByRole('heading', { level: 1, name: 'Steady mornings' })).toBeVisible();
  await expect(frame.getByText('Forest theme', { exact: false })).toBeVisible();
  await expect(frame.getByRole('navigation', { name: 'Portal' })).toBeVisible();
  await expect(ownerTab.locator('#root').getByRole('heading', { level: 1 })).toBeHidden();
  const framed = await frame.getByRole('heading', { level: 1 }).boundingBox();
  await ownerTab.unrouteAll();
  await ownerTab.goto(new URL(link).pathname);
  await expect(ownerTab.getByRole('button', { name: 'Play it now' })).toBeVisible();
  await expect(ownerTab.locator('#portal-frame')).toHaveCount(0);
  await expect(ownerTab.getByRole('heading', { name: 'Steady mornings' })).toBeVisible();
  expect(await ownerTab.getByRole('heading', { level: 1 }).boundingBox()).toEqual(framed);
  await ownerTab.waitForLoadState('networkidle');
  expect(ownerReads).toEqual([]);
  await ownerTab.close();

  // The owner stops sharing: the same link now says so, at once, with a 404 (which Chromium logs).
  await page.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(page.getByRole('button', { name: 'Create link' })).toBeVisible();
  expect((await visitor.reload())?.status()).toBe(404);
  await expect(visitor.getByRole('alert')).toContainText('This link does not work');
  await visitor.waitForLoadState('networkidle');
  expect(errors).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
  expect(reads).toEqual([]);
  await visitorContext.close();
});

test('a visitor who signs up from a share link is back on it after activating from the e-mail, on another device, and logging in', async ({
  page,
  browser,
}) => {
  // A member shares a saved subliminal (through the API: the sharing itself is the first test's).
  const sharePath = await sharedSubliminalPath(page.request, 'Evening harbour');

  // A stranger opens the link and signs up from it.
  const baseURL = test.info().project.use.baseURL;
  const laptop = await browser.newContext({ baseURL });
  const visitor = await laptop.newPage();
  await visitor.goto(sharePath);
  await visitor.getByRole('link', { name: 'Sign up free' }).click();
  await expect(visitor).toHaveURL(`/signup?redirect=${encodeURIComponent(sharePath)}`);
  const email = uniqueEmail('from-share');
  const password = strongPassword();
  await visitor.getByLabel('Email').fill(email);
  await visitor.getByLabel('Password', { exact: true }).fill(password);
  await visitor.getByLabel('Confirm password').fill(password);
  await visitor.getByRole('checkbox', { name: /at least 18/ }).check();
  await visitor.getByRole('button', { name: 'Sign up' }).click();
  await expect(visitor.getByText(`Your activation link went to ${email}.`, { exact: false })).toBeVisible(
    AFTER_HASHING,
  );
  await expect(visitor).toHaveURL(`/login?redirect=${encodeURIComponent(sharePath)}`);

  // The e-mail is opened on another device (no storage of the laptop's): its link carries the share page,
  // through activation and login, back to what was shared.
  const link = new URL(linkOf(await readLatestMail(email, 'Activate'), 'activation'));
  expect(link.searchParams.get('redirect')).toBe(sharePath);
  const phone = await browser.newContext({ baseURL });
  const reader = await phone.newPage();
  await noteToasts(reader);
  await reader.goto(link.pathname + link.search);
  await expectToastShown(reader, 'Account activated successfully');
  await expect(reader).toHaveURL(`/login?redirect=${encodeURIComponent(sharePath)}`);
  await reader.getByLabel('Email').fill(email);
  await reader.getByLabel('Password', { exact: true }).fill(password);
  await reader.getByRole('button', { name: 'Log in' }).click();
  await reader.waitForURL((url) => url.pathname === sharePath, AFTER_HASHING);
  await expect(reader.getByRole('heading', { level: 1, name: 'Evening harbour' })).toBeVisible();
  await expect(reader.getByRole('button', { name: 'Play it now' })).toBeVisible();
  await phone.close();
  await laptop.close();
});

test('on Basic, saving and sharing are locked on screen and refused by the API', async ({ page }) => {
  await signInAsNewUser(page);
  await page.goto('/subliminals');
  // The lock waits for the page's code and the plan: give a loaded machine time.
  await expect(page.getByRole('button', { name: 'Save & share Intermediate' })).toBeVisible({ timeout: 20_000 });
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

test('a saved subliminal with two sound layers reloads with those layers at those levels, and shares them', async ({
  page,
  browser,
}) => {
  // Six documents in three tabs, and a sound started twice: past 120 s at a load of 22 on 2 cores (seen here).
  test.slow();
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'intermediate');
  await signIn(page, account);

  // Two layers on the one engine: pink noise and alpha isochronic tones, each moved to its own level.
  await page.goto('/music');
  await page.getByRole('group', { name: 'Noise colour' }).getByRole('button', { name: 'Pink' }).click();
  await page
    .getByRole('group', { name: 'Isochronic band' })
    .getByRole('button', { name: /^Alpha/ })
    .click();
  await page.getByRole('slider', { name: 'Noise' }).fill('-24');
  await page.getByRole('slider', { name: 'Isochronic' }).fill('-9');

  // The player follows the person to /subliminals; what would be saved is the engine's state.
  await page.getByRole('link', { name: 'Subliminals', exact: true }).first().click();
  await expect(page).toHaveURL(/\/subliminals$/);
  await page.getByRole('button', { name: 'Add Confidence to playlist' }).first().click();
  const described = 'Sound saved with it: Isochronic tones −9 dB · Pink noise −24 dB · volume 80 %.';
  await expect(page.getByTestId('sound-to-save')).toHaveText(described);
  await page.getByLabel('Name for the current playlist').fill('Layered focus');
  await page.getByRole('button', { name: 'Save the current playlist, settings and sound under this name' }).click();
  await expect(page.getByText(/18 messages · .* · 2 sound layers/)).toBeVisible();

  // A reload ends the sound; opening the saved one starts exactly those layers at those levels (the
  // line reads the engine's state, as the mini-player does).
  await page.reload();
  await expect(page.getByTestId('sound-to-save')).toContainText('No sound plays now');
  await page.getByRole('button', { name: 'Open Layered focus' }).click();
  await expect(page.getByTestId('sound-to-save')).toHaveText(described);

  // Shared: a visitor's document paints its top (the server filled it: docs/decisions/024-the-server-fills-the-share-page.md),
  // and the app, which names its layers, adds the rest below it from what the server put in the document.
  await page.getByRole('button', { name: 'Share Layered focus' }).click();
  await page.getByRole('button', { name: 'Create link' }).click();
  const link = new URL(await page.getByLabel('Share link').inputValue()).pathname;
  const mix = 'Isochronic tones −9 dB · Pink noise −24 dB · volume 80 %';
  const visitorContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const visitor = await visitorContext.newPage();
  const reads: string[] = [];
  const countReads = (tab: Page) =>
    tab.on('request', (request) => void (request.url().includes('/api/shared/') && reads.push(request.url())));
  countReads(visitor);
  await visitor.route('**/assets/*.js', (route) => route.abort());
  // Its scripts refused, the page never starts: the load alone is waited for (e2e/support/test.ts).
  await visitor.goto(link, { waitUntil: 'load' });
  await expect(visitor.getByRole('heading', { level: 1, name: 'Layered focus' })).toBeVisible();
  await expect(visitor.getByText(/theme · each message shows for/)).toBeVisible();
  const painted = await visitor.getByRole('heading', { level: 1 }).boundingBox();
  await visitor.unrouteAll();
  await visitor.goto(link);
  await expect(visitor.getByTestId('shared-sound')).toHaveText(mix);
  await expect(visitor.getByRole('link', { name: 'Sign up free' })).toBeVisible();
  expect(await visitor.getByRole('heading', { level: 1 }).boundingBox()).toEqual(painted);
  await visitor.waitForLoadState('networkidle');
  await visitorContext.close();
  // The owner, signed in: the app's page, to play it, from the document too.
  const ownerTab = await page.context().newPage();
  countReads(ownerTab);
  await ownerTab.goto(link);
  await expect(ownerTab.getByRole('button', { name: 'Play it now' })).toBeVisible();
  await expect(ownerTab.getByTestId('shared-sound')).toHaveText(mix);
  await ownerTab.waitForLoadState('networkidle');
  expect(reads).toEqual([]);
});

// A share link to a subliminal with sound paints its top from the document and hands over to the app for the rest
// (app/documents/shared.tsx). A connection gone by then left the top alone for good; the page now says so and
// comes by itself once the browser is back online (docs/decisions/093-a-hand-over-waits-for-the-connection.md).
test('a visitor whose connection drops as a share page with sound opens is told so, and the page comes once back online', async ({
  page,
  browser,
}) => {
  const sound = { volume: 0.8, layers: [{ kind: 'noise', colour: 'pink', gain_db: -24 }] };
  const sharePath = await sharedSubliminalPath(page.request, 'Quiet carriage', sound);
  const visitorContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const visitor = await visitorContext.newPage();
  // The document and the page's own code came; the connection goes as the app's code is asked for. The page asks
  // for the app's code beside its own from its first paint (decision 097): the connection goes once its own has come.
  const served = await (await page.request.get(sharePath)).text();
  const loader = /<script data-entry="([^"]+)" data-preload="([^"]*)"/.exec(served);
  const ownFiles = [loader?.[1] ?? '', ...(loader?.[2] ?? '').split(' ')].filter(Boolean);
  expect(ownFiles.length).toBeGreaterThan(1);
  const ownCame = Promise.all(
    ownFiles.map((file) =>
      visitor.waitForEvent('requestfinished', (request) => new URL(request.url()).pathname === file),
    ),
  );
  await visitor.route(
    '**/assets/spa-*.js',
    async (route) => {
      await ownCame;
      await visitorContext.setOffline(true);
      await route.abort('internetdisconnected');
    },
    { times: 1 },
  );
  await visitor.goto(sharePath);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Quiet carriage' })).toBeVisible();
  const waits = visitor
    .getByRole('status')
    .filter({ hasText: 'You seem to be offline. This page opens by itself once you are back online.' });
  await expect(waits).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Sign up free' })).toHaveCount(0);

  await visitorContext.setOffline(false);
  await expect(visitor.getByTestId('shared-sound')).toHaveText('Pink noise −24 dB · volume 80 %', AFTER_APP_START);
  await expect(visitor.getByRole('link', { name: 'Sign up free' })).toBeVisible();
  await expect(visitor.getByRole('listitem').filter({ hasText: 'I am calm' })).toBeVisible();
  await expect(waits).toHaveCount(0);
  await visitorContext.close();
});

test('at 1280 × 800 the shorter column follows the page, so both end together above Start/Stop, however long the playlist', async ({
  page,
}) => {
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'pro');
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, account);
  await page.goto('/subliminals');
  const columns = page.locator('[data-column]');
  const bar = page.getByRole('button', { name: 'Start' });
  const bottoms = () =>
    columns.evaluateAll((nodes) => nodes.map((node) => Math.round(node.getBoundingClientRect().bottom)));
  for (const fill of [false, true]) {
    if (fill) {
      await page.getByRole('button', { name: 'Add Confidence to playlist' }).first().click();
      // Measured once the playlist holds them: "Saved to your account" already shows before the click.
      await expect(page.getByRole('region', { name: /Playlist/ }).getByRole('heading')).not.toHaveText(/\(0\)/);
    }
    await expect(page.getByText('Saved to your account')).toBeVisible();
    const heights = await columns.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).offsetHeight));
    expect(Math.abs(heights[0]! - heights[1]!), `columns ${heights.join(' and ')} px`).toBeGreaterThan(100);
    // Half the columns' difference before the page's end the shorter one has stuck: its end is on screen, above the
    // bar (higher up, not yet stuck, it may still run on under the bar, as any page does); at the end both end together.
    const difference = Math.abs(heights[0]! - heights[1]!);
    await page.evaluate(
      (before) => window.scrollTo(0, document.documentElement.scrollHeight - window.innerHeight - before),
      difference / 2,
    );
    await expect.poll(async () => Math.min(...(await bottoms()))).toBeLessThanOrEqual((await bar.boundingBox())!.y);
    await expect
      .poll(async () => {
        // At the end as it is now: the page may still grow as the playlist's rows come.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const [a, b] = await bottoms();
        return Math.abs(a! - b!);
      })
      .toBeLessThanOrEqual(1);
    await page.evaluate(() => window.scrollTo(0, 0));
  }
});

test('a plan that cannot be read is said once on the player, where the other themes would be, and Try again offers them (decision 132)', async ({
  page,
}) => {
  // A phone's width: the parts of the player stand a screen or more apart.
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsNewUser(page);
  let failing = true;
  await page.route('**/api/user/plan/', (route) =>
    failing
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ detail: 'Server error.' }),
        })
      : route.fallback(),
  );
  await page.goto('/subliminals');
  const theme = page.getByRole('group', { name: 'Theme' });
  const alert = theme.getByRole('alert');
  await expect(alert).toContainText('Could not load your plan: Server error.', { timeout: 20_000 });
  await expect(page.getByText(/Could not load your plan/)).toHaveCount(1);
  await expect(theme.getByRole('radio', { name: 'Paper' })).toBeEnabled();
  await expect(theme.getByRole('radio', { name: /Ocean/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /More themes/ })).toHaveCount(0);
  // My messages, a screen and more above it on a phone, says why its export and sharing wait, quietly (decision 140).
  const myMessages = page.getByRole('region', { name: 'My messages' });
  await expect(
    myMessages.getByText('Your plan could not be loaded: export and sharing show once it is.'),
  ).toBeAttached();
  await expect(myMessages.getByRole('button', { name: 'Try again' })).toBeAttached();
  await expect(page.getByRole('alert')).toHaveCount(1);

  failing = false;
  await alert.getByRole('button', { name: 'Try again' }).focus();
  await page.keyboard.press('Enter');
  // A new member is on Basic: the others come locked, and the keyboard goes to the page's heading (nothing to choose).
  await expect(page.getByRole('radio', { name: 'Ocean, locked' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'More themes Intermediate' })).toBeVisible();
  await expect(alert).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expect(myMessages.getByRole('button', { name: 'Export & share Pro' })).toBeAttached();
  await expect(myMessages.getByText(/could not be loaded/)).toHaveCount(0);
});
