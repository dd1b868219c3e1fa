import { useCallback, useEffect, useState } from 'react';
import type { ServedShared, SharedItem } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { ApiError, apiRequest } from '@web/lib/api-client';

// What a share link shows, read without TanStack Query or zod: the shared page is pre-rendered and
// starts light (docs/decisions/020-lean-pre-rendered-auth-pages.md). The server sends the answer
// through the contract's sharedItemSchema, so its shape is checked only as far as the page relies on it.
// Usually the server has already put it in the page's document (docs/decisions/024-the-server-fills-the-share-page.md).

/** The id of the data block in which the server hands the page what its link shares. */
export const SHARED_DATA_ID = 'innerwave-shared';

/**
 * The read the document started while its scripts loaded (the inline script of src/web/shared.html),
 * taken once, for the token it was started for.
 */
interface EarlyRead {
  path: string;
  response: Promise<Response>;
}
declare global {
  interface Window {
    __innerwaveShared?: EarlyRead;
  }
}

const looksShared = (body: unknown): body is SharedItem => {
  if (!body || typeof body !== 'object') return false;
  const item = body as Record<string, unknown>;
  return (
    (item.kind === 'subliminal' || item.kind === 'messages') &&
    typeof item.name === 'string' &&
    typeof item.shared_at === 'string' &&
    Array.isArray(item.messages) &&
    item.messages.every((message) => typeof message === 'string') &&
    (item.kind === 'messages' || (typeof item.settings === 'object' && item.settings !== null))
  );
};

async function readEarly(early: EarlyRead): Promise<unknown> {
  const answer = await early.response;
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text, as apiRequest does
  }
  if (!answer.ok) throw new ApiError(answer.status, body);
  return body;
}

/** Reads a share link anonymously (the early read when there is one); a 404 means revoked or unknown. */
export async function readSharedItem(token: string, signal?: AbortSignal): Promise<SharedItem> {
  const path = fillPath(API.shared, { token });
  const early = window.__innerwaveShared;
  window.__innerwaveShared = undefined;
  const body =
    early?.path === path ? await readEarly(early) : await apiRequest<unknown>(path, { signal, anonymous: true });
  if (!looksShared(body)) throw new Error('The link answered something this page cannot show.');
  return body;
}

export type SharedItemState =
  { status: 'pending' } | { status: 'ready'; item: SharedItem } | { status: 'error'; error: unknown };

/** The state a page starts from when the server already read its link (a gone link: the API's 404). */
const servedState = (served: ServedShared): SharedItemState =>
  served.status === 'ready' ? served : { status: 'error', error: new ApiError(404, { detail: 'Not found.' }) };

/**
 * What the server put in the document for its link (the data block before the early read of
 * src/web/shared.html), if it holds something the page can show. Taken once: the block is removed, so
 * a page the SPA shows later (another link, or this one again) reads its link.
 */
function takeServedShared(): ServedShared | undefined {
  const block = document.getElementById(SHARED_DATA_ID);
  if (!block) return undefined;
  block.remove();
  try {
    const served = JSON.parse(block.textContent ?? '') as { status?: unknown; item?: unknown };
    if (served.status === 'gone') return { status: 'gone' };
    if (served.status === 'ready' && looksShared(served.item)) return { status: 'ready', item: served.item };
  } catch {
    // not JSON: the page reads the link itself
  }
  return undefined;
}

let heldForPage: ServedShared | undefined;

/**
 * What the document held, for the share page: the lean page's (src/web/shared.tsx) and then the SPA's,
 * when the lean page starts the SPA (signed in) or hands over to it (a subliminal with sound). The SPA's
 * first render runs as a transition, which React starts over when an update comes first (another tab's
 * token refresh, through the storage event), and asks again. The same answer each time until the SPA's
 * page is on screen (`releaseServedShared`), so a page the SPA shows later (another link, or this one
 * again) reads its link.
 */
export function servedSharedForPage(): ServedShared | undefined {
  heldForPage = takeServedShared() ?? heldForPage;
  return heldForPage;
}

export function releaseServedShared(): void {
  heldForPage = undefined;
}

/**
 * The shared item once per visit (the public read is rate-limited per address): pending on the
 * first render, as the pre-rendered page is, then ready or failed; `retry` reads it again. Given
 * what the server read (`served`), the page starts from that and reads nothing.
 */
export function useSharedItem(token: string, served?: ServedShared): SharedItemState & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<SharedItemState & { token: string; attempt: number }>(() => ({
    ...(served ? servedState(served) : { status: 'pending' }),
    token,
    attempt,
  }));
  const [servedToken] = useState(served ? token : undefined);
  useEffect(() => {
    if (attempt === 0 && token === servedToken) return;
    const controller = new AbortController();
    readSharedItem(token, controller.signal).then(
      (item) => setState({ status: 'ready', item, token, attempt }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error, token, attempt });
      },
    );
    return () => controller.abort();
  }, [token, attempt, servedToken]);
  const retry = useCallback(() => setAttempt((value) => value + 1), []);
  const current = state.token === token && state.attempt === attempt ? state : { status: 'pending' as const };
  return { ...current, retry };
}
