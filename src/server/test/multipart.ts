import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { mediaFilesIn } from './media';
import type { TestApp } from './test-app';

export interface MultipartFile {
  /** The file name as sent (none with `extendedFilename` alone): a Buffer is its bytes as they are, in any charset. */
  filename?: string | Buffer;
  /** Sent after `filename`, as `filename*=<this>` (RFC 5987: `UTF-8''Caf%C3%A9.mp3`). */
  extendedFilename?: string;
  contentType?: string;
  content: Buffer;
}

/** A multipart/form-data body for app.inject: text fields (a Buffer: its bytes as sent) and files, in the order given. */
export function multipartBody(parts: Record<string, string | Buffer | MultipartFile>): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----innerwave${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string' || Buffer.isBuffer(value)) {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
        Buffer.from(value),
        Buffer.from('\r\n'),
      );
    } else {
      const extended = value.extendedFilename === undefined ? '' : `; filename*=${value.extendedFilename}`;
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"`),
        ...(value.filename === undefined
          ? []
          : [Buffer.from('; filename="'), Buffer.from(value.filename), Buffer.from('"')]),
        Buffer.from(`${extended}\r\nContent-Type: ${value.contentType ?? 'application/octet-stream'}\r\n\r\n`),
        value.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Sends a body slowly: all but its last KiB (or half, if smaller), then, once `started()` says the server let the
 * caller in and is reading the body (by default: it has read all that was sent), runs `meanwhile`, then the rest.
 */
export async function sendWhile(
  t: TestApp,
  request: {
    method?: 'POST' | 'PUT' | 'PATCH';
    url: string;
    headers: Record<string, string>;
    payload: Buffer;
    started?: () => boolean;
  },
  meanwhile: () => Promise<unknown>,
) {
  const { method = 'POST', url, headers, payload } = request;
  const stream = new PassThrough();
  // Its length declared, as a client's body is (or chunked).
  const answer = t.app.inject({
    method,
    url,
    payload: stream,
    headers: { ...headers, 'content-length': `${payload.length}` },
  });
  const cut = payload.length - Math.min(1024, Math.floor(payload.length / 2));
  stream.write(payload.subarray(0, cut));
  const started = request.started ?? (() => stream.readableLength === 0);
  for (let waited = 0; !started(); waited += 10) {
    if (waited > 5000) throw new Error('the body was never read');
    await sleep(10);
  }
  await meanwhile();
  stream.end(payload.subarray(cut));
  return answer;
}

/** A JSON body sent slowly by `sendWhile`, `meanwhile` run as the server reads it. */
export const sendJsonWhile = (
  t: TestApp,
  request: { method?: 'POST' | 'PUT' | 'PATCH'; url: string; headers: Record<string, string>; body: unknown },
  meanwhile: () => Promise<unknown>,
) =>
  sendWhile(
    t,
    {
      ...request,
      headers: { ...request.headers, 'content-type': 'application/json' },
      payload: Buffer.from(JSON.stringify(request.body)),
    },
    meanwhile,
  );

/**
 * Sends a multipart body slowly (`sendWhile`): `meanwhile` runs once the server has begun to stage the file in
 * `DATA_DIR/media/.incoming` (so the caller was let in before the body). A route that reads its form whole before
 * it stages anything (the profile's) is let in once it has read what was sent so far (`readWhole`).
 */
export async function uploadWhile(
  t: TestApp,
  headers: Record<string, string>,
  url: string,
  parts: Parameters<typeof multipartBody>[0],
  meanwhile: () => Promise<unknown>,
  { method = 'POST', readWhole = false }: { method?: 'POST' | 'PUT'; readWhole?: boolean } = {},
) {
  const body = multipartBody(parts);
  const staged = () => mediaFilesIn(t.dataDir).some((file) => file.startsWith('.incoming'));
  return sendWhile(
    t,
    {
      method,
      url,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
      started: readWhole ? undefined : staged,
    },
    meanwhile,
  );
}
