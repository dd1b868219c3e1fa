import { expect, test } from './support/test';
import { toneWav } from './audio-analysis';
import { createActiveUser, setPlanAsStaff, signIn } from './support/accounts';

test.describe.configure({ timeout: 120_000 });

test('a Pro member uploads their own track, plays it like the library’s, and deletes it', async ({ page }) => {
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'pro');
  await signIn(page, account);
  await page.goto('/music');

  const tone = toneWav();
  await page.getByLabel('Audio file').setInputFiles({ name: 'Evening tone.wav', mimeType: 'audio/wav', buffer: tone });
  await page.getByRole('button', { name: 'Upload' }).click();
  const card = page.getByTestId('audio-item').filter({ hasText: 'Evening tone' });
  await expect(card).toBeVisible();
  await expect(page.getByText(/1 of 50 tracks, 16\sKB of 500\sMB used\./)).toBeVisible();

  // The same file again, under another name: refused, saying which track has it, and counted once.
  await page.getByLabel('Audio file').setInputFiles({ name: 'Copy.wav', mimeType: 'audio/wav', buffer: tone });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByLabel('Audio file')).toHaveAccessibleDescription(
    'This file is already in your music as “\u2068Evening tone\u2069”.',
  );
  await expect(page.getByText(/1 of 50 tracks, 16\sKB of 500\sMB used\./)).toBeVisible();
  await expect(page.getByTestId('audio-item').filter({ hasText: 'Copy' })).toHaveCount(0);

  // The file comes back byte for byte through the signed URL it is played from.
  const listed = await page.evaluate(async () => {
    const response = await fetch('/api/user/my-music/', {
      headers: { Authorization: `Bearer ${localStorage.getItem('user.access')}` },
    });
    return (await response.json()) as { tracks: { url: string }[] };
  });
  const download = await page.request.get(listed.tracks[0]!.url);
  expect(Buffer.from(await download.body()).equals(tone)).toBe(true);

  await card.getByRole('button', { name: 'Play Evening tone' }).click();
  await expect(card).toHaveAttribute('data-state', 'playing');
  await card.getByRole('button', { name: 'Pause Evening tone' }).click();
  await expect(card).toHaveAttribute('data-state', 'paused');

  await card.getByRole('button', { name: 'Delete Evening tone' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No music of your own yet.', { exact: false })).toBeVisible();
  expect((await page.request.get(listed.tracks[0]!.url)).status()).toBe(404);
});

test('a track whose file name is one long word wraps on a phone, and its play and delete buttons stay on screen', async ({
  page,
}) => {
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'pro');
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, account);
  await page.goto('/music');

  const name = 'Evening_tone_recorded_on_the_porch_after_the_rain_final_master_v2';
  await page.getByLabel('Audio file').setInputFiles({ name: `${name}.wav`, mimeType: 'audio/wav', buffer: toneWav() });
  await page.getByRole('button', { name: 'Upload' }).click();
  const card = page.getByTestId('audio-item').filter({ hasText: name });
  await expect(card).toBeVisible();

  // The name wrapped inside the card: nothing reaches past the page's width (it pushed the buttons off screen).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const cardBox = (await card.boundingBox())!;
  expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(390);
  for (const button of [
    card.getByRole('button', { name: `Play ${name}` }),
    card.getByRole('button', { name: `Delete ${name}` }),
  ]) {
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport({ ratio: 1 });
  }

  // The dialog that asks before deleting keeps the name inside it too.
  await card.getByRole('button', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('dialog');
  const title = dialog.getByRole('heading');
  await expect(title).toContainText(name);
  expect(await title.evaluate((heading) => heading.scrollWidth <= heading.clientWidth)).toBe(true);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(card).toHaveCount(0);
});

test('on a phone, the sound layers say why they wait when the plan cannot be read, far below My music’s message (decision 140)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const account = await createActiveUser(page.request);
  await signIn(page, account);
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
  await page.goto('/music');
  const myMusic = page.getByRole('region', { name: 'My music' });
  await expect(myMusic.getByRole('alert')).toContainText('Could not load your plan: Server error.', {
    timeout: 20_000,
  });
  await expect(page.getByRole('alert')).toHaveCount(1);

  const layers = page.getByRole('region', { name: 'Sound layers' });
  const tryAgain = layers.getByRole('button', { name: 'Try again' });
  await tryAgain.scrollIntoViewIfNeeded();
  await expect(layers.getByText('Your plan could not be loaded: the sound layers show once it is.')).toBeInViewport();
  // My music's message is a screen and more above.
  await expect(myMusic.getByRole('alert')).not.toBeInViewport();

  // A new member is on Basic: the lock takes the place of the line, and the keyboard.
  failing = false;
  await tryAgain.focus();
  await page.keyboard.press('Enter');
  await expect(layers.getByRole('button', { name: 'Sound layers Intermediate' })).toBeFocused();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(myMusic.getByRole('button', { name: 'Your own music Pro' })).toBeVisible();
});
