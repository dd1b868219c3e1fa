// One toaster per document. A pre-rendered page that hands over to the SPA (lean-page.tsx) keeps its
// toaster, so a message said just before the hand-over stays on screen; the SPA then mounts none.
export const toasterHost = {
  mountedByLeanPage: false,
  /** Resolves once a toaster listens. The SPA's mounts when idle; a lean page's on demand (lean-page.tsx). */
  ready: (): Promise<void> => Promise.resolve(),
};
