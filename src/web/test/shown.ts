import { onTestFinished } from 'vitest';

/**
 * jsdom lays nothing out, so it has no `checkVisibility`, which the keyboard's hand-overs ask before they focus (a
 * heading, a control not shown is left): for the test that calls this, or each test of a `beforeEach` that does, every
 * element counts as shown.
 */
export function everyElementShown(): void {
  Element.prototype.checkVisibility = () => true;
  onTestFinished(() => void Reflect.deleteProperty(Element.prototype, 'checkVisibility'));
}
