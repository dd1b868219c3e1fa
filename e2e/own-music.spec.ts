import { expect, test } from '@playwright/test';
import { createActiveUser, setPlanAsStaff, signIn } from './support/accounts';

test.describe.configure({ timeout: 120_000 });

/** A second of a 440 Hz tone as a 16-bit mono WAV file. */
function toneWav(seconds = 1, rate = 8000): Buffer {
  const samples = seconds * rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

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
