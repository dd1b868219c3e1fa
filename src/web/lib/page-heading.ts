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

/**
 * For a control about to go with the part of the page that holds it, no neighbour taking its place (a dialog's trigger
 * whose confirmed change removes it, a card dismissed): the function returned, called once the change is made, waits
 * for the control to go and puts the keyboard on the page's heading, where it fell to the page's top with the
 * control. Unless the person has put the keyboard somewhere meanwhile (docs/decisions/114-buttons-wait-with-the-keyboard.md).
 */
export function keyboardToPageHeadingOnceGone(control: HTMLElement | null): () => void {
  return () => {
    let frames = 60;
    const whenGone = () => {
      if (control?.isConnected) {
        if (--frames > 0) requestAnimationFrame(whenGone);
        return;
      }
      if (document.activeElement && document.activeElement !== document.body) return;
      focusPageHeading();
    };
    requestAnimationFrame(whenGone);
  };
}
