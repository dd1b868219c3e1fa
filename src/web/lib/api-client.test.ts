import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiRequest,
  describeError,
  LONG_REQUEST_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  retryAfterMs,
  SERVER_UNAVAILABLE_MESSAGE,
  TIMEOUT_MESSAGE,
  UPLOAD_ANSWER_MS,
  UPLOAD_STALL_MS,
} from './api-client';
import { sessionStore } from './session';

// The browser's network stack is outside the web app: fetch and XMLHttpRequest answer as the server would.

interface Sent {
  method: string;
  url: string;
  auth: string | undefined;
  body: unknown;
}

/** An XMLHttpRequest whose server answers with `answer`, after reporting the upload in two halves. */
function xhrAnswering(answer: (sent: Sent) => { status: number; body: unknown; retryAfter?: string }) {
  const sent: Sent[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    private retryAfter: string | null = null;
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'retry-after' ? this.retryAfter : null;
    }
    upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
    onload?: () => void;
    onerror?: () => void;
    onabort?: () => void;
    private request = { method: '', url: '', headers: {} as Record<string, string> };
    private aborted = false;
    open(method: string, url: string) {
      this.request = { method, url, headers: {} };
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    abort() {
      this.aborted = true;
      this.onabort?.();
    }
    send(body: unknown) {
      const call = { ...this.request, auth: this.request.headers.Authorization, body };
      sent.push(call);
      setTimeout(() => {
        if (this.aborted) return;
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
        this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
        const { status, body: answerBody, retryAfter = null } = answer(call);
        this.status = status;
        this.retryAfter = retryAfter;
        this.responseText = JSON.stringify(answerBody);
        this.onload?.();
      }, 5);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const refreshAnswering = (access: string) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ access }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    ),
  );

describe('an upload with progress', () => {
  afterEach(() => {
    sessionStore.clear();
    vi.unstubAllGlobals();
  });

  it('reports the bytes sent, and renews a refused access token once and sends again, as every call does', async () => {
    sessionStore.setTokens({ access: 'old', refresh: 'r1' }, 'member@example.com');
    refreshAnswering('new');
    const sent = xhrAnswering(({ auth }) =>
      auth === 'Bearer new'
        ? { status: 201, body: { id: 7 } }
        : { status: 401, body: { detail: 'Given token not valid for any token type', code: 'token_not_valid' } },
    );
    const form = new FormData();
    form.append('name', 'Calm');
    const progress: number[] = [];

    const created = await apiRequest<{ id: number }>('/api/admin/things/', {
      method: 'POST',
      body: form,
      onUploadProgress: (fraction) => progress.push(fraction),
    });

    expect(created).toEqual({ id: 7 });
    expect(sent.map(({ method, url, auth }) => [method, url, auth])).toEqual([
      ['POST', '/api/admin/things/', 'Bearer old'],
      ['POST', '/api/admin/things/', 'Bearer new'],
    ]);
    expect(sent[1]?.body).toBe(form);
    expect(progress).toEqual([0.5, 1, 0.5, 1]);
  });

  it('fails with the server’s field errors, and stops when its signal aborts', async () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    xhrAnswering(() => ({ status: 400, body: { name: ['This field may not be blank.'] } }));
    const refused = apiRequest('/api/admin/things/', {
      method: 'POST',
      body: new FormData(),
      onUploadProgress: () => {},
    });
    await expect(refused).rejects.toMatchObject({ status: 400, fieldErrors: { name: 'This field may not be blank.' } });

    // A limit's answer says how long to wait, for the person to be told (a profile picture's hourly limit).
    xhrAnswering(() => ({ status: 429, body: { detail: 'Request was throttled.' }, retryAfter: '1412' }));
    const throttled = apiRequest('/api/user/profile/', {
      method: 'PUT',
      body: new FormData(),
      onUploadProgress: () => {},
    });
    await expect(throttled).rejects.toMatchObject({ status: 429, retryAfter: '1412' });

    const controller = new AbortController();
    const aborted = apiRequest('/api/admin/things/', {
      method: 'POST',
      body: new FormData(),
      signal: controller.signal,
      onUploadProgress: () => {},
    });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('an error answer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says each of a field’s sentences once, in the order the server gave them', () => {
    const repeated = 'Two days cannot come from the same day.';
    const error = new ApiError(400, {
      days: [repeated, repeated, repeated],
      password: ['This password is too short.', 'This password is too common.', 'This password is too short.'],
    });
    expect(error.fieldErrors).toEqual({
      days: repeated,
      password: 'This password is too short. This password is too common.',
    });
  });

  it('says a nested object’s errors as its field’s, each sentence once', () => {
    const required = 'This field is required.';
    const error = new ApiError(400, {
      settings: {
        flashSpeed: [required],
        fontSize: [required],
        customTheme: { background: ['Enter a colour as #RRGGBB.'] },
      },
    });
    expect(error.fieldErrors).toEqual({ settings: 'This field is required. Enter a colour as #RRGGBB.' });
    expect(describeError(error)).toBe('This field is required. Enter a colour as #RRGGBB.');
  });

  it('says that the server failed, not its bare status, when a 5xx brings no words of its own', async () => {
    const answers = [
      new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502 }),
      new Response(null, { status: 503 }),
      new Response(JSON.stringify({ detail: 'A server error occurred.' }), { status: 500 }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answers.shift()!),
    );
    const messages = [];
    for (let i = 0; i < 3; i++)
      messages.push(await apiRequest('/api/user/programs/').catch((error: unknown) => describeError(error)));
    expect(messages).toEqual([SERVER_UNAVAILABLE_MESSAGE, SERVER_UNAVAILABLE_MESSAGE, 'A server error occurred.']);
  });
});

describe('retryAfterMs', () => {
  it('reads a Retry-After in seconds or as an HTTP date, and nothing from what is neither', () => {
    const now = Date.parse('2026-12-03T12:00:00Z');
    const answer = (retryAfter: string | null) => new ApiError(429, {}, retryAfter);
    expect(retryAfterMs(answer('120'), now)).toBe(120_000);
    expect(retryAfterMs(answer('Thu, 03 Dec 2026 12:05:00 GMT'), now)).toBe(300_000);
    expect(retryAfterMs(answer('Thu, 03 Dec 2026 11:00:00 GMT'), now)).toBe(0);
    expect(retryAfterMs(answer('soon'), now)).toBe(0);
    expect(retryAfterMs(answer(null), now)).toBe(0);
    expect(retryAfterMs(new TypeError('Failed to fetch'), now)).toBe(0);
  });
});

describe('a server that does not answer', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** A fetch that never answers, but gives up as the browser's does when its signal aborts. */
  function hangingFetch() {
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_path: string, init: RequestInit) =>
          new Promise<never>((_, reject) => {
            signals.push(init.signal!);
            init.signal!.addEventListener('abort', () => reject(init.signal!.reason));
          }),
      ),
    );
    return signals;
  }

  /** Settles `call`, reporting how: 'pending', or the error's name. */
  function watch(call: Promise<unknown>) {
    const state: { outcome: string; error?: unknown } = { outcome: 'pending' };
    call.then(
      () => (state.outcome = 'answered'),
      (error: unknown) => Object.assign(state, { outcome: (error as Error).name, error }),
    );
    return state;
  }

  it('gives a JSON call up after 30 s with a message saying so, and aborts the request', async () => {
    vi.useFakeTimers();
    const signals = hangingFetch();
    const call = watch(apiRequest('/api/user/profile/', { method: 'PATCH', body: { first_name: 'Ada' } }));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(call.outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(call.outcome).toBe('TimeoutError');
    expect(describeError(call.error)).toBe(TIMEOUT_MESSAGE);
    expect(signals[0]!.aborted).toBe(true);
  });

  it('gives a file to save, or a form sent by fetch, 2 min; a call may ask for its own time', async () => {
    vi.useFakeTimers();
    hangingFetch();
    const exported = watch(apiRequest('/api/user/my-messages/export/?format=csv', { responseType: 'text' }));
    const form = new FormData();
    const take = watch(apiRequest('/api/user/my-voice/', { method: 'POST', body: form }));
    const quick = watch(apiRequest('/api/user/history/', { method: 'POST', body: {}, timeoutMs: 5000 }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(quick.outcome).toBe('TimeoutError');
    await vi.advanceTimersByTimeAsync(LONG_REQUEST_TIMEOUT_MS - 5001);
    expect([exported.outcome, take.outcome]).toEqual(['pending', 'pending']);
    await vi.advanceTimersByTimeAsync(1);
    expect([exported.outcome, take.outcome]).toEqual(['TimeoutError', 'TimeoutError']);
  });

  it('still fails as cancelled, not timed out, when the caller aborts', async () => {
    hangingFetch();
    const controller = new AbortController();
    const call = apiRequest('/api/user/player/', { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('lets an upload with progress take as long as bytes move, and gives it up once they stop or no answer comes', async () => {
    vi.useFakeTimers();
    const uploads: Array<{
      upload: { onprogress?: (event: object) => void; onload?: () => void };
      aborted: boolean;
      onabort?: () => void;
    }> = [];
    class SlowXhr {
      upload: { onprogress?: (event: object) => void; onload?: () => void } = {};
      aborted = false;
      onabort?: () => void;
      onload?: () => void;
      onerror?: () => void;
      open() {}
      setRequestHeader() {}
      send() {
        uploads.push(this);
      }
      abort() {
        this.aborted = true;
        this.onabort?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', SlowXhr);
    const send = () =>
      watch(apiRequest('/api/user/my-music/', { method: 'POST', body: new FormData(), onUploadProgress: () => {} }));
    const moving = send();
    // Ten minutes of a slow line: a byte every 50 s.
    for (let minute = 0; minute < 12; minute++) {
      await vi.advanceTimersByTimeAsync(50_000);
      uploads[0]!.upload.onprogress?.({ lengthComputable: true, loaded: minute, total: 100 });
    }
    expect(moving.outcome).toBe('pending');
    // All sent: the answer may take 2 min (the server checks the file), no longer.
    uploads[0]!.upload.onload?.();
    await vi.advanceTimersByTimeAsync(UPLOAD_ANSWER_MS - 1);
    expect(moving.outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(moving.outcome).toBe('TimeoutError');
    expect(uploads[0]!.aborted).toBe(true);

    const stalled = send();
    await vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS);
    expect(stalled.outcome).toBe('TimeoutError');
    expect(describeError(stalled.error)).toBe(TIMEOUT_MESSAGE);
  });
});
