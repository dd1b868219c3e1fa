import { Readable } from 'node:stream';
import { Dicer } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import { formatBytes } from '@shared/bytes';
import { MESSAGES } from '@shared/contract';
import { ApiError, nonFieldError, payloadTooLarge } from '../http/errors';
import { continueBody } from '../http/limits';

// A multipart/form-data body read part by part with the public part splitter of @fastify/busboy (Dicer),
// whose part headers come as they were sent, a character a byte: file names are read here, as UTF-8 or
// else windows-1252 (old clients), and a `filename*` (RFC 5987) is taken over a plain `filename`, which
// @fastify/multipart's parser could not do (it reads a plain name as UTF-8 always, losing other bytes,
// and stops at it before a `filename*`). docs/product/api.md#own-music.

export interface FormLimits {
  /** Bytes of one file; one more is a 413. */
  fileSize: number;
  /** What a file past fileSize is told (413): the route's words for its file too large; MESSAGES.fileTooLarge if none. */
  fileTooLarge?: string;
  files: number;
  fields: number;
  /** Bytes of one text field; the rest of a longer one is cut off (its schema then says it is too long). */
  fieldSize: number;
  parts: number;
  /**
   * Bytes of the whole body (formBodySize): a larger Content-Length is refused before `100 Continue`, and a body
   * sent without one (chunked) that grows past it is refused as it arrives.
   */
  bodySize: number;
  /**
   * What a body past bodySize is told (413) when its files may be what is too large: the route's words for a file
   * too large; MESSAGES.fileTooLarge if none. A body whose fields and other parts alone hold more than the fields
   * may is told `requestTooLarge` instead: its files are not the cause.
   */
  bodyTooLarge?: string;
}

/** Bytes of multipart framing allowed beside what the parts hold: boundaries and part headers, file names among them. */
export const FORM_FRAMING_BYTES = 64 * 1024;

/**
 * The largest body a form may be (docs/product/errors-and-limits.md#upload-limits): each file at its limit, each text
 * field at the parser's, and the framing. A body past it cannot be one the route would take whole.
 */
export const formBodySize = (fileBytes: readonly number[], limits: Pick<FormLimits, 'fields' | 'fieldSize'>) =>
  fileBytes.reduce((sum, bytes) => sum + bytes, 0) + limits.fields * limits.fieldSize + FORM_FRAMING_BYTES;

/** What a body past its bound is told (413) when what is not a file made it so (a field padded past its limit). */
export const requestTooLarge = (bodySize: number) =>
  `The request is larger than ${formatBytes(bodySize)}, the most an upload here may be.`;

export interface FormField {
  type: 'field';
  fieldname: string;
  value: string;
}

export interface FormFile {
  type: 'file';
  fieldname: string;
  /** As sent, its folders left out; '' for an empty file input. */
  filename: string;
  mimetype: string;
  /** The file's bytes; it fails with a 413 past the limit. Read it, or resume it, before the next part. */
  file: Readable;
  toBuffer(): Promise<Buffer>;
}

export type FormPart = FormField | FormFile;

const malformed = () => nonFieldError(MESSAGES.malformedMultipart);
const tooManyParts = () => payloadTooLarge(MESSAGES.tooManyParts);

/** The boundary of a multipart Content-Type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const found = contentType === undefined ? undefined : parameters(contentType.split(';').slice(1).join(';'));
  const boundary = found?.get('boundary');
  // RFC 2046: 1–70 characters.
  return boundary && boundary.length <= 70 ? boundary : undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const windows1252 = new TextDecoder('windows-1252');

/** Bytes held a byte a character (as header lines come) read as UTF-8, or else as windows-1252. */
export function textOfHeaderBytes(raw: string): string {
  const bytes = Buffer.from(raw, 'latin1');
  try {
    return utf8.decode(bytes);
  } catch {
    return windows1252.decode(bytes);
  }
}

/**
 * The parameters of a header value after its first `;` (names lower-cased), each as its bytes were sent: a
 * quoted one without its quotes (a backslash escapes a quote or a backslash, as browsers send one alone), an
 * extended one (`name*`) under that name with its star.
 */
function parameters(text: string): Map<string, string> {
  const found = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    while (i < text.length && (text[i] === ';' || text[i] === ' ' || text[i] === '\t')) i++;
    const equals = text.indexOf('=', i);
    const semicolon = text.indexOf(';', i);
    if (equals === -1 || (semicolon !== -1 && semicolon < equals)) {
      i = semicolon === -1 ? text.length : semicolon;
      continue;
    }
    const name = text.slice(i, equals).trim().toLowerCase();
    i = equals + 1;
    while (text[i] === ' ' || text[i] === '\t') i++;
    let value = '';
    if (text[i] === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) i++;
        value += text[i];
      }
      const next = text.indexOf(';', i);
      i = next === -1 ? text.length : next;
    } else {
      const end = text.indexOf(';', i);
      value = text.slice(i, end === -1 ? text.length : end).trim();
      i = end === -1 ? text.length : end;
    }
    if (name && !found.has(name)) found.set(name, value);
  }
  return found;
}

/** An RFC 5987 value (`UTF-8''Caf%C3%A9.mp3`) as text, or undefined when its charset is not one we read. */
function extendedValue(value: string): string | undefined {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return undefined;
  const bytes = Buffer.from(
    match[2]!.replace(/%([0-9a-f]{2})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  const charset = match[1]!.toLowerCase();
  if (charset === 'utf-8' || charset === 'utf8') {
    try {
      return utf8.decode(bytes);
    } catch {
      return undefined;
    }
  }
  if (charset === 'iso-8859-1' || charset === 'latin1') return bytes.toString('latin1');
  return undefined;
}

/** The last segment of a path sent as a file name (Windows browsers once sent `C:\music\a.mp3`). */
const withoutFolders = (name: string) => {
  const last = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return last === '.' || last === '..' ? '' : last;
};

interface PartHead {
  fieldname: string;
  filename: string | undefined;
  mimetype: string;
  charset: string;
}

/** What a part's header says it is; undefined for a part to skip, as busboy skips it. */
function partHead(header: Record<string, string[] | undefined>): PartHead | undefined {
  const disposition = header['content-disposition']?.[0];
  if (!disposition || disposition.split(';')[0]!.trim().toLowerCase() !== 'form-data') return undefined;
  const params = parameters(disposition.slice(disposition.indexOf(';') + 1));
  const name = params.get('name');
  const extended = params.has('filename*') ? extendedValue(params.get('filename*')!) : undefined;
  const plain = params.get('filename');
  const filename = extended ?? (plain === undefined ? undefined : textOfHeaderBytes(plain));
  if (name === undefined) return undefined;
  const fieldname = textOfHeaderBytes(name);
  if (/[\r\n]/.test(fieldname) || (filename !== undefined && /[\r\n]/.test(filename))) return undefined;
  const [type = 'text/plain', ...rest] = (header['content-type']?.[0] ?? 'text/plain').split(';');
  return {
    fieldname,
    filename: filename === undefined ? undefined : withoutFolders(filename),
    mimetype: type.trim().toLowerCase() || 'text/plain',
    charset: (parameters(rest.join(';')).get('charset') ?? 'utf-8').toLowerCase(),
  };
}

/** A text field's bytes as text; a field cut at the limit loses its last, unfinished character. */
function fieldText(bytes: Buffer, charset: string, cut: boolean): string {
  if (charset === 'utf-8' || charset === 'utf8' || charset === 'us-ascii') {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    try {
      return decoder.decode(bytes, { stream: cut });
    } catch {
      // Refused as a JSON body that is not UTF-8 is, never kept with "�" where its letters were.
      throw new ApiError(400, { detail: MESSAGES.multipartNotUtf8 });
    }
  }
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    throw new ApiError(400, { detail: MESSAGES.multipartNotUtf8 });
  }
}

/** A name a part may not have: it would reach an object's prototype where parts are kept by name. */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The parts of a multipart/form-data body, one at a time: text fields whole, files as streams to read (or
 * resume) before asking for the next part. Parts without a form-data Content-Disposition and a name are
 * skipped. A body that breaks off or is not multipart is a 400, a limit passed a 413. Leaving early lets
 * the rest of the body go unread.
 */
export async function* formParts(request: FastifyRequest, limits: FormLimits): AsyncGenerator<FormPart> {
  const boundary = boundaryOf(request.headers['content-type']);
  if (!boundary) throw malformed();
  // Bytes of the parts that are not files (text fields whole, parts skipped): past what the fields may hold,
  // they, not a file, are what made a body too large.
  let besideFiles = 0;
  const countBesideFiles = (part: Readable) => part.on('data', (chunk: Buffer) => (besideFiles += chunk.length));
  const bodyTooLarge = () =>
    payloadTooLarge(
      besideFiles > limits.fields * limits.fieldSize
        ? requestTooLarge(limits.bodySize)
        : (limits.bodyTooLarge ?? MESSAGES.fileTooLarge),
    );
  // Announced larger than any body the route takes: refused unread, before a waiting client is told to send it.
  if (Number(request.headers['content-length'] ?? 0) > limits.bodySize) throw bodyTooLarge();
  const dicer = new Dicer({ boundary, maxHeaderPairs: 100 });
  type Arrived = { part: Dicer.PartStream; header?: Record<string, string[] | undefined> };
  const arrived: Arrived[] = [];
  let failure: Error | undefined;
  let finished = false;
  let wake: (() => void) | undefined;
  const changed = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  // The part being read: a failure of the body ends its reader's wait too.
  let reading: { fail(error: Error): void } | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    reading?.fail(failure);
    changed();
  };
  let parts = 0;
  dicer.on('part', (part) => {
    // A part's own failure (a body cut off in it) is the body's, which the splitter reports.
    part.on('error', () => undefined);
    if (++parts > limits.parts) {
      fail(tooManyParts());
      part.resume();
      return;
    }
    const entry: Arrived = { part };
    // Its header may come in the same write as the part: listened for now.
    part.once('header', (header: Record<string, string[] | undefined>) => {
      entry.header = header;
      changed();
    });
    arrived.push(entry);
    changed();
  });
  dicer.on('error', () => fail(malformed()));
  dicer.on('finish', () => {
    finished = true;
    changed();
  });
  const raw = request.raw;
  // A client gone before the end of its body.
  const closedEarly = () => {
    if (!raw.readableEnded) fail(malformed());
  };
  raw.on('close', closedEarly);
  raw.on('error', closedEarly);
  // A body without a Content-Length (chunked) is counted as it comes: past the bound, the parser stops and
  // the part being read fails, so its reader stores nothing of it.
  let received = 0;
  const counted = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= limits.bodySize || failure) return;
    raw.unpipe(dicer);
    fail(bodyTooLarge());
  };
  raw.on('data', counted);
  // Only now, past the route's checks that need no body, is a client waiting to send it told to.
  continueBody(request);
  raw.pipe(dicer);

  const next = () => new Promise<void>((resolve) => (wake = resolve));
  let files = 0;
  let fields = 0;
  try {
    for (;;) {
      // The next part whose header has come; one that ended before its header (a part cut short) is skipped.
      while (!failure && !finished && (arrived.length === 0 || (!arrived[0]!.header && arrived.length === 1)))
        await next();
      if (failure) throw failure;
      const entry = arrived.shift();
      if (!entry) return;
      const head = entry.header && partHead(entry.header);
      if (!head) {
        countBesideFiles(entry.part).resume();
        continue;
      }
      if (PROTOTYPE_NAMES.has(head.fieldname)) throw malformed();
      const isFile = head.filename !== undefined || head.mimetype === 'application/octet-stream';
      if (isFile) {
        if (++files > limits.files) throw tooManyParts();
        const file = limitedStream(entry.part, limits.fileSize, limits.fileTooLarge ?? MESSAGES.fileTooLarge);
        reading = { fail: (error) => file.destroy(error) };
        yield {
          type: 'file',
          fieldname: head.fieldname,
          filename: head.filename ?? '',
          mimetype: head.mimetype,
          file,
          toBuffer: () => bytesOf(file),
        };
        // Whatever the reader left of it goes unread, so that the next part can come.
        if (!file.destroyed && !file.readableEnded) file.resume();
      } else {
        if (++fields > limits.fields) throw tooManyParts();
        const value = await new Promise<{ bytes: Buffer; cut: boolean }>((resolve, reject) => {
          reading = { fail: reject };
          leadingBytes(countBesideFiles(entry.part), limits.fieldSize, resolve);
        });
        yield { type: 'field', fieldname: head.fieldname, value: fieldText(value.bytes, head.charset, value.cut) };
      }
      reading = undefined;
    }
  } finally {
    reading = undefined;
    raw.off('close', closedEarly);
    raw.off('error', closedEarly);
    raw.off('data', counted);
    raw.unpipe(dicer);
    for (const entry of arrived) entry.part.resume();
  }
}

/** The part's bytes as a stream that fails with a 413 once more than `max` have come. */
function limitedStream(part: Readable, max: number, tooLarge: string): Readable {
  let size = 0;
  const limited = new Readable({ read: () => void part.resume() });
  // Its failure reaches whoever reads it (a stream destroyed with an error keeps it); one that nobody reads
  // any more (a file refused, the reader gone) must not throw it as an unhandled 'error' event.
  limited.on('error', () => undefined);
  part.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > max) {
      part.removeAllListeners('data');
      part.resume();
      limited.destroy(payloadTooLarge(tooLarge));
      return;
    }
    if (!limited.push(chunk)) part.pause();
  });
  part.on('end', () => limited.push(null));
  // The body broke off inside it.
  part.on('error', () => limited.destroy(malformed()));
  return limited;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Up to `max` bytes of a part once it has ended (the rest is read and dropped), and whether it had more. */
function leadingBytes(part: Readable, max: number, done: (value: { bytes: Buffer; cut: boolean }) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  part.on('data', (chunk: Buffer) => {
    if (cut) return;
    if (size + chunk.length > max) {
      chunks.push(chunk.subarray(0, max - size));
      size = max;
      cut = true;
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
  });
  part.on('end', () => done({ bytes: Buffer.concat(chunks), cut }));
}
