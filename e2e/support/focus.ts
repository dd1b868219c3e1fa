import type { Locator, Page } from '@playwright/test';

/**
 * Tab and Shift+Tab `stops` times from each of `starts`: each control the keyboard lands on that is not seen
 * whole, under a sticky bar, the mini-player or the screen's edge (WCAG 2.4.11), one line each.
 */
export async function hiddenWhenTabbing(page: Page, starts: Locator[], stops = 40): Promise<string[]> {
  const hidden = new Set<string>();
  for (const start of starts) {
    for (const key of ['Tab', 'Shift+Tab']) {
      await start.focus();
      for (let stop = 0; stop < stops; stop++) {
        await page.keyboard.press(key);
        // The control's top, middle and bottom are the control's own, not a sticky bar's or the mini-player's.
        const covered = await page.evaluate(() => {
          const focused = document.activeElement;
          if (!(focused instanceof HTMLElement) || focused === document.body) return null;
          // A control in its label (a visually hidden radio) is seen as its label.
          const seen = focused.closest('label') ?? focused;
          const { left, top, width, height } = seen.getBoundingClientRect();
          for (const y of [top + 2, top + height / 2, top + height - 2]) {
            const over = document.elementFromPoint(left + width / 2, y);
            if (over && (seen.contains(over) || over.contains(seen))) continue;
            const name = (focused.getAttribute('aria-label') ?? seen.textContent ?? '').trim().slice(0, 40);
            const bar = over?.closest('header, [role="region"], [class~="sticky"]');
            return `${focused.tagName.toLowerCase()} "${name}" under ${bar?.tagName ?? over?.tagName ?? "the screen's edge"}${bar?.textContent?.includes('Start') ? ' (Start/Stop)' : ''}`;
          }
          return null;
        });
        if (covered) hidden.add(`${page.url()} ${key}: ${covered}`);
      }
    }
  }
  return [...hidden];
}
