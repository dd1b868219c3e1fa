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
 * Sends a multipart body slowly: all but its last KiB, then, once the server has begun to stage the file
 * in `DATA_DIR/media/.incoming` (so the caller was let in before the body), runs `meanwhile`, then the rest.
 */
export async function uploadWhile(
  t: TestApp,
  headers: Record<string, string>,
  url: string,
  parts: Parameters<typeof multipartBody>[0],
  meanwhile: () => Promise<unknown>,
) {
  const body = multipartBody(parts);
  const stream = new PassThrough();
  const answer = t.app.inject({ method: 'POST', url, payload: stream, headers: { ...headers, ...body.headers } });
  const cut = body.payload.length - 1024;
  stream.write(body.payload.subarray(0, cut));
  const staged = () => mediaFilesIn(t.dataDir).some((file) => file.startsWith('.incoming'));
  for (let waited = 0; !staged(); waited += 10) {
    if (waited > 5000) throw new Error('the upload was never staged');
    await sleep(10);
  }
  await meanwhile();
  stream.end(body.payload.subarray(cut));
  return answer;
}
