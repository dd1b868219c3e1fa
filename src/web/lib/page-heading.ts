/**
 * Puts the keyboard, and a screen reader, on the page's heading (`#main h1`, focusable for it, with no ring:
 * styles.css), and says whether it could: a heading not shown yet is left. Where a link lands
 * (app/router-navigation.tsx), and where the keyboard goes from a control that leaves the page under it, such as
 * the mini-player's Stop (docs/decisions/113-sound-sessions-walked.md).
 */
export function focusPageHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('#main h1');
  if (!heading?.checkVisibility()) return false;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  return document.activeElement === heading;
}
