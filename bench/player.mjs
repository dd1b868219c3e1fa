/* global window, document, requestAnimationFrame -- the measuring functions run in the page */
import { writeFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { buildWeb } from '../scripts/build-state.mjs';
import { CHROMIUM_PATH, ensureChromium } from '../scripts/debian-packages.mjs';
import { api, startWithProAccount } from './app-calls.mjs';

// `npm run bench:player [-- --runs=5] [--messages=1000] [--cpu=4] [--port=4142] [--json=out.json]`: the subliminals
// player of a Pro account with a full playlist (1,000 messages) and as many messages of its own (in categories of
// 100), in headless Chromium at a real CPU slowdown (4×, standing in for a phone). It measures opening the page
// (navigation to the full playlist and own messages shown) and, for each interaction, the Event Timing API's
// duration (input to the next paint, what INP measures): removing one message from the playlist, adding one of
// one's own, typing a digit in a setting and in a new message's field, and starting a session; then, a library track
// playing with a sleep timer, the main thread's work per second on /music and on the player (what the page does
// while nothing changes but its clocks). Prints the median and worst of the runs; an interaction's median over
// 100 ms is marked (a phone's interaction budget, web.dev/inp).

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const runs = Math.max(1, Number(args.runs ?? 5));
const messageCount = Number(args.messages ?? 1000);
const cpu = Number(args.cpu ?? 4);
const BUDGET_MS = 100;

/** The account's own messages, in categories of 100, and a playlist of as many of them: its sign-in tokens. */
async function fill(origin, email, password) {
  const { access } = await api(origin, 'POST', '/api/jwt/create/', { body: { email, password } });
  const playlist = [];
  for (let first = 0; first < messageCount; first += 100) {
    const category = await api(origin, 'POST', '/api/user/my-categories/', {
      token: access,
      body: { name: `Block ${first / 100 + 1}` },
    });
    let last;
    for (let i = first; i < Math.min(first + 100, messageCount); i++) {
      last = await api(origin, 'POST', `/api/user/my-categories/${category.id}/messages/`, {
        token: access,
        body: { message_text: `I keep my own message number ${i + 1} close today.` },
      });
    }
    for (const message of last.messages)
      playlist.push({ message_text: message.message_text, source: 'own', message_id: message.id });
  }
  await api(origin, 'PUT', '/api/user/player/', {
    token: access,
    body: {
      playlist: playlist.slice(0, 1000),
      settings: { flashSpeed: 100, displayInterval: 2000, messageColor: '#00DC82', fontSize: 20, theme: 'classic' },
    },
  });
  await api(origin, 'PUT', '/api/user/onboarding/', { token: access, body: { skipped: true } });
}

/** The web app's session of the account, as it keeps it in localStorage, with the flash notice accepted. */
async function storage(origin, email, password) {
  const tokens = await api(origin, 'POST', '/api/jwt/create/', { body: { email, password } });
  const user = await api(origin, 'GET', '/api/users/me/', { token: tokens.access });
  return {
    'user.no-invitation': '1',
    'user.access': tokens.access,
    'user.refresh': tokens.refresh,
    'user.id': String(user.id),
    'user.email': user.email,
    'user.user': JSON.stringify(user),
    'innerwave.subliminals.photosensitivity-accepted': 'yes',
  };
}

/** Collects the page's Event Timing entries (every interaction's input-to-next-paint time). */
const observeEvents = () => {
  window.__events = [];
  new PerformanceObserver((list) => window.__events.push(...list.getEntries())).observe({
    type: 'event',
    durationThreshold: 16,
    buffered: true,
  });
};

/** The longest interaction since `since` (performance.now()), once its paint has been reported. */
async function longestSince(page, since) {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300)))),
  );
  return page.evaluate(
    (start) =>
      Math.max(0, ...window.__events.filter((e) => e.interactionId > 0 && e.startTime >= start).map((e) => e.duration)),
    since,
  );
}

const now = (page) => page.evaluate(() => performance.now());

async function oneRun(browser, origin, session) {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: 412, height: 823 });
    await page.goto(`${origin}/api/health`);
    await page.evaluate((entries) => {
      localStorage.clear();
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, session);
    await page.evaluateOnNewDocument(observeEvents);
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
    await page.goto(`${origin}/subliminals`);
    const heading = `#playlist-heading`;
    await page.waitForFunction(
      (selector, count) =>
        document.querySelector(selector)?.textContent?.includes(`(${count})`) &&
        document.querySelectorAll('section[aria-labelledby="my-messages-heading"] li li').length >= count,
      { timeout: 120_000, polling: 'raf' },
      heading,
      Math.min(messageCount, 1000),
    );
    const open = await page.evaluate(() => performance.now());
    // Let the rest of the load (the sound, the saved subliminals) settle before the interactions.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const result = { open };

    let since = await now(page);
    await page.click('section[aria-labelledby="playlist-heading"] li button');
    result.remove = await longestSince(page, since);

    since = await now(page);
    await page.click('button[aria-label^="Add \\"I keep my own message number 1 "]');
    result.add = await longestSince(page, since);

    const interval = await page.$('::-p-aria(Display interval \\(ms\\))');
    await interval.click({ count: 3 });
    since = await now(page);
    await page.keyboard.type('3');
    result.typeSetting = await longestSince(page, since);
    await page.keyboard.press('Tab');

    const newMessage = await page.$('input[aria-label="New message in Block 1"]');
    await newMessage.click();
    since = await now(page);
    await page.keyboard.type('I');
    result.typeMessage = await longestSince(page, since);

    since = await now(page);
    await page.click('::-p-aria(Start)');
    await page.waitForSelector('[role="dialog"][aria-label="Subliminal session"]');
    result.start = await longestSince(page, since);
    return result;
  } finally {
    await page.close();
  }
}

/** Milliseconds of main-thread work per second over `seconds` of the page doing nothing but what it shows. */
async function busyPerSecond(cdp, seconds) {
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration').value;
  const before = await taskSeconds();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return ((await taskSeconds()) - before) * (1000 / seconds);
}

/**
 * A library track playing with an 8-hour sleep timer: the main thread's work per second on /music (a card per
 * track) and, the sound playing on, on the full player. Only the clocks (the mini-player's, the card's seek bar)
 * have anything new to show four times a second.
 */
async function timerRun(browser, origin, session) {
  const page = await browser.newPage();
  try {
    // Wide, where the portal's sidebar shows its links.
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${origin}/api/health`);
    await page.evaluate((entries) => {
      localStorage.clear();
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, session);
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
    await page.goto(`${origin}/music`);
    await page.locator('button[aria-label^="Play 528 Hz"]').setTimeout(120_000).click();
    await page.waitForSelector('[data-testid="audio-item"][data-state="playing"]', { timeout: 60_000 });
    await page.select('section[aria-label="Now playing"] label select', '480');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const timerMusic = await busyPerSecond(cdp, 5);
    await page.click('nav[aria-label="Portal"] a[href="/subliminals"]');
    await page.waitForFunction(() => document.querySelector('#playlist-heading')?.textContent?.includes('('), {
      timeout: 120_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { timerMusic, timerPlayer: await busyPerSecond(cdp, 5) };
  } finally {
    await page.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!process.env.CHROME_PATH) ensureChromium();
buildWeb();
const email = 'bench-player@innerwave.test';
const { origin, password, stop } = await startWithProAccount({
  email,
  port: args.port ? Number(args.port) : undefined,
  dataPrefix: 'innerwave-bench-player-',
});
let browser;
try {
  await fill(origin, email, password);
  browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH ?? CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const results = [];
  for (let run = 1; run <= runs; run++) {
    results.push({
      ...(await oneRun(browser, origin, await storage(origin, email, password))),
      ...(await timerRun(browser, origin, await storage(origin, email, password))),
    });
    process.stderr.write(
      `run ${run}/${runs}: ${JSON.stringify(results.at(-1), (_, v) => (typeof v === 'number' ? Math.round(v) : v))}\n`,
    );
  }
  const labels = {
    open: 'open the player (navigation to all shown)',
    remove: 'remove one message from the playlist',
    add: 'add one own message to the playlist',
    typeSetting: 'type a digit in Display interval',
    typeMessage: 'type a letter in a new message',
    start: 'start a session',
    timerMusic: 'a sleep timer running, /music (main-thread ms per s)',
    timerPlayer: 'a sleep timer running, the player (main-thread ms per s)',
  };
  const interactions = ['remove', 'add', 'typeSetting', 'typeMessage', 'start'];
  const rows = Object.entries(labels).map(([key, label]) => {
    const values = results.map((r) => r[key]);
    const row = { step: label, 'median ms': Math.round(median(values)), 'worst ms': Math.round(Math.max(...values)) };
    row.over = interactions.includes(key) && row['median ms'] > BUDGET_MS ? `> ${BUDGET_MS} ms` : '—';
    return row;
  });
  console.log(
    `\nThe player with ${messageCount} own messages and a playlist of ${Math.min(messageCount, 1000)}, ${cpu}× CPU slowdown, ${runs} runs` +
      '\nInteractions: Event Timing duration (input to next paint); open: navigation start to everything shown',
  );
  console.table(rows.reduce((table, { step, ...row }) => ({ ...table, [step]: row }), {}));
  if (args.json) writeFileSync(args.json, JSON.stringify(rows, null, 2));
} finally {
  await browser?.close();
  await stop();
}
