import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, describeError, retryAfterMs } from './api-client';
import { sessionStore } from './session';

// The browser's network stack is outside the web app: fetch and XMLHttpRequest answer as the server would.

interface Sent {
  method: string;
  url: string;
  auth: string | undefined;
  body: unknown;
}

/** An XMLHttpRequest whose server answers with `answer`, after reporting the upload in two halves. */
function xhrAnswering(answer: (sent: Sent) => { status: number; body: unknown }) {
  const sent: Sent[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
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
        const { status, body: answerBody } = answer(call);
        this.status = status;
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
