import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyPluginAsync } from 'fastify';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_API, API } from '@shared/contract';
import { createTestApp, type TestApp } from '../test/test-app';
import { signedInUser, type SignedInUser } from '../test/fixtures';

// Connections that hold the server without finishing their request, and load the server sheds.

/** Every file under the media folder, relative to it (the staging folder included). */
const mediaFiles = (t: TestApp) =>
  readdirSync(path.join(t.dataDir, 'media'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(path.join(t.dataDir, 'media'), path.join(entry.parentPath, entry.name)))
    .sort();

async function listening(
  env: Record<string, string>,
  plugins: FastifyPluginAsync[] = [],
): Promise<{ t: TestApp; port: number }> {
  const t = await createTestApp(env, { plugins });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, port: (t.app.server.address() as AddressInfo).port };
}

/** Opens a socket and writes `head`, then one byte of `trickle` every `everyMs`; resolves when the server closes it. */
function trickle(
  port: number,
  head: string,
  trickleBytes: string,
  everyMs: number,
): Promise<{ text: string; closedAfterMs: number; socket: Socket }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let index = 0;
    const timer = setInterval(() => {
      if (index < trickleBytes.length && socket.writable) socket.write(trickleBytes[index++]!);
    }, everyMs);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - started, socket });
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(head));
  });
}

describe('slow clients', () => {
  let t: TestApp;
  let port: number;
  let staff: SignedInUser;
  beforeAll(async () => {
    ({ t, port } = await listening({
      REQUEST_TIMEOUT_SECONDS: '2',
      MIN_UPLOAD_BYTES_PER_SECOND: '2048',
      MAX_APPLICATION_BYTES: String(1024 * 1024),
    }));
    staff = await signedInUser(t.ctx, { isStaff: true });
  });
  afterAll(() => t.close());

  it('closes a connection whose headers arrive a byte at a time', async () => {
    const { closedAfterMs } = await trickle(port, 'GET /api/health HTTP/1.1\r\n', 'X-Slow: ' + 'a'.repeat(100), 200);
    expect(closedAfterMs).toBeGreaterThanOrEqual(1900);
    expect(closedAfterMs).toBeLessThan(6000);
  });

  it('answers 408 and closes a connection whose JSON body trickles', async () => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(40) });
    const head = `POST /api/jwt/create/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { text, closedAfterMs } = await trickle(port, head, body, 100);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('{"detail":"The request took too long to arrive."}');
    expect(closedAfterMs).toBeLessThan(6000);
  });

  it('cuts an upload slower than the minimum rate, and lets a steady one finish', async () => {
    const boundary = 'slowupload';
    const file = Buffer.alloc(40 * 1024, 7);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="application_version"\r\n\r\n9.9.9\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="application_file"; filename="setup.exe"\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const head = `POST /api/admin/applications/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${staff.headers.authorization}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;

    const slow = await trickle(port, head, body.toString('latin1'), 50);
    expect(slow.text).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.closedAfterMs).toBeLessThan(8000);

    // 40 KB at ~10 KB/s: longer than the request timeout, faster than the minimum rate.
    const steady = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.on('connect', async () => {
        socket.write(head);
        for (let offset = 0; offset < body.length; offset += 1024) {
          socket.write(body.subarray(offset, offset + 1024));
          await new Promise((r) => setTimeout(r, 100));
        }
        setTimeout(() => socket.end(), 1500);
      });
    });
    expect(steady).toMatch(/^HTTP\/1\.1 201/);
  }, 20_000);
});

describe('requests answered', () => {
  // What the slow-body watch holds is garbage only it keeps: thousands of small POSTs a second, each kept
  // until the watch's next look, were most of the garbage collector's work.
  let answered: WeakRef<object> | undefined;
  const echo: FastifyPluginAsync = async (app) => {
    app.post('/api/probe/echo/', async (request) => {
      answered = new WeakRef(request);
      return { ok: true };
    });
  };
  let t: TestApp;
  let port: number;
  beforeAll(async () => ({ t, port } = await listening({}, [echo])));
  afterAll(() => t.close());

  it('are let go once their JSON body is read, before the slow-body watch looks again', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const body = '{"a":1}';
      const sent = httpRequest(
        { port, host: '127.0.0.1', method: 'POST', path: '/api/probe/echo/', agent: false },
        (response) => response.resume().on('end', () => resolve(response.statusCode)),
      );
      sent.on('error', reject);
      sent.setHeader('content-type', 'application/json');
      sent.end(body);
    });
    expect(status).toBe(200);
    // Well within the watch's one-second interval.
    for (let attempt = 0; attempt < 5 && answered?.deref(); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      collectGarbage();
    }
    expect(answered).toBeDefined();
    expect(answered?.deref()).toBeUndefined();
  });
});

describe('load shedding', () => {
  // A page that would do something optional (the share page reads the database) asks whether to.
  const pageProbe: FastifyPluginAsync = async (app) => {
    app.get('/probe/page', async (request) => ({ overloaded: request.overloaded }));
  };
  const block: FastifyPluginAsync = async (app) => {
    app.get('/api/probe/block/', async () => {
      const until = Date.now() + 800;
      while (Date.now() < until) {
        // Holds the event loop, as a CPU-bound request would.
      }
      return { blocked: true };
    });
    await app.register(pageProbe);
  };
  let t: TestApp;
  let user: SignedInUser;
  beforeAll(async () => {
    ({ t } = await listening(
      { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '20', OVERLOAD_MAX_DB_QUEUE: '2', RETRY_AFTER_SECONDS: '3' },
      [block],
    ));
    user = await signedInUser(t.ctx);
  });
  afterAll(() => t.close());

  it('answers 503 with Retry-After while the event loop lags, keeps health answering, and recovers', async () => {
    // The lag is sampled every 200 ms, and a reading lasts until the next sample: a block is shed for one
    // sample's time only, and a block can go unread (a sample that runs before the delay monitor has
    // recorded it resets the histogram, and Node's histogram forgets its last time on reset; on a busy
    // machine a slow call can also outlast the reading). So the test blocks again until it sees a call
    // shed: the server must shed, not on a given sample.
    const profile = () => t.app.inject({ method: 'GET', url: '/api/user/profile/', headers: user.headers });
    let shed = await profile();
    for (let block = 0; block < 5 && shed.statusCode !== 503; block++) {
      await t.app.inject({ method: 'GET', url: '/api/probe/block/' });
      for (let i = 0; i < 25; i++) {
        shed = await profile();
        if (shed.statusCode === 503) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('3');
    expect(shed.json()).toEqual({ detail: 'Service temporarily unavailable, try again later.' });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    // A page is answered, marked so that it does without what it can.
    expect((await t.app.inject({ method: 'GET', url: '/probe/page' })).json()).toEqual({ overloaded: true });
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = (await profile()).statusCode;
    }
    expect(recovered).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/probe/page' })).json()).toEqual({ overloaded: false });
  });

  it('sheds API calls past the bound on requests in flight, marks pages instead, and counts an answered one out', async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold: FastifyPluginAsync = async (app) => {
      app.get('/api/probe/hold/', async () => {
        await held;
        return { held: true };
      });
      await app.register(pageProbe);
    };
    const { t: bounded, port } = await listening({ OVERLOAD_MAX_IN_FLIGHT: '1', RETRY_AFTER_SECONDS: '3' }, [hold]);
    try {
      const origin = `http://127.0.0.1:${port}`;
      const page = () => fetch(`${origin}/probe/page`).then((r) => r.json());
      const first = fetch(`${origin}/api/probe/hold/`);
      for (let i = 0; i < 100 && (await page()).overloaded !== true; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const shed = await fetch(`${origin}/api/user/profile/`);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('3');
      expect(await page()).toEqual({ overloaded: true });
      release();
      expect((await first).status).toBe(200);
      expect(await page()).toEqual({ overloaded: false });
    } finally {
      release();
      await bounded.close();
    }
  });

  // PGlite's backlog is the event loop's (above); a pool queue exists on PostgreSQL.
  it.runIf(inject('dbKind') === 'postgres')('sheds requests while the database queue is over its bound', async () => {
    // A call that reads the database each time (content lists are kept in memory).
    const read = () => t.app.inject({ method: 'GET', url: '/api/users/me/', headers: user.headers });
    const first = Array.from({ length: 40 }, read);
    for (let i = 0; i < 1000 && t.ctx.database.queueDepth() <= 2; i++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(t.ctx.database.queueDepth()).toBeGreaterThan(2);
    const late = await read();
    expect(late.statusCode).toBe(503);
    expect(late.headers['retry-after']).toBe('3');
    const statuses = (await Promise.all(first)).map((answer) => answer.statusCode);
    expect(statuses).toContain(200);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
  });
});

describe('proxies, connections and transport security', () => {
  it('caps open connections', async () => {
    const { t, port } = await listening({ MAX_CONNECTIONS: '2' });
    try {
      const open = await Promise.all(
        [0, 1].map(
          () =>
            new Promise<Socket>((resolve) => {
              const s = connect(port, '127.0.0.1', () => resolve(s));
            }),
        ),
      );
      const third = await trickle(port, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n', '', 1000);
      expect(third.text).toBe('');
      for (const socket of open) socket.destroy();
    } finally {
      await t.close();
    }
  });

  // Tests that build two or three apps get the time of two or three (each opens its own database).
  it('counts rate limits by the client address a trusted proxy names', { timeout: 90_000 }, async () => {
    const trusted = await createTestApp({
      TRUST_PROXY: '127.0.0.1',
      AUTH_RATE_LIMIT_PER_ADDRESS: '2',
      AUTH_RATE_LIMIT_PER_EMAIL: '100',
    });
    const untrusted = await createTestApp({ AUTH_RATE_LIMIT_PER_ADDRESS: '2', AUTH_RATE_LIMIT_PER_EMAIL: '100' });
    try {
      const attempt = (t: TestApp, client: string, i: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/jwt/create/',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client },
          payload: { email: `p${i}@example.com`, password: 'Wrong-Password-1' },
        });
      const statuses = async (t: TestApp) =>
        [
          await attempt(t, '203.0.113.1', 1),
          await attempt(t, '203.0.113.1', 2),
          await attempt(t, '203.0.113.2', 3),
        ].map((r) => r.statusCode);
      // Behind a trusted proxy, the second client has attempts of its own; otherwise all share the proxy's.
      expect(await statuses(trusted)).toEqual([401, 401, 401]);
      expect(await statuses(untrusted)).toEqual([401, 401, 429]);
    } finally {
      await trusted.close();
      await untrusted.close();
    }
  });

  it('sends Strict-Transport-Security in production only (configurable)', { timeout: 90_000 }, async () => {
    const production = await createTestApp({ NODE_ENV: 'production' });
    const development = await createTestApp({ NODE_ENV: 'development' });
    const off = await createTestApp({ NODE_ENV: 'production', HSTS_MAX_AGE_SECONDS: '0' });
    try {
      const hsts = async (t: TestApp) =>
        (await t.app.inject({ method: 'GET', url: '/api/health' })).headers['strict-transport-security'];
      expect(await hsts(production)).toBe('max-age=31536000');
      expect(await hsts(development)).toBeUndefined();
      expect(await hsts(off)).toBeUndefined();
    } finally {
      await Promise.all([production.close(), development.close(), off.close()]);
    }
  });
});

describe('Expect: 100-continue', () => {
  let t: TestApp;
  let port: number;
  let bob: SignedInUser;
  let staff: SignedInUser;
  beforeAll(async () => {
    // Installers of up to 1 MB: the whole-body bound of an upload is then small enough to send in a test.
    ({ t, port } = await listening({ MAX_APPLICATION_BYTES: String(1024 * 1024) }));
    bob = await signedInUser(t.ctx);
    staff = await signedInUser(t.ctx, { isStaff: true });
  });
  afterAll(() => t.close());

  /**
   * Sends a request's head with `Expect: 100-continue` and its body only once the server says `100 Continue`, as
   * curl and browsers' fetch would; resolves with all the server wrote once it closes the connection.
   */
  const expecting = (method: string, path: string, headers: Record<string, string>, body: Uint8Array) =>
    new Promise<{ text: string; bodySent: boolean }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      let bodySent = false;
      const head = Object.entries({
        host: 'innerwave.test',
        connection: 'close',
        expect: '100-continue',
        'content-length': String(body.length),
        ...headers,
      })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (!bodySent && text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
          bodySent = true;
          socket.write(body);
        }
      });
      socket.on('close', () => resolve({ text, bodySent }));
    });
  const statuses = (text: string) => [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));
  const multipart = (fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) => {
    const boundary = 'expect-continue-boundary';
    const parts = Object.entries(fields).map(
      ([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    const chunks: Uint8Array[] = parts.map((part) => Buffer.from(part));
    if (file)
      chunks.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="audio_file"; filename="${file.name}"\r\ncontent-type: audio/wav\r\n\r\n`,
        ),
        file.bytes,
        Buffer.from('\r\n'),
      );
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
  };

  it('answers an upload refused before its body without 100 Continue, so no body is sent for nothing', async () => {
    const form = multipart({ first_name: 'Bob', last_name: 'Cat' });
    // A stranger: 401 at once.
    const anonymous = await expecting('PUT', API.profileUpdate, { 'content-type': form.type }, form.body);
    expect([statuses(anonymous.text), anonymous.bodySent]).toEqual([[401], false]);
    // Below the plan of a voice upload: 403, the upload unread.
    const voice = multipart({ text: 'I am calm.' }, { name: 'take.wav', bytes: Buffer.alloc(64 * 1024) });
    const basic = await expecting(
      'POST',
      API.myVoice,
      { 'content-type': voice.type, authorization: bob.headers.authorization },
      voice.body,
    );
    expect([statuses(basic.text), basic.bodySent]).toEqual([[403], false]);
    // Signed in: told to go on, then answered.
    const signedIn = await expecting(
      'PUT',
      API.profileUpdate,
      { 'content-type': form.type, authorization: bob.headers.authorization },
      form.body,
    );
    expect([statuses(signedIn.text), signedIn.bodySent]).toEqual([[100, 200], true]);
  });

  // The socket's bytes were read one a character: the body is UTF-8 (a size's no-break space, say).
  const answerOf = (text: string) =>
    JSON.parse(Buffer.from(text.slice(text.lastIndexOf('\r\n\r\n') + 4), 'latin1').toString('utf8')) as unknown;

  it('refuses an upload whose Content-Length is past all its files and fields can be, before 100 Continue, as a file too large', async () => {
    const form = multipart({ first_name: 'Bob', last_name: 'Cat' });
    const huge = String(5 * 1024 ** 3);
    const profile = await expecting(
      'PUT',
      API.profileUpdate,
      { 'content-type': form.type, authorization: bob.headers.authorization, 'content-length': huge },
      form.body,
    );
    expect([statuses(profile.text), profile.bodySent]).toEqual([[413], false]);
    expect(answerOf(profile.text)).toEqual({ detail: 'The uploaded file is too large.' });
    // An installer of at most 1 MB, with its fields and the framing: a little over 2.3 MB is refused unread,
    // in the words of an installer too large.
    const installer = await expecting(
      'POST',
      ADMIN_API.applications,
      { 'content-type': form.type, authorization: staff.headers.authorization, 'content-length': String(2_500_000) },
      form.body,
    );
    expect([statuses(installer.text), installer.bodySent]).toEqual([[413], false]);
    expect(answerOf(installer.text)).toEqual({ detail: 'The file is larger than 1\u00a0MB.' });
  });

  /** Posts `chunks` without a Content-Length (chunked), as a stream; resolves with the answer, however early. */
  const streamed = (method: string, path: string, headers: Record<string, string>, chunks: Buffer[]) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const sending = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        response.on('error', reject);
      });
      // The server closes the connection after an early answer: what is still being written is cut off.
      sending.on('error', () => undefined);
      void (async () => {
        for (const chunk of chunks) {
          if (sending.destroyed) return;
          if (!sending.write(chunk)) await new Promise((drained) => sending.once('drain', drained));
        }
        sending.end();
      })();
    });

  it('refuses an upload sent without a Content-Length once it grows past that bound, and keeps nothing of it', async () => {
    const installer = (version: string, extra: Record<string, string> = {}, fileBytes = 200 * 1024) => {
      const form = multipart({ application_version: version, ...extra });
      const boundary = 'expect-continue-boundary';
      const end = Buffer.from(`--${boundary}--\r\n`);
      const file = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="application_file"; filename="setup.exe"\r\ncontent-type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.alloc(fileBytes, 7),
        Buffer.from('\r\n'),
      ]);
      return {
        type: form.type,
        body: Buffer.concat([form.body.subarray(0, form.body.length - end.length), file, end]),
      };
    };
    const headers = (type: string) => ({ 'content-type': type, authorization: staff.headers.authorization });
    const first = installer('3.0.0');
    expect((await streamed('POST', ADMIN_API.applications, headers(first.type), [first.body])).status).toBe(201);
    const stored = mediaFiles(t);
    const inChunks = (body: Buffer) =>
      Array.from({ length: Math.ceil(body.length / 65536) }, (_, i) => body.subarray(i * 65536, (i + 1) * 65536));
    // A field of 3 MB beside a file within its limit: past the bound while it arrives, and told that the request,
    // not its file, is too large (1 MB of installer, 20 fields of 64 KB and 64 KB of framing: 2.3 MB).
    const padded = installer('3.0.1', { notes: 'x'.repeat(3 * 1024 * 1024) });
    expect(await streamed('POST', ADMIN_API.applications, headers(padded.type), inChunks(padded.body))).toEqual({
      status: 413,
      body: { detail: 'The request is larger than 2.3\u00a0MB, the most an upload here may be.' },
    });
    // An installer past its own limit, sent the same way, is still told that its file is too large, by its limit.
    const oversized = installer('3.0.2', {}, 3 * 1024 * 1024);
    expect(await streamed('POST', ADMIN_API.applications, headers(oversized.type), inChunks(oversized.body))).toEqual({
      status: 413,
      body: { detail: 'The file is larger than 1\u00a0MB.' },
    });
    expect(mediaFiles(t)).toEqual(stored);
    const listed = await t.app.inject({ method: 'GET', url: ADMIN_API.applications, headers: staff.headers });
    expect(listed.json().map((app: { application_version: string }) => app.application_version)).toEqual(['3.0.0']);

    // The profile: names and a field of 6 MB, past a 5 MB picture with its fields; the names stay as they were.
    const names = multipart({ first_name: 'Robert', last_name: 'Cat', notes: 'y'.repeat(6 * 1024 * 1024) });
    const profile = await streamed(
      'PUT',
      API.profileUpdate,
      { 'content-type': names.type, authorization: bob.headers.authorization },
      inChunks(names.body),
    );
    expect(profile).toEqual({
      status: 413,
      body: { detail: 'The request is larger than 5.1\u00a0MB, the most an upload here may be.' },
    });
    const after = await t.app.inject({ method: 'GET', url: API.profile, headers: bob.headers });
    expect(after.json().first_name).not.toBe('Robert');
  });

  it('answers a JSON call refused before its body, or past its limit by Content-Length, without 100 Continue', async () => {
    const json = Buffer.from(JSON.stringify({ name: 'Evenings' }));
    const anonymous = await expecting('POST', API.myCategories, { 'content-type': 'application/json' }, json);
    expect([statuses(anonymous.text), anonymous.bodySent]).toEqual([[401], false]);
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const tooLarge = await expecting(
      'POST',
      API.myCategories,
      { 'content-type': 'application/json', authorization: bob.headers.authorization },
      big,
    );
    expect([statuses(tooLarge.text), tooLarge.bodySent]).toEqual([[413], false]);
    // Everything else goes on as before: 100, then the answer.
    const created = await expecting(
      'POST',
      API.myCategories,
      { 'content-type': 'application/json', authorization: bob.headers.authorization },
      json,
    );
    expect([statuses(created.text), created.bodySent]).toEqual([[100, 201], true]);
    const health = await expecting('GET', API.health, {}, Buffer.alloc(0));
    expect(statuses(health.text)).toEqual([100, 200]);
  });
});
