// Constants from zod-free modules, and the refresh (with the contract) when a 401 needs it: the
// auth pages import this client, and their first load stays without zod.
import { MEDIA_LINK_MIN_LIFETIME_SECONDS } from '@shared/contract/paths';
import { NON_FIELD_ERRORS } from '@shared/contract/plain';
import type { QueryFunctionContext } from '@tanstack/react-query';
import { sessionStore } from './session';

/** What a call that never reached the server says (fetch and XMLHttpRequest fail with a TypeError). */
export const OFFLINE_MESSAGE = 'You seem to be offline. Check your connection and try again.';

/**
 * What an account call refused for too many attempts (429) says: the server's own words count seconds
 * ("Request was throttled. Expected available in 712 seconds."). Ours; the spec has no text for it.
 */
export const THROTTLED_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';

/**
 * What a call answered 5xx with no words of its own says: a proxy's page for a server that is down or
 * restarting (502, 503, 504), an empty answer. Ours; the spec has no text for it.
 */
export const SERVER_UNAVAILABLE_MESSAGE = 'The server could not answer just now. Please try again in a moment.';

/** What a call the server did not answer in time says. Ours; the spec has no text for it. */
export const TIMEOUT_MESSAGE = 'The server took too long to answer. Please try again in a moment.';

export const isNetworkFailure = (error: unknown) => error instanceof TypeError;

// No call waits for ever on a server that hangs: each kind gives up after its own time and fails with a
// TimeoutError (TIMEOUT_MESSAGE), so a form's button does not spin on. Uploads with progress are not
// timed as a whole (100 MB of music on a slow line may take many minutes), only while nothing moves.

/** A JSON call: the answer within 30 s. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** A file to save (`responseType` 'text' or 'blob', an export) or a small form upload sent by fetch (a voice take): 2 min. */
export const LONG_REQUEST_TIMEOUT_MS = 120_000;
/** An upload with progress: given up after 60 s without a byte sent… */
export const UPLOAD_STALL_MS = 60_000;
/** …or 2 min after its last byte without an answer (the server checks the file). */
export const UPLOAD_ANSWER_MS = 120_000;

/** Whether a call failed because the server did not answer in time (RequestOptions.timeoutMs). */
export const isTimeout = (error: unknown) => error instanceof DOMException && error.name === 'TimeoutError';
const timeoutError = () => new DOMException('The server did not answer in time.', 'TimeoutError');
/**
 * Whether a failed call may pass when tried again as it was: no network, no answer in time, the server failing (5xx) or
 * asking to wait (429). A 4xx else says what tried again would meet again (a thing gone, a plan, a limit).
 */
export const mayPassWhenTriedAgain = (error: unknown) =>
  isNetworkFailure(error) ||
  isTimeout(error) ||
  (error instanceof ApiError && (error.status >= 500 || error.status === 429));

/**
 * How long an answer's Retry-After asks to wait, in ms (0 when it is absent or unreadable): seconds
 * (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`).
 */
export function retryAfterMs(error: unknown, now = Date.now()): number {
  const value = error instanceof ApiError ? error.retryAfter?.trim() : undefined;
  if (!value) return 0;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
}

/**
 * Whether a call failed because the server no longer accepts the session (signed out from another
 * browser, or expired): apiRequest has then ended it, with its one toast and the trip to login
 * (lib/session-refresh.ts), so the caller says nothing of its own.
 */
export const endedTheSession = (error: unknown) =>
  error instanceof ApiError && error.status === 401 && !sessionStore.get().isAuthenticated;

/**
 * The message worth showing for a failed call: the server's detail, or its first field error. Here
 * rather than in lib/change (TanStack Query, sonner) so that pre-rendered pages can say it too.
 */
export function describeError(error: unknown): string {
  if (isNetworkFailure(error)) return OFFLINE_MESSAGE;
  if (isTimeout(error)) return TIMEOUT_MESSAGE;
  if (error instanceof ApiError) {
    const first = Object.values(error.fieldErrors)[0];
    if (first && !error.message.startsWith('Request failed')) return error.message;
    return first ?? error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The messages of a field's errors: its list, or every message of a nested object's fields. */
function messagesOf(errors: unknown): string[] {
  if (Array.isArray(errors)) return errors.filter((message) => typeof message === 'string');
  if (errors && typeof errors === 'object') return Object.values(errors).flatMap(messagesOf);
  return [];
}

/** A non-2xx answer, with the body the server sent (DRF shapes). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** The answer's Retry-After header (a 429, a 503), as sent: seconds or an HTTP date. */
    readonly retryAfter: string | null = null,
  ) {
    super(ApiError.describe(status, body));
    this.name = 'ApiError';
  }

  /**
   * `{"field": ["message", …]}` bodies as field → its messages in one text: a password that breaks two
   * rules is told both (docs/product/accounts.md#password-rules), each message being a sentence, and
   * each sentence once. A nested object's errors (`{"settings": {"flashSpeed": ["…"]}}`) are its
   * field's: the forms have no field for what lies inside.
   */
  get fieldErrors(): Record<string, string> {
    if (!this.body || typeof this.body !== 'object') return {};
    const out: Record<string, string> = {};
    for (const [field, messages] of Object.entries(this.body)) {
      const texts = messagesOf(messages);
      // A sentence the server repeats (one per list item that broke the same rule) is said once.
      if (texts.length > 0) out[field] = [...new Set(texts)].join(' ');
    }
    return out;
  }

  static describe(status: number, body: unknown): string {
    if (body && typeof body === 'object') {
      if ('detail' in body && typeof body.detail === 'string') return body.detail;
      const nonField = (body as Record<string, unknown>)[NON_FIELD_ERRORS];
      if (Array.isArray(nonField) && typeof nonField[0] === 'string') return nonField[0];
    }
    // A bare status code tells a person nothing; that the server failed, and to try again, does.
    if (status >= 500) return SERVER_UNAVAILABLE_MESSAGE;
    return `Request failed with status code ${status}`;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Leave out the bearer token (login, signup, refresh). */
  anonymous?: boolean;
  /**
   * What a 401 on a call with a bearer means. 'expire' (the default): renew the access token once
   * and retry, else end the session (toast, to login). 'renew': renew once and retry, else leave the 401 to
   * the caller with the session as it is (the pre-rendered home, which sends nobody to login). 'throw': leave
   * it to the caller at once (logout, an early read).
   */
  onUnauthorized?: 'expire' | 'renew' | 'throw';
  /**
   * Called with the fraction (0–1) of the body sent, when the browser can tell. Such a call goes out
   * with XMLHttpRequest, because fetch reports no upload progress; everything else is the same.
   */
  onUploadProgress?: (fraction: number) => void;
  /**
   * 'text': a successful answer is returned as its text, unparsed; 'blob': as its bytes, never held as one string
   * (a file to save, however large).
   */
  responseType?: 'json' | 'text' | 'blob';
  /** Handed a successful answer's headers, for what a call says there (set_password's SESSIONS_ENDED_HEADER). */
  onHeaders?: (header: (name: string) => string | null) => void;
  /** The call outlives the page (fetch's keepalive): a record sent as the tab closes. */
  keepalive?: boolean;
  /**
   * How long the answer may take before the call fails with a TimeoutError, in ms: by default
   * REQUEST_TIMEOUT_MS, LONG_REQUEST_TIMEOUT_MS for a file to save or a form sent by fetch. Uploads
   * with progress are timed by UPLOAD_STALL_MS and UPLOAD_ANSWER_MS instead.
   */
  timeoutMs?: number;
}

/**
 * What a query names of its calls in its `meta`, which TanStack Query hands its function: what a 401 does
 * (RequestOptions.onUnauthorized).
 */
export type QueryMeta = { onUnauthorized?: RequestOptions['onUnauthorized'] };

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: QueryMeta;
  }
}

/**
 * The options of a query's call, from the context its function is given: the query's signal, and what a 401 does when
 * the query's `meta` names it. The app names nothing there, so a 401 renews or ends the session; a pre-rendered page's
 * early reads run the same functions with 'throw' (lib/early-reads.ts), and their 401 is left to the app, whatever
 * the function awaits before its call. Every query's function calls the API with these.
 */
export const fromQuery = ({ signal, meta }: Pick<QueryFunctionContext, 'signal' | 'meta'>): RequestOptions => ({
  signal,
  onUnauthorized: meta?.onUnauthorized,
});

export function authHeader(): Record<string, string> {
  const access = sessionStore.get().access;
  return access ? { Authorization: `Bearer ${access}` } : {};
}

/**
 * Calls the API: JSON in and out, the bearer token when signed in, errors as ApiError. The answer is
 * typed, not parsed: `T` is the contract's type for it (`Profile`, `AudioItem[]`), whose schema the
 * server sends every answer through, so a page builds no schema to read one
 * (docs/decisions/030-the-browser-reads-answers-the-server-checked.md).
 */
export async function apiRequest<T = void>(path: string, options: RequestOptions = {}): Promise<T> {
  // The session the call is sent in: a 401 renews or ends that one alone, never one another tab signed in since.
  const { isAuthenticated, refresh } = sessionStore.get();
  try {
    return await send(path, options);
  } catch (error) {
    const withBearer = !options.anonymous && isAuthenticated;
    if (!(error instanceof ApiError) || error.status !== 401 || !withBearer || options.onUnauthorized === 'throw')
      throw error;
    // The access token may just be older than its 5 minutes: renew it once, then give up.
    const { expireSession, refreshAccessToken } = await import('./session-refresh');
    const outcome = await refreshAccessToken(refresh);
    const refusalEndsSession = options.onUnauthorized !== 'renew';
    if (outcome === 'refreshed') {
      try {
        return await send(path, options);
      } catch (retryError) {
        if (refusalEndsSession && retryError instanceof ApiError && retryError.status === 401) expireSession(refresh);
        throw retryError;
      }
    }
    if (outcome === 'rejected' && refusalEndsSession) expireSession(refresh);
    throw error;
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...(options.anonymous ? {} : authHeader()) };
  let body: FormData | string | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const request = {
    method: options.method ?? 'GET',
    headers,
    body,
    signal: options.signal,
    keepalive: options.keepalive,
  };
  const timeoutMs =
    options.timeoutMs ??
    ((options.responseType ?? 'json') !== 'json' || body instanceof FormData
      ? LONG_REQUEST_TIMEOUT_MS
      : REQUEST_TIMEOUT_MS);
  const response = options.onUploadProgress
    ? await sendWithProgress(path, request, options.onUploadProgress)
    : await withTimeout(timeoutMs, options.signal, (signal) =>
        fetch(path, { ...request, signal }).then(async (answer) => {
          const blob = options.responseType === 'blob' && answer.ok ? await answer.blob() : undefined;
          return {
            status: answer.status,
            text: blob ? '' : await answer.text(),
            blob,
            retryAfter: answer.headers.get('Retry-After'),
            header: (name: string) => answer.headers.get(name),
          };
        }),
      );
  const ok = response.status >= 200 && response.status <= 299;
  if (ok) options.onHeaders?.(response.header);
  if (ok && options.responseType === 'text') return response.text as T;
  if (ok && 'blob' in response && response.blob) return response.blob as T;
  let json: unknown = undefined;
  if (response.text) {
    try {
      json = JSON.parse(response.text);
    } catch {
      json = response.text;
    }
  }
  if (!ok) throw new ApiError(response.status, json, response.retryAfter);
  return json as T;
}

/**
 * Runs `call` with a signal that aborts when `signal` does or after `ms`; past `ms` it fails with a
 * TimeoutError, whether or not the call heeds its signal.
 */
async function withTimeout<T>(
  ms: number,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const giveUp = new AbortController();
  const forward = () => giveUp.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = timeoutError();
      giveUp.abort(timeout);
      reject(timeout);
    }, ms);
  });
  try {
    return await Promise.race([call(giveUp.signal), late]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

interface RawRequest {
  method: string;
  headers: Record<string, string>;
  body: FormData | string | undefined;
  signal: AbortSignal | undefined;
}

/**
 * The request of `send` through XMLHttpRequest; fails as fetch does (TypeError, AbortError), and with a
 * TimeoutError once nothing has been sent for UPLOAD_STALL_MS, or no answer has come UPLOAD_ANSWER_MS
 * after the last byte.
 */
function sendWithProgress(
  path: string,
  { method, headers, body, signal }: RawRequest,
  onProgress: (fraction: number) => void,
): Promise<{ status: number; text: string; retryAfter: string | null; header: (name: string) => string | null }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const xhr = new XMLHttpRequest();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    const giveUpIn = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        xhr.abort();
      }, ms);
    };
    const settle = () => clearTimeout(timer);
    xhr.open(method, path);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      giveUpIn(UPLOAD_STALL_MS);
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => giveUpIn(UPLOAD_ANSWER_MS);
    // Uploads are not tried again by themselves; their Retry-After only tells the person how long to wait.
    xhr.onload = () => {
      settle();
      resolve({
        status: xhr.status,
        text: xhr.responseText,
        retryAfter: xhr.getResponseHeader('Retry-After'),
        header: (name) => xhr.getResponseHeader(name),
      });
    };
    xhr.onerror = () => {
      settle();
      reject(new TypeError('The upload failed: the connection was lost.'));
    };
    xhr.onabort = () => {
      settle();
      if (timedOut) reject(timeoutError());
      else reject(signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError'));
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    giveUpIn(UPLOAD_STALL_MS);
    xhr.send(body ?? null);
  });
}

/**
 * Answers that name media files carry signed URLs that expire; a screen left open refetches them
 * long before, so a play or download button never holds a dead link.
 */
export const MEDIA_LINKS_REFETCH_MS = (MEDIA_LINK_MIN_LIFETIME_SECONDS * 1000) / 6;
