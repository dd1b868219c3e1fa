/** Leaves the portal for a page of another site (Stripe's), as a full page load. */
export function leaveFor(url: string): void {
  window.location.assign(url);
}
