import { useEffect } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { sessionStore } from './session';

// What a person writes in a form, kept for the tab (sessionStorage) under the form's name and the person's id, as
// they type: a session that ends meanwhile sends them to log in, and the form gives it back once they are in again
// on the same page (docs/product/accounts.md#session-in-the-browser); so does a reload. Another account signed in
// in the tab never finds it. Dropped once the form is sent, cancelled or emptied, and all of a person's at once when
// they log out or delete their account, in every tab. Which forms keep one, and why:
// docs/decisions/068-forms-that-keep-what-was-typed.md; why a logout takes them: docs/decisions/077-a-logout-takes-what-was-typed.md.

/** Where the draft of `form` is kept for `person`: `dropDraftsOf` finds a person's drafts by it. */
export const draftKey = (form: string, person: number | 'anonymous') => `draft.${form}.${person}`;

function read(form: string): Record<string, unknown> | null {
  const { id } = sessionStore.get();
  if (id === null) return null;
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(draftKey(form, id)) ?? 'null');
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function write(form: string, values: Record<string, unknown> | null): void {
  const { id, isAuthenticated } = sessionStore.get();
  // A session ended (or another person's): what the form still holds is no one's to keep.
  if (!isAuthenticated || id === null) return;
  try {
    if (values === null) sessionStorage.removeItem(draftKey(form, id));
    else sessionStorage.setItem(draftKey(form, id), JSON.stringify(values));
  } catch {
    // Storage full or refused: the form works as before, without a copy.
  }
}

/**
 * The draft kept of `form` for the person signed in, if any: `restore` takes from the kept values the ones the form
 * has (null when they are not the form's). Read once, for the form's first values.
 */
export function keptDraft<Values>(
  form: string,
  restore: (kept: Record<string, unknown>) => Values | null,
): Values | null {
  const kept = read(form);
  return kept ? restore(kept) : null;
}

/** Drops every draft `person` has in this tab's storage. */
function dropHere(person: number): void {
  try {
    // The person's id is the key's last part; a form's name may hold dots of its own.
    const keys = Array.from({ length: sessionStorage.length }, (_, index) => sessionStorage.key(index));
    for (const key of keys) if (key?.startsWith('draft.') && key.endsWith(`.${person}`)) sessionStorage.removeItem(key);
  } catch {
    // Storage refused: nothing was kept in it either.
  }
}

/**
 * The ends of a session that take the person's drafts: they logged out (on a shared computer what they typed goes
 * with them) or deleted their account. A session that merely ends (an expiry, a sign-out from elsewhere, a new
 * password) keeps them, to be given back after the next login, and is told to no other tab.
 */
export type DraftsTakingEnd = 'logout' | 'account-deleted';

/** What a tab tells the browser's other tabs as a person's session ends by their own doing: whose, and why. */
interface SessionEndedMessage {
  person: number;
  why: DraftsTakingEnd;
}

// Each tab's drafts are in its own storage, which only it can reach: the tab where the session ended tells the
// others, which drop theirs. The storage event that ends their session too says nothing of why
// (docs/decisions/088-a-logout-in-one-tab-takes-what-every-tab-typed.md).
const SESSION_ENDED_CHANNEL = 'innerwave.session-ended';
let channel: BroadcastChannel | null | undefined;
/** The channel between this browser's tabs, or null where the browser has none. */
function sessionEndedChannel(): BroadcastChannel | null {
  channel ??= typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_ENDED_CHANNEL);
  return channel;
}

/** Drops every draft `person` has, in this tab and the browser's other tabs, for the end `why`. */
export function dropDraftsOf(person: number, why: DraftsTakingEnd): void {
  dropHere(person);
  const message: SessionEndedMessage = { person, why };
  sessionEndedChannel()?.postMessage(message);
}

/** Whether another tab's message is one that takes drafts: anything else (another end, another sender) keeps them. */
const takesDrafts = (data: unknown): data is SessionEndedMessage => {
  const message = data as Partial<SessionEndedMessage> | null;
  return typeof message?.person === 'number' && (message.why === 'logout' || message.why === 'account-deleted');
};

/** Drops here the drafts of a person who logged out or deleted their account in another tab. Returns a stop function. */
export function followDraftsOfOtherTabs(): () => void {
  const tabs = sessionEndedChannel();
  const hear = ({ data }: MessageEvent) => {
    if (takesDrafts(data)) dropHere(data.person);
  };
  tabs?.addEventListener('message', hear);
  return () => tabs?.removeEventListener('message', hear);
}

/** Drops the draft of `form`: it was sent, or cancelled. */
export const dropDraft = (form: string) => write(form, null);

/** Keeps `values` as the draft of `form`, for a form that holds its text in its own state (not react-hook-form). */
export const keepDraft = (form: string, values: Record<string, unknown>) => write(form, values);

/**
 * Keeps the draft of `form` (react-hook-form) as it is typed; `isEmpty` tells a form with nothing worth keeping,
 * whose draft goes. `besides` (stable between renders) is kept with the values: what the form needs to say of them
 * once given back, e.g. that a save of them was refused.
 */
export function useKeepDraft<Values extends FieldValues, Output extends FieldValues = Values>(
  name: string,
  form: UseFormReturn<Values, unknown, Output>,
  isEmpty: (values: Partial<Values>) => boolean,
  besides?: Record<string, unknown>,
): void {
  useEffect(() => {
    const subscription = form.watch((values) =>
      write(name, isEmpty(values as Partial<Values>) ? null : { ...values, ...besides }),
    );
    return () => subscription.unsubscribe();
  }, [form, name, isEmpty, besides]);
}
