import { expect, test } from '@playwright/test';
import { encodeWav } from './audio-analysis';
import { createActiveUser, setPlanAsStaff, signIn } from './support/accounts';

test.describe.configure({ timeout: 120_000 });

/** A second of a 440 Hz tone as a 16-bit mono WAV file. */
const toneWav = (seconds = 1, rate = 8000): Buffer =>
  encodeWav([Array.from({ length: seconds * rate }, (_, n) => 0.25 * Math.sin((2 * Math.PI * 440 * n) / rate))], rate);

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
  await expect(page.getByText(/1 of 50 tracks, 16 KB of 500 MB used\./)).toBeVisible();

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
