import { expect, test, type Page } from './support/test';
import { AFTER_PAGE_CODE } from './support/hydration';
import { signInAsNewUser } from './support/accounts';

type Watched = { audioContexts: AudioContext[] };

// Each test signs up, then plays, stops and replays real audio: more than 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

/** Records the page's real AudioContexts, to know the sound actually runs (no fake audio here). */
async function watchAudioContexts(page: Page) {
  await page.addInitScript(() => {
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

const contextStates = (page: Page) =>
  page.evaluate(() => (window as unknown as Watched).audioContexts.map((context) => context.state));

test('binaural beats on /music: choose Alpha, start, stop', async ({ page }) => {
  await watchAudioContexts(page);
  await signInAsNewUser(page);
  await page.goto('/music');

  const generator = page.getByRole('region', { name: 'Binaural beats' });
  const status = generator.getByRole('status').filter({ hasText: /^(Playing|Stopped)/ });
  await expect(generator.getByLabel('Left frequency')).toHaveValue('200');
  await expect(generator.getByLabel('Right frequency')).toHaveValue('205');
  await expect(generator.getByLabel('Volume')).toHaveValue('0.5');
  await expect(status).toHaveText('Stopped');

  // Start needs a preset (docs/product/content.md#state-machine); nothing is created before that.
  await generator.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Please select a frequency preset first!')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as Watched).audioContexts.length)).toBe(0);

  // The cards are a radio group: a click on a card selects it.
  await generator.getByText('Alpha', { exact: true }).click();
  await expect(generator.getByRole('radio', { name: 'Alpha' })).toBeChecked();
  await expect(generator.getByLabel('Left frequency')).toHaveValue('200');
  await expect(generator.getByLabel('Right frequency')).toHaveValue('210');
  await expect(status).toHaveText('Stopped');
  await expect(generator.getByRole('status', { name: 'Beat' })).toHaveText('10 Hz');

  await generator.getByRole('button', { name: 'Start' }).click();
  await expect(status).toHaveText('Playing a 10 Hz beat');
  const audio = await page.evaluate(async () => {
    const [context] = (window as unknown as Watched).audioContexts;
    const before = context!.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { state: context!.state, advanced: context!.currentTime - before };
  });
  expect(audio.state).toBe('running');
  expect(audio.advanced).toBeGreaterThan(0.1);
  await expect(page.getByText('Failed to start binaural beats. Please try again.')).toHaveCount(0);

  // The display tells what plays: an emptied field keeps the sound (and the beat shown) as it was,
  // and gets that frequency back when left; a number past the range becomes the limit.
  const right = generator.getByLabel('Right frequency');
  await right.fill('');
  await expect(status).toHaveText('Playing a 10 Hz beat');
  await expect(generator.getByText('Still playing 210 Hz: type a frequency to change it')).toBeVisible();
  await right.blur();
  await expect(right).toHaveValue('210');
  await right.fill('5000');
  await right.blur();
  await expect(right).toHaveValue('1000');
  await expect(generator.getByText(/^Set to 1000 Hz, the highest frequency that plays/)).toBeVisible();
  await expect(status).toHaveText('Playing a 800 Hz beat');
  await expect(generator.getByRole('radio', { name: 'Alpha' })).not.toBeChecked();
  await generator.getByText('Alpha', { exact: true }).click();
  await expect(status).toHaveText('Stopped');
  await generator.getByRole('button', { name: 'Start' }).click();
  await expect(status).toHaveText('Playing a 10 Hz beat');

  // From the keyboard: Stop keeps it, unavailable once the beats stop, where a disabled button dropped it (decision 113).
  await generator.getByRole('button', { name: 'Stop' }).focus();
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('Stopped');
  await expect(generator.getByRole('button', { name: 'Stop' })).toBeDisabled();
  await expect(generator.getByRole('button', { name: 'Stop' })).toBeFocused();
  // Once faded out, the audio device is let go...
  await expect.poll(() => contextStates(page)).toEqual(['suspended']);

  // ...and a new start wakes it again, on the same single context.
  await generator.getByRole('button', { name: 'Start' }).click();
  await expect(status).toHaveText('Playing a 10 Hz beat');
  await expect.poll(() => contextStates(page)).toEqual(['running']);
  await generator.getByRole('button', { name: 'Stop' }).click();
  await expect(status).toHaveText('Stopped');
});

test('selecting a preset while playing stops; the sound follows the person through the portal', async ({ page }) => {
  await watchAudioContexts(page);
  await signInAsNewUser(page);
  await page.goto('/music');
  const generator = page.getByRole('region', { name: 'Binaural beats' });
  const status = generator.getByRole('status').filter({ hasText: /^(Playing|Stopped)/ });

  await generator.getByText('Theta', { exact: true }).click();
  await generator.getByRole('button', { name: 'Start' }).click();
  await expect(status).toHaveText('Playing a 6 Hz beat');
  // Arrow keys move through the group (Theta → Alpha → Beta → Gamma), each selection stopping playback.
  await generator.getByRole('radio', { name: 'Theta' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(status).toHaveText('Stopped');
  await expect(generator.getByRole('radio', { name: 'Alpha' })).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(generator.getByRole('radio', { name: 'Gamma' })).toBeChecked();
  await expect(generator.getByLabel('Right frequency')).toHaveValue('240');

  // Typed values glide live; 0 plays as 0.1 Hz and says so.
  await generator.getByRole('button', { name: 'Start' }).click();
  await generator.getByLabel('Right frequency').fill('0');
  await expect(generator.getByText('Plays at 0.1 Hz (range 0.1–1000 Hz)')).toBeVisible();
  await expect(generator.getByRole('status', { name: 'Beat' })).toHaveText('199.9 Hz');
  await generator.getByLabel('Right frequency').fill('215');

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Subliminals' }).click();
  const nowPlaying = page.getByRole('region', { name: 'Now playing' });
  await expect(nowPlaying).toContainText('Binaural beats · 15 Hz', AFTER_PAGE_CODE);
  await nowPlaying.getByRole('button', { name: 'Stop' }).click();
  await expect(nowPlaying).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Meditations' }).click();
  // Custom values: no preset shows selected any more (Gamma's were 200/240).
  await expect(generator.getByRole('radio', { name: 'Gamma' })).not.toBeChecked(AFTER_PAGE_CODE);
  await expect(generator.getByLabel('Right frequency')).toHaveValue('215');
  await expect(status).toHaveText('Stopped');

  // Leaving the portal (signing out) ends the sound.
  await generator.getByRole('button', { name: 'Start' }).click();
  await expect(status).toHaveText('Playing a 15 Hz beat');
  await expect.poll(() => contextStates(page)).toEqual(['running']);
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Sign Out' }).click();
  await expect.poll(() => contextStates(page)).toEqual(['suspended']);
});
