import { useCallback, useEffect, useState } from 'react';
import type { SharedItem } from '@shared/contract';
import { API, fillPath } from '@shared/contract/paths';
import { ApiError, apiRequest } from '@web/lib/api-client';

// What a share link shows, read without TanStack Query or zod: the shared page is pre-rendered and
// starts light (docs/decisions/020-lean-pre-rendered-auth-pages.md). The server sends the answer
// through the contract's sharedItemSchema, so its shape is checked only as far as the page relies on it.

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

/**
 * The shared item once per visit (the public read is rate-limited per address): pending on the
 * first render, as the pre-rendered page is, then ready or failed; `retry` reads it again.
 */
export function useSharedItem(token: string): SharedItemState & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<SharedItemState & { token: string; attempt: number }>({
    status: 'pending',
    token,
    attempt,
  });
  useEffect(() => {
    const controller = new AbortController();
    readSharedItem(token, controller.signal).then(
      (item) => setState({ status: 'ready', item, token, attempt }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error, token, attempt });
      },
    );
    return () => controller.abort();
  }, [token, attempt]);
  const retry = useCallback(() => setAttempt((value) => value + 1), []);
  const current = state.token === token && state.attempt === attempt ? state : { status: 'pending' as const };
  return { ...current, retry };
}
