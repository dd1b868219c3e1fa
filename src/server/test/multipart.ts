import { randomBytes } from 'node:crypto';

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
