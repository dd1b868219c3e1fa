import { test, type Locator, type Page } from './test';

/**
 * Screenshots of `element` at a desktop's and a phone's width, in both themes, kept with the test's output for a person
 * to look at; `alsoAt` takes what else that width and theme should show (a dialog the element opens).
 */
export async function screenshotAtWidths(
  page: Page,
  element: Locator,
  name: string,
  alsoAt?: (width: number, colorScheme: 'light' | 'dark') => Promise<void>,
): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await element.scrollIntoViewIfNeeded();
      await element.screenshot({ path: test.info().outputPath(`${name}-${width}-${colorScheme}.png`) });
      await alsoAt?.(width, colorScheme);
    }
  }
}
