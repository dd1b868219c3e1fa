import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../http/error-handler';
import { boundaryOf, formParts, type FormLimits } from './form-data';

// The multipart reader on its own: what each part is named and holds, and what a hostile body gets.

const LIMITS: FormLimits = { fileSize: 64, files: 2, fields: 3, fieldSize: 16, parts: 6, bodySize: 64 * 1024 };

let app: FastifyInstance;
/** How each request's reading of its parts ended, in order. */
const outcomes: Promise<string>[] = [];
beforeAll(async () => {
  app = Fastify({ logger: false });
  registerErrorHandler(app, 5);
  await app.register(multipart);
  app.post('/form', async (request) => {
    const parts: unknown[] = [];
    const reading = (async () => {
      for await (const part of formParts(request, LIMITS)) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          parts.push({
            file: part.fieldname,
            filename: part.filename,
            mimetype: part.mimetype,
            bytes: bytes.toString(),
          });
        } else parts.push({ field: part.fieldname, value: part.value });
      }
    })();
    outcomes.push(
      reading.then(
        () => 'read',
        (error: Error) => error.message,
      ),
    );
    await reading;
    return parts;
  });
  // A reader that first does something else (a staging folder made, say) while the file's bytes keep coming.
  app.post('/slow', async (request) => {
    for await (const part of formParts(request, LIMITS)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (part.type === 'file') await part.toBuffer();
    }
    return {};
  });
  await app.ready();
});
afterAll(() => app.close());

const BOUNDARY = 'b0undary';
/** A body of parts, each its raw header lines (bytes as given) and its content. */
const body = (...parts: [headers: (string | Buffer)[], content: string | Buffer][]) =>
  Buffer.concat([
    ...parts.flatMap(([headers, content]) => [
      Buffer.from(`--${BOUNDARY}\r\n`),
      ...headers.flatMap((line) => [Buffer.from(line), Buffer.from('\r\n')]),
      Buffer.from('\r\n'),
      Buffer.from(content),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
const send = (payload: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
  app.inject({ method: 'POST', url: '/form', headers: { 'content-type': contentType }, payload });
const fileNamed = async (...disposition: (string | Buffer)[]) => {
  const res = await send(
    body([
      [
        Buffer.concat([
          Buffer.from('Content-Disposition: form-data; name="f"'),
          ...disposition.map((p) => Buffer.from(p)),
        ]),
      ],
      'x',
    ]),
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[0].filename as string;
};

describe('a file name', () => {
  it('is read as UTF-8, else as windows-1252, as old clients send it', async () => {
    expect(await fileNamed('; filename="', Buffer.from('Café ☕.mp3'), '"')).toBe('Café ☕.mp3');
    expect(await fileNamed('; filename="', Buffer.from('Caf\xe9 \x80 \x93Noir\x94.mp3', 'latin1'), '"')).toBe(
      'Café € “Noir”.mp3',
    );
  });

  it('is taken from filename* (RFC 5987) before or after a plain filename, in UTF-8 or Latin-1', async () => {
    expect(await fileNamed(`; filename="old.mp3"; filename*=UTF-8''Caf%C3%A9%20%E2%98%95.mp3`)).toBe('Café ☕.mp3');
    expect(await fileNamed(`; filename*=utf-8''Cr%C3%A8me.mp3; filename="old.mp3"`)).toBe('Crème.mp3');
    expect(await fileNamed(`; filename*=ISO-8859-1'fr'Cr%E8me.mp3`)).toBe('Crème.mp3');
    // A charset it cannot read, or bytes that are not its charset: the plain name stands.
    expect(await fileNamed(`; filename="plain.mp3"; filename*=x-unknown''a.mp3`)).toBe('plain.mp3');
    expect(await fileNamed(`; filename="plain.mp3"; filename*=UTF-8''%E9.mp3`)).toBe('plain.mp3');
  });

  it('keeps escaped quotes, and loses the folders a client sent with it', async () => {
    expect(await fileNamed('; filename="say \\"hi\\".mp3"')).toBe('say "hi".mp3');
    expect(await fileNamed('; filename="C:\\\\music\\\\song.mp3"')).toBe('song.mp3');
    expect(await fileNamed('; filename="../../etc/passwd"')).toBe('passwd');
    expect(await fileNamed('; filename=".."')).toBe('');
    // An empty file input: a file with no name.
    expect(await fileNamed('; filename=""')).toBe('');
  });
});

describe('the parts', () => {
  it('are fields and files in order; a field in another charset is read in it', async () => {
    const res = await send(
      body(
        [['Content-Disposition: form-data; name="name"'], 'Ada'],
        [['Content-Disposition: form-data; name="f"; filename="a.txt"', 'Content-Type: Text/Plain'], 'hello'],
        [
          ['Content-Disposition: form-data; name="latin"', 'Content-Type: text/plain; charset=ISO-8859-1'],
          Buffer.from('caf\xe9', 'latin1'),
        ],
        [['Content-Disposition: form-data; name="blob"', 'Content-Type: application/octet-stream'], 'bytes'],
      ),
    );
    expect(res.json()).toEqual([
      { field: 'name', value: 'Ada' },
      { file: 'f', filename: 'a.txt', mimetype: 'text/plain', bytes: 'hello' },
      { field: 'latin', value: 'café' },
      { file: 'blob', filename: '', mimetype: 'application/octet-stream', bytes: 'bytes' },
    ]);
  });

  it('skip a part that is no form-data field or has no name', async () => {
    const res = await send(
      body(
        [[], 'no header'],
        [['Content-Type: text/plain'], 'no disposition'],
        [['Content-Disposition: attachment; name="a"'], 'not form-data'],
        [['Content-Disposition: form-data; filename="x.txt"'], 'no name'],
        [['Content-Disposition: form-data; name="kept"'], 'yes'],
      ),
    );
    expect(res.json()).toEqual([{ field: 'kept', value: 'yes' }]);
  });

  it('keep a replacement character sent as such, and refuse a field that is not UTF-8', async () => {
    const kept = await send(body([['Content-Disposition: form-data; name="a"'], 'a\ufffdb']));
    expect(kept.json()).toEqual([{ field: 'a', value: 'a\ufffdb' }]);
    const refused = await send(body([['Content-Disposition: form-data; name="a"'], Buffer.from('caf\xe9', 'latin1')]));
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      { detail: 'Multipart form parse error - the request body is not valid UTF-8.' },
    ]);
  });

  it('cut a long field at its limit, never inside a character', async () => {
    const res = await send(body([['Content-Disposition: form-data; name="a"'], `${'x'.repeat(15)}éé`]));
    expect(res.json()).toEqual([{ field: 'a', value: 'x'.repeat(15) }]);
  });

  it('may not be named as what every object has', async () => {
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const res = await send(body([[`Content-Disposition: form-data; name="${name}"`], 'x']));
      expect([res.statusCode, res.json()], name).toEqual([400, { non_field_errors: ['Malformed multipart body.'] }]);
    }
  });
});

describe('a body past a limit, or broken', () => {
  it('is answered 413 past the parts, files, fields or file size', async () => {
    const field = (name: string): [string[], string] => [[`Content-Disposition: form-data; name="${name}"`], 'x'];
    const file = (name: string, content = 'x'): [string[], string] => [
      [`Content-Disposition: form-data; name="${name}"; filename="${name}.txt"`],
      content,
    ];
    for (const [label, payload, detail] of [
      [
        'parts',
        body(...Array.from({ length: 7 }, () => [['Content-Type: text/plain'], 'skipped'] as [string[], string])),
        'Too many parts in the request.',
      ],
      ['files', body(file('a'), file('b'), file('c')), 'Too many parts in the request.'],
      ['fields', body(field('a'), field('b'), field('c'), field('d')), 'Too many parts in the request.'],
      ['file size', body(file('a', 'x'.repeat(65))), 'The uploaded file is too large.'],
    ] as const) {
      const res = await send(payload);
      expect([res.statusCode, res.json()], label).toEqual([413, { detail }]);
    }
    // At the limits, all is read.
    const full = await send(body(field('a'), field('b'), field('c'), file('d', 'x'.repeat(64)), file('e')));
    expect(full.statusCode).toBe(200);
  });

  it('is answered 400 when it breaks off, has no boundary, or is not multipart at all', async () => {
    const whole = body(
      [['Content-Disposition: form-data; name="a"'], 'x'],
      [['Content-Disposition: form-data; name="f"; filename="f.txt"'], 'y'.repeat(40)],
    );
    for (const [label, payload, type] of [
      ['cut in a file', whole.subarray(0, whole.length - 30), undefined],
      ['cut in a header', whole.subarray(0, 30), undefined],
      ['no closing boundary', whole.subarray(0, whole.length - `--${BOUNDARY}--\r\n`.length), undefined],
      ['no boundary', whole, 'multipart/form-data'],
      ['a boundary too long', whole, `multipart/form-data; boundary=${'b'.repeat(71)}`],
      ['not multipart', Buffer.from('a=1'), `multipart/form-data; boundary=${BOUNDARY}`],
    ] as const) {
      const res = await send(payload, type);
      expect([res.statusCode, res.json()], label).toEqual([400, { non_field_errors: ['Malformed multipart body.'] }]);
    }
  });
});

describe('a client gone in the middle of its body', () => {
  it('ends the reading of its parts at once, in a field or in a file', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const whole = body(
      [['Content-Disposition: form-data; name="a"'], 'x'.repeat(10)],
      [['Content-Disposition: form-data; name="f"; filename="f.txt"'], 'y'.repeat(60)],
    );
    for (const cutAt of [whole.indexOf('xxxxx'), whole.indexOf('yyyyy')]) {
      const before = outcomes.length;
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${whole.length}\r\n\r\n`,
      );
      socket.write(whole.subarray(0, cutAt));
      await expect.poll(() => outcomes.length).toBe(before + 1);
      socket.destroy();
      // A reading left waiting would never end, and the test would run out of its time: the reading's end is the
      // event, which no clock can tell from a loaded machine's slowness (a bound of 5 s did).
      await expect(outcomes[before]).resolves.toBe('HTTP 400');
    }
  });
});

describe('a file its reader has not started on yet', () => {
  it('keeps a failure for the reader, and the process up, when the body breaks off or passes the limit', async () => {
    const file = (content: string): [string[], string] => [
      ['Content-Disposition: form-data; name="f"; filename="f.txt"'],
      content,
    ];
    const cut = body(file('y'.repeat(60)));
    for (const [payload, status] of [
      [cut.subarray(0, cut.length - 30), 400],
      [body(file('y'.repeat(65))), 413],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/slow',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload,
      });
      expect(res.statusCode).toBe(status);
    }
  });
});

describe('a multipart Content-Type', () => {
  it('names its boundary, quoted or not', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('multipart/form-data; charset=utf-8; BOUNDARY="a b;c"')).toBe('a b;c');
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
    expect(boundaryOf(undefined)).toBeUndefined();
  });
});
