import { expect, type Locator, type Page } from '@playwright/test';

/**
 * What a finger can press on a page or in `within`, as a touch phone shows it (decision 086), one line a finding:
 * - a control under 44 px in the smaller of its two sizes: a checkbox's or a radio's box is the label that holds it;
 *   a `.btn`'s or a toast's Close's is its box with its invisible area (079, 126), its `::after`;
 * - such an invisible area reaching over another control's box, where a press meant for that control could land
 *   on the button (decision 123);
 * - a control of a sticky or fixed bar reaching out of the bar, where it takes a press on the page beside it
 *   (decision 134).
 * It leaves the page, and every box in it, scrolled where it was (decision 126): a measure after it sees the same.
 * Left out, as 086 and WCAG 2.5.5 leave them: a link inside a line of text (as a control to measure; its box still
 * counts as a neighbour), and what is hidden (no box, inert, `aria-hidden`, or the skip link's 1 px until it has the
 * keyboard).
 */
export const undersized = (page: Page, within: string) =>
  page.evaluate((scope) => {
    const root = document.querySelector(scope) ?? document.body;
    // What has an invisible area 44 px round it on a touch screen (styles.css): a `.btn`, a toast's Close.
    const WITH_AREA = '.btn, [data-sonner-toast] [data-close-button]';
    for (const section of document.querySelectorAll<HTMLElement>('.render-when-near')) {
      section.style.contentVisibility = 'visible';
    }
    const CONTROLS = [
      'a[href]',
      'button',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      'summary',
      '[role="button"]',
      '[role="link"]',
      '[role="slider"]',
      '[role="tab"]',
      '[role="checkbox"]',
      '[role="switch"]',
      '[role="menuitem"]',
    ].join(', ');
    const inText = (control: HTMLElement) => {
      if (control.tagName !== 'A' || getComputedStyle(control).display !== 'inline') return false;
      let block = control.parentElement;
      while (block && getComputedStyle(block).display === 'inline') block = block.parentElement;
      return (block?.textContent ?? '').trim().length > (control.textContent ?? '').trim().length;
    };
    const nameOf = (control: HTMLElement) => {
      const kind = (control as HTMLInputElement).type;
      const name =
        control.getAttribute('aria-label') ||
        (control.id && document.querySelector(`label[for="${control.id}"]`)?.textContent) ||
        control.textContent ||
        '';
      return `${control.tagName.toLowerCase()}${kind && control.tagName === 'INPUT' ? `[${kind}]` : ''} "${name.trim().slice(0, 40)}"`;
    };
    const shown: { control: HTMLElement; box: DOMRect; inText: boolean }[] = [];
    for (const control of root.querySelectorAll<HTMLElement>(CONTROLS)) {
      if (control.getClientRects().length === 0 || control.closest('[inert], [aria-hidden="true"]')) continue;
      if (getComputedStyle(control).visibility === 'hidden') continue;
      const kind = (control as HTMLInputElement).type;
      const holder = kind === 'checkbox' || kind === 'radio' ? (control.closest('label') ?? control) : control;
      const box = holder.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      shown.push({ control, box, inText: inText(control) });
    }

    type Area = { left: number; right: number; top: number; bottom: number };
    // A button's area is its box and its invisible `::after` (styles.css): 44 px about its middle on each side a
    // `.btn` is short, from its corner into the toast for a toast's Close. An `::after` absolutely placed resolves
    // its insets to pixels from the button's padding box.
    const areaOf = (control: HTMLElement, box: DOMRect): Area => {
      const after = getComputedStyle(control, '::after');
      if (!control.matches(WITH_AREA) || after.content === 'none' || after.position !== 'absolute') return box;
      const own = getComputedStyle(control);
      const inner = {
        left: box.left + parseFloat(own.borderLeftWidth),
        right: box.right - parseFloat(own.borderRightWidth),
        top: box.top + parseFloat(own.borderTopWidth),
        bottom: box.bottom - parseFloat(own.borderBottomWidth),
      };
      return {
        left: Math.min(box.left, inner.left + parseFloat(after.left)),
        right: Math.max(box.right, inner.right - parseFloat(after.right)),
        top: Math.min(box.top, inner.top + parseFloat(after.top)),
        bottom: Math.max(box.bottom, inner.bottom - parseFloat(after.bottom)),
      };
    };

    const found: string[] = [];
    for (const { control, box, inText: textLink } of shown) {
      if (textLink) continue;
      const area = areaOf(control, box);
      const width = Math.round(area.right - area.left);
      const height = Math.round(area.bottom - area.top);
      if (Math.min(width, height) >= 44) continue;
      found.push(`${nameOf(control)}: ${Math.round(box.width)} × ${Math.round(box.height)}`);
    }

    // A button's area reaches over a neighbour where a press on the neighbour's shown box lands on the button: what
    // is drawn above (a sticky bar, a later sibling) or clipped away (a scrolled list's hidden rows) decides, as for
    // a finger.
    const overlap = (area: Area, box: DOMRect) => ({
      left: Math.max(area.left, box.left),
      right: Math.min(area.right, box.right),
      top: Math.max(area.top, box.top),
      bottom: Math.min(area.bottom, box.bottom),
    });
    // Testing a press scrolls its button into view: every box scrolled, and the page, go back where they were.
    const scrolled = [document.scrollingElement ?? document.documentElement, ...document.querySelectorAll('*')]
      .filter((element) => element.scrollHeight > element.clientHeight || element.scrollWidth > element.clientWidth)
      .map((element) => ({ element, top: element.scrollTop, left: element.scrollLeft }));
    for (const { control, box } of shown) {
      if (!control.matches(WITH_AREA) || getComputedStyle(control, '::after').content === 'none') continue;
      if (box.width >= 44 && box.height >= 44) continue;
      for (const other of shown) {
        if (other.control === control || other.control.contains(control) || control.contains(other.control)) continue;
        const first = overlap(areaOf(control, box), other.box);
        // Under a pixel is rounding: boxes that touch are apart.
        if (first.right - first.left < 1 || first.bottom - first.top < 1) continue;
        control.scrollIntoView({ block: 'center', inline: 'center' });
        const kind = (other.control as HTMLInputElement).type;
        const holder =
          kind === 'checkbox' || kind === 'radio' ? (other.control.closest('label') ?? other.control) : other.control;
        const shared = overlap(areaOf(control, control.getBoundingClientRect()), holder.getBoundingClientRect());
        if (shared.right - shared.left < 1 || shared.bottom - shared.top < 1) continue;
        // Everything under the point, topmost first: clipped parts (a scrolled list's hidden rows) are not there.
        // The press is taken from the neighbour only where, but for the button, it would land on it: not where
        // what holds the button (a toast, a bar) covers the neighbour anyway.
        const under = document.elementsFromPoint((shared.left + shared.right) / 2, (shared.top + shared.bottom) / 2);
        const beneath = under.find((element) => !control.contains(element));
        if (!under[0] || !control.contains(under[0]) || !beneath || !holder.contains(beneath)) continue;
        found.push(
          `${nameOf(control)}'s 44 px area takes a press on ${nameOf(other.control)} over ${Math.round(Math.min(shared.right - shared.left, shared.bottom - shared.top))} px`,
        );
      }
    }
    for (const { element, top, left } of scrolled) element.scrollTo({ top, left, behavior: 'instant' });

    // A control of a bar (a sticky or fixed box that draws itself, as the mini-player) reaching out of it takes a
    // press on what the page shows beside the bar (decision 134): tested at the pixel beyond each edge it crosses,
    // where only a part of it that shows, not one clipped away, takes the press.
    for (const { control, box } of shown) {
      let bar = control.parentElement;
      while (bar && bar !== document.body) {
        const { position } = getComputedStyle(bar);
        const own = bar.getBoundingClientRect();
        // A toaster's list has no box of its own: its toasts are placed outside it.
        if ((position === 'sticky' || position === 'fixed') && own.width > 1 && own.height > 1) break;
        bar = bar.parentElement;
      }
      if (!bar || bar === document.body) continue;
      const edge = bar.getBoundingClientRect();
      const beyond = [
        { side: 'above', by: edge.top - box.top, x: (box.left + box.right) / 2, y: edge.top - 0.5 },
        { side: 'below', by: box.bottom - edge.bottom, x: (box.left + box.right) / 2, y: edge.bottom + 0.5 },
        { side: 'left of', by: edge.left - box.left, x: edge.left - 0.5, y: (box.top + box.bottom) / 2 },
        { side: 'right of', by: box.right - edge.right, x: edge.right + 0.5, y: (box.top + box.bottom) / 2 },
      ];
      for (const { side, by, x, y } of beyond) {
        // Under a pixel is rounding.
        if (by < 0.5) continue;
        const under = document.elementFromPoint(x, y);
        if (!under || !control.contains(under)) continue;
        found.push(`${nameOf(control)} reaches ${Math.round(by)} px ${side} its bar`);
      }
    }
    return found;
  }, within);

/** Opens the dialog `name` with `opener`, adds what `undersized` finds in it to `findings`, and closes it (Escape). */
export async function measureDialog(page: Page, findings: string[], opener: Locator, name: string | RegExp) {
  await opener.click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  for (const finding of await undersized(page, '[role="dialog"]')) findings.push(`${String(name)}: ${finding}`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}
