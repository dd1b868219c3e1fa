import { chromium } from '@playwright/test';

// Looks at a page as a person would: node scripts/screenshot.mjs <url> <out.png> [dark|light] [width] [storage.json]
const [url, out, scheme = 'light', width = '1280', storageFile] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: node scripts/screenshot.mjs <url> <out.png> [dark|light] [width] [storageState.json]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const context = await browser.newContext({
  viewport: { width: Number(width), height: 900 },
  colorScheme: scheme === 'dark' ? 'dark' : 'light',
  ...(storageFile ? { storageState: storageFile } : {}),
});
const page = await context.newPage();
await page.goto(url, { waitUntil: 'networkidle' });
// A full-page picture includes what is off screen: render the sections the page lets the browser skip
// until they near the viewport (content-visibility: auto).
await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
await page.waitForLoadState('networkidle');
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log(`saved ${out}`);
