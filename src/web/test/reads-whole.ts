// jsdom lays nothing out, so whether a text reads whole is asked of its classes (Tailwind's): none of the boxes
// around it cuts it to a line, and one of them lets a long word break where it must, so it wraps inside its box
// instead of running out of it (docs/decisions/079-a-phone-shows-the-whole-text.md).

const CUTS = /(?:^|\s)(truncate|text-ellipsis|line-clamp-\d+|whitespace-nowrap|text-nowrap)(?=\s|$)/;
const WRAPS = /(?:^|\s)(wrap-anywhere|wrap-break-word|break-words|break-all)(?=\s|$)/;

/** Why `element`'s text does not read whole, looking at it and its boxes up to `within`; null when it does. */
export function whyNotWhole(element: Element, within: Element = document.body): string | null {
  if (element.tagName === 'INPUT') return 'an <input> shows one line: a longer text is cut at its width';
  let wraps = element.tagName === 'TEXTAREA';
  for (let box: Element | null = element; box && box !== within; box = box.parentElement) {
    const className = box.getAttribute('class') ?? '';
    const cut = CUTS.exec(className)?.[1];
    if (cut) return `cut to a line by "${cut}" on <${box.tagName.toLowerCase()} class="${className}">`;
    wraps ||= WRAPS.test(className);
  }
  return wraps ? null : 'nothing lets a long word break: it runs out of its box';
}

/** A getByText matcher for a text that is split into pieces (UnbrokenAddress): the innermost element holding it whole. */
export const wholeText = (text: string) => (_: string, element: Element | null) =>
  !!element && element.textContent === text && ![...element.children].some((child) => child.textContent === text);
