import { expect, type Page } from '@playwright/test';

// The logout, activation and password-reset toasts live one second (docs/product/errors-and-limits.md): on a
// busy machine a test's looks at the page, each a round trip to the browser, can come more than a second
// apart, and one of them came and went between two looks. The page keeps every toast it shows instead.

interface ToastsWindow {
  e2eToastsShown?: string[];
}

/** From the page's next document on, notes the text of every toast as it appears. */
export async function noteToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shown: string[] = [];
    (window as ToastsWindow).e2eToastsShown = shown;
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        const text = toast.textContent?.trim();
        if (seen.has(toast) || !text) continue;
        seen.add(toast);
        shown.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** The text of every toast shown since the document loaded, in order (see noteToasts); null before it. */
export function toastsShown(page: Page): Promise<string[] | null> {
  return page.evaluate(() => (window as ToastsWindow).e2eToastsShown ?? null);
}

/**
 * Waits until a toast saying `text` has been shown since the document loaded (see noteToasts); `timeout` for one
 * that comes after the app starts in a new document (AFTER_APP_START).
 */
export async function expectToastShown(
  page: Page,
  text: string,
  { timeout }: { timeout?: number } = {},
): Promise<void> {
  await expect
    .poll(() => toastsShown(page), { message: `a toast saying "${text}"`, timeout })
    .toContainEqual(expect.stringContaining(text));
}
