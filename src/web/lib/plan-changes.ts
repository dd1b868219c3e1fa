import { SESSION } from './session-keys';

// Between a person's tabs: the one that saw their plan change says so, the others read it again. No query client
// here, so the pre-rendered home page listens too (docs/decisions/127-billing-news-late-and-out-of-order.md).

/** Tells the person's other tabs that the plan changed here: the storage event reaches them (onPlanChangedElsewhere). */
export function announcePlanChanged(): void {
  try {
    localStorage.setItem(SESSION.storageKeys.planChanged, String(Date.now()));
  } catch {
    // Storage refused (private mode): the other tabs read the plan again when they show.
  }
}

/** Calls `changed` whenever another tab announces a plan change; returns the way to stop. */
export function onPlanChangedElsewhere(changed: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION.storageKeys.planChanged && event.newValue) changed();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
