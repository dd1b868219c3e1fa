import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from './support/test';
import config from '../playwright.config';
import { PEAK_CEILING_DB, SPEECH_LEVEL_DB, speechLevel } from '../src/web/lib/audio/voice-take';
import { amplitudeAt, encodeWav, peak } from './audio-analysis';
import { createActiveUser, setPlanAsStaff, signIn } from './support/accounts';
import { screenshotAtWidths } from './support/screenshots';

// One's own voice for the spoken affirmations (docs/product/screens.md#spoken-affirmations): Chromium's
// fake microphone plays a file of ours, so what the browser records, trims and keeps can be measured.

/** From the next page on, notes what Listen played to its end: the source of each player that ended. */
async function notePlayedToEnd(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const ended: string[] = [];
    (window as unknown as { playedToEnd: string[] }).playedToEnd = ended;
    const Original = window.Audio;
    window.Audio = class extends Original {
      constructor(src?: string) {
        super(src);
        this.addEventListener('ended', () => ended.push(this.src));
      }
    };
  });
}

const playedToEnd = (page: Page) => page.evaluate(() => (window as unknown as { playedToEnd: string[] }).playedToEnd);

const MIC_RATE = 48_000;
/** What the microphone hears, looped: 0.6 s of silence, 1.2 s of 440 Hz rising and falling four times a second, 6 s of silence. */
function microphoneWav(): Buffer {
  const samples = Array.from({ length: 7.8 * MIC_RATE }, (_, n) => {
    const t = n / MIC_RATE;
    const envelope = t >= 0.6 && t < 1.8 ? 0.5 - 0.5 * Math.cos(2 * Math.PI * 4 * (t - 0.6)) : 0;
    return 0.5 * envelope * Math.sin(2 * Math.PI * 440 * t);
  });
  return encodeWav([samples], MIC_RATE);
}

const microphoneFile = path.join(tmpdir(), `innerwave-e2e-microphone-${process.pid}.wav`);
writeFileSync(microphoneFile, microphoneWav());

test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [
      ...(config.use?.launchOptions?.args ?? []),
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${microphoneFile}`,
    ],
  },
});
test.describe.configure({ timeout: 180_000 });

const PLAYLIST = [
  { id: 1, message_text: 'I am calm.', source: 'own' },
  { id: 2, message_text: 'I breathe slowly and easily.', source: 'own' },
];

test('as Pro, a message recorded with the microphone is kept trimmed on the server and spoken in one’s own voice', async ({
  page,
}) => {
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'pro');
  await page.addInitScript((playlist) => {
    if (!localStorage.getItem('innerwave.subliminals.playlist')) {
      localStorage.setItem('innerwave.subliminals.playlist', JSON.stringify(playlist));
    }
  }, PLAYLIST);
  await notePlayedToEnd(page);
  await signIn(page, account);
  await page.goto('/subliminals');
  const panel = page.getByRole('region', { name: 'Spoken affirmations' });
  await panel.getByLabel('Voice').selectOption({ label: 'My own voice (recorded)' });
  await expect(panel.getByText('0 of 2 messages recorded')).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('button', { name: 'Slow', exact: true })).toHaveCount(0);

  await panel.getByRole('button', { name: 'Record “I am calm.”' }).click();
  // Past the tone (its end at 1.8 s, and the 150 ms kept after it) by the recording's own clock, which starts once the
  // recorder has the microphone; well before the loop comes round again at 8.4 s (a busy machine may stop late).
  await expect(panel.getByText(/^Recording… 0:0[2-9] of 0:20$/)).toBeVisible({ timeout: 20_000 });
  const kept = page.waitForResponse((response) => response.url().endsWith('/api/user/my-voice/'));
  await panel.getByRole('button', { name: 'Stop recording “I am calm.”' }).click();
  const answer = await kept;
  expect(answer.status()).toBe(201);
  const recording = (await answer.json()) as { text: string; url: string; duration_ms: number };
  expect(recording.text).toBe('I am calm.');
  await expect(panel.getByText('1 of 2 messages recorded')).toBeVisible();
  // The keyboard stays where it was: on the row's button, now "Record again".
  await expect(panel.getByRole('button', { name: 'Record again “I am calm.”' })).toBeFocused();
  await expect(panel.getByText(`Recorded, ${(recording.duration_ms / 1000).toFixed(1)} s`)).toBeVisible();

  // The kept file: one channel of 16 bits at 22.05 kHz, the tone in it, the silence around it cut.
  const file = await page.request.get(recording.url);
  expect(file.status()).toBe(200);
  const bytes = await file.body();
  expect([bytes.readUInt16LE(22), bytes.readUInt32LE(24), bytes.readUInt16LE(34)]).toEqual([1, 22_050, 16]);
  const samples = new Float32Array((bytes.length - 44) / 2);
  for (let n = 0; n < samples.length; n++) samples[n] = bytes.readInt16LE(44 + n * 2) / 32768;
  const rms = (from: number, to: number) =>
    Math.sqrt(samples.subarray(from, to).reduce((sum, s) => sum + s * s, 0) / Math.max(1, to - from));
  const dB = (level: number) => 20 * Math.log10(level);
  console.log(
    'own voice take:',
    recording.duration_ms,
    'ms, head/tail rms',
    rms(0, 1000),
    rms(samples.length - 1000, samples.length),
    'speech level',
    dB(speechLevel(samples, 22_050)),
    'dBFS, peak',
    dB(peak(samples)),
    'dBFS',
  );
  // The 1.2 s of tone and 150 ms either side: the silence before and after it is cut.
  expect(recording.duration_ms).toBeGreaterThan(1_350);
  expect(recording.duration_ms).toBeLessThan(1_700);
  expect(amplitudeAt(samples, 22_050, 440)).toBeGreaterThan(5 * amplitudeAt(samples, 22_050, 1000));
  // Heard at −6 dBFS at its loudest, kept levelled: its speech at the level every take is kept at.
  expect(Math.abs(dB(speechLevel(samples, 22_050)) - SPEECH_LEVEL_DB)).toBeLessThan(0.1);
  expect(dB(peak(samples))).toBeLessThan(PEAK_CEILING_DB);

  // Listening plays the kept take to its end, as the session speaks it: the levelled clip, from a URL
  // of the browser's own, not the file.
  await panel.getByRole('button', { name: 'Listen to “I am calm.”' }).click();
  await expect(panel.getByRole('button', { name: 'Stop listening to “I am calm.”' })).toBeFocused();
  await expect(panel.getByRole('button', { name: 'Listen to “I am calm.”' })).toBeFocused({ timeout: 10_000 });
  const played = await playedToEnd(page);
  expect(played).toEqual([expect.stringMatching(/^blob:/)]);

  await panel.getByRole('button', { name: 'Speak the playlist' }).click();
  await expect(panel.getByText('Speaking 1 message in your voice, looping.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Now playing' })).toContainText('Spoken affirmations · 1 message');

  await screenshotAtWidths(page, panel, 'own-voice');

  // Deleting asks first, as everywhere a made thing is deleted (decision 144).
  await panel.getByRole('button', { name: 'Delete the recording of “I am calm.”' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the recording of “I am calm.”?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(panel.getByText('0 of 2 messages recorded')).toBeVisible();
  // With nothing left to say in one's voice, the voice stops.
  await expect(page.getByText('Please record at least one message of the playlist first.')).toBeVisible();
  await expect(panel.getByText(/^Speaking/)).toHaveCount(0);
  const gone = await page.request.get(recording.url);
  expect(gone.status()).toBe(404);
});

test('below Pro, the recordings a Pro plan left are listed, played to their end and deleted after asking', async ({
  page,
}) => {
  const account = await createActiveUser(page.request);
  await setPlanAsStaff(page.request, account.email, 'pro');
  const login = await page.request.post('/api/jwt/create/', { data: account });
  const headers = { Authorization: `Bearer ${((await login.json()) as { access: string }).access}` };
  // Two takes kept on Pro, each 0.8 s of 440 Hz at 22.05 kHz, then the plan goes down.
  const tone = encodeWav(
    [Array.from({ length: 0.8 * 22_050 }, (_, n) => 0.3 * Math.sin((2 * Math.PI * 440 * n) / 22_050))],
    22_050,
  );
  for (const text of ['I am calm.', 'A message of an old playlist.']) {
    const kept = await page.request.post('/api/user/my-voice/', {
      headers,
      multipart: { text, audio_file: { name: 'take.wav', mimeType: 'audio/wav', buffer: tone } },
    });
    expect(kept.status(), await kept.text()).toBe(201);
  }
  await setPlanAsStaff(page.request, account.email, 'basic');
  await notePlayedToEnd(page);
  await signIn(page, account);
  await page.goto('/subliminals');
  const panel = page.getByRole('region', { name: 'Spoken affirmations' });
  await expect(panel.getByText('Your recordings are kept: listen to them or delete them here.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(panel.getByText('Recorded, 0.8 s')).toHaveCount(2);
  await expect(panel.getByRole('button', { name: /^Record/ })).toHaveCount(0);

  // Listen plays the take to its end in the browser, the keyboard staying on its button.
  await panel.getByRole('button', { name: 'Listen to “I am calm.”' }).click();
  await expect(panel.getByRole('button', { name: 'Stop listening to “I am calm.”' })).toBeFocused();
  await expect(panel.getByRole('button', { name: 'Listen to “I am calm.”' })).toBeFocused({ timeout: 10_000 });
  const played = await playedToEnd(page);
  expect(played).toEqual([expect.stringMatching(/^blob:/)]);

  await screenshotAtWidths(page, panel, 'kept-voice');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Each delete asks first; from the keyboard, the next row's delete, then the plan's lock, take the keyboard.
  await panel.getByRole('button', { name: 'Delete the recording of “I am calm.”' }).focus();
  await page.keyboard.press('Enter');
  const asking = page.getByRole('dialog', { name: 'Delete the recording of “I am calm.”?' });
  await expect(asking).toContainText('Recording your voice again is part of the Pro plan.');
  await page.screenshot({ path: test.info().outputPath('kept-voice-asking.png') });
  await asking.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Recording deleted.')).toBeVisible();
  const last = panel.getByRole('button', { name: 'Delete the recording of “A message of an old playlist.”' });
  await expect(last).toBeFocused();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByText(/recordings are kept/)).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /^Spoken affirmations.*Pro/ })).toBeFocused();
  const { recordings } = (await (await page.request.get('/api/user/my-voice/', { headers })).json()) as {
    recordings: unknown[];
  };
  expect(recordings).toEqual([]);
});
