import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonTooManyValues, MESSAGES, NON_FIELD_ERRORS, unstorableTextMessages } from '@shared/contract';
import { ApiError, badRequest, notFound } from './errors';
import { isPageRequest } from './web';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The body's schema refuses text that cannot be kept where it reads it, saying where it is (an import's
     * "Category 2 ("Calm"), message 5: …"); the refusal of any body holding such text, which names only its
     * top field, comes after the schema passed, for text the schema does not read.
     */
    bodyTextCheckedBySchema?: boolean;
    /**
     * The most values (array items and object members) its JSON body may hold, counted before it is parsed:
     * JSON_MAX_VALUES unless the call's contract takes lists longer than that.
     */
    jsonValues?: number;
  }
}

declare global {
  interface String {
    /** Node 20+: false when the string holds a lone surrogate (ES2024, not in the project's lib). */
    isWellFormed(): boolean;
  }
}

/**
 * Text PostgreSQL cannot keep as sent: a NUL character (refused in text, a 500) or a lone surrogate
 * (stored, and hashed, as U+FFFD, so "\ud800" and "\udbff" became one name and one password). Both
 * are native scans; isWellFormed answers a one-byte string without looking at its characters.
 */
const isUnstorable = (text: string) => text.includes('\0') || !text.isWellFormed();

/**
 * The first field (top-level name) of a parsed value holding text that cannot be kept (a NUL, a lone
 * surrogate), with that text; undefined when all of it can. Such input is answered as the client's
 * error before any query.
 */
export function fieldWithUnstorableText(
  value: unknown,
  field = NON_FIELD_ERRORS,
  depth = 0,
): { field: string; text: string } | undefined {
  if (typeof value === 'string') return isUnstorable(value) ? { field, text: value } : undefined;
  // Bytes are no text (the webhook's body is a Buffer): their entries, one an index, cost a second a megabyte.
  if (value === null || typeof value !== 'object' || depth > 32 || ArrayBuffer.isView(value)) return undefined;
  // An index loop and the keys alone, not Object.entries' pair for each: a megabyte of a JSON array's small
  // items took a signed-in call's worker 0.1–0.3 s here.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner: unknown = value[i];
      if (inner === null || (typeof inner !== 'string' && typeof inner !== 'object')) continue;
      const found = fieldWithUnstorableText(inner, field, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const entries = value as Record<string, unknown>;
  for (const key of Object.keys(entries)) {
    if (depth === 0 && isUnstorable(key)) return { field: NON_FIELD_ERRORS, text: key };
    const found = fieldWithUnstorableText(entries[key], depth === 0 ? key : field, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The DRF-shaped 400 for a NUL character or a lone surrogate anywhere in `values`; undefined without one. */
function unstorableTextError(values: unknown): ApiError | undefined {
  const found = fieldWithUnstorableText(values);
  return found && badRequest({ [found.field]: unstorableTextMessages(found.text) });
}

/** Throws the DRF-shaped 400 for a NUL character or a lone surrogate anywhere in `values`. */
export function assertStorableText(values: unknown): void {
  const error = unstorableTextError(values);
  if (error) throw error;
}

/** A Content-Encoding the server reads a body under: none, or identity. */
const IDENTITY_ENCODING = /^\s*(?:identity\s*)?$/i;

/**
 * The 415 for a body the server would have to decode (any Content-Encoding but identity: gzip, br…),
 * naming the one it reads (RFC 7694); undefined when the body can be read as sent. The server decodes
 * no request body, so a compressed one would be a parse error and a plain one mislabelled.
 */
export function encodedBodyError(request: FastifyRequest): ApiError | undefined {
  const encoding = request.headers['content-encoding'];
  if (encoding === undefined || IDENTITY_ENCODING.test(encoding)) return undefined;
  return new ApiError(415, { detail: MESSAGES.unsupportedMediaType }, { 'Accept-Encoding': 'identity' });
}

/** Each charset a Content-Type names (`; charset=latin1`, quoted or not). */
const CHARSET_PARAMETERS = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/gi;
const UTF8_CHARSET = /^utf-?8$/i;

/**
 * The 415 for a JSON body whose Content-Type names a charset other than UTF-8: JSON is UTF-8 (RFC 8259),
 * and the server decodes no other, so "café" sent as `charset=latin1` would be read wrong or refused as
 * broken UTF-8 with a message that does not say why. Undefined when it names none or only UTF-8:
 * every charset named counts (`charset=utf-8; charset=latin1` is refused), since a proxy or a client may read another.
 */
export function jsonCharsetError(request: FastifyRequest): ApiError | undefined {
  for (const match of (request.headers['content-type'] ?? '').matchAll(CHARSET_PARAMETERS)) {
    const charset = match[1] ?? match[2] ?? '';
    if (!UTF8_CHARSET.test(charset.trim())) return new ApiError(415, { detail: MESSAGES.jsonCharsetNotUtf8 });
  }
  return undefined;
}

/** Arrays and objects a JSON body may nest: the deepest a call takes (a program, its days, their layers) nests 5. */
const JSON_MAX_DEPTH = 64;

/**
 * Values (array items and object members) a JSON body may hold unless its call says more (`jsonValues`): a call
 * without a list takes a few dozen. Parsing costs by the value, not the byte: a megabyte of `{"k1":1,…}` held a
 * worker's event loop for 150 ms, sent by anyone to any path; 1,024 values cost it about 2 ms
 * (docs/decisions/069-a-json-body-holds-the-values-its-call-takes.md).
 */
export const JSON_MAX_VALUES = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];

/**
 * Why a JSON body is refused before it is parsed, read from its bytes: it nests arrays or objects deeper than
 * `maxDepth` (the parser spends some 4 µs a level, so a 1 MiB body of brackets held a worker's event loop for
 * 1.5–2.3 s), or it holds more than `maxValues` values, counted as its commas and its arrays and objects (one
 * each: an item or member more than the commas between them, or an empty one). Strings are skipped with a
 * native search for their closing quote, so text costs next to nothing, and the count stops where it passes
 * the bound; broken JSON is left to the parser.
 */
export function jsonShapeRefusal(body: Buffer, maxDepth: number, maxValues: number): 'depth' | 'values' | undefined {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (byte === QUOTE) {
      let end = body.indexOf(QUOTE, i + 1);
      // A quote after an odd run of backslashes is part of the string.
      while (end !== -1 && isEscaped(body, end)) end = body.indexOf(QUOTE, end + 1);
      if (end === -1) return undefined;
      i = end;
    } else if (byte === COMMA) {
      if (++values > maxValues) return 'values';
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > maxDepth) return 'depth';
      if (++values > maxValues) return 'values';
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return undefined;
}

function isEscaped(body: Buffer, quoteAt: number): boolean {
  let backslashes = 0;
  while (body[quoteAt - 1 - backslashes] === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

/** Whether `text` parses as JSON (after a byte-order mark, which the JSON parser skips too). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Request bodies: JSON only (Fastify's own prototype-poisoning-safe parser), except multipart on the
 * upload routes, which register it themselves; neither is decoded (encodedBodyError). An empty JSON body is no body: djoser clients POST
 * logout with a JSON content type and nothing in it. text/plain is not parsed, so it is answered 415
 * like every other type a JSON call does not take.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'remove');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const refused = encodedBodyError(request) ?? jsonCharsetError(request);
    if (refused) {
      done(refused);
      return;
    }
    // JSON is UTF-8 (RFC 8259). Read as a string, other bytes became U+FFFD and were saved so: "café"
    // sent in Latin-1 was kept as "caf" and a replacement character. DRF refuses it as a parse error too.
    if (typeof body !== 'string' && !isUtf8(body)) {
      done(new ApiError(400, { detail: MESSAGES.jsonNotUtf8 }));
      return;
    }
    const maxValues = request.routeOptions.config.jsonValues ?? JSON_MAX_VALUES;
    const shape = typeof body === 'string' ? undefined : jsonShapeRefusal(body, JSON_MAX_DEPTH, maxValues);
    if (shape) {
      done(new ApiError(400, { detail: shape === 'depth' ? MESSAGES.jsonTooDeep : jsonTooManyValues(maxValues) }));
      return;
    }
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      // Valid JSON the parser refused has a `__proto__` key (constructor keys it removes): a key no call
      // takes, refused by name rather than called broken JSON.
      done(error && isJson(text) ? new ApiError(400, { detail: MESSAGES.prototypeKey }) : error, value);
    });
  });
  // Refusals of bodies whose schema speaks first (bodyTextCheckedBySchema), sent once it has passed.
  const afterSchema = new WeakMap<FastifyRequest, ApiError>();
  app.addHook('preValidation', (request, _reply, done) => {
    // No body where a route takes one is an empty one, as in DRF: each required field is named.
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    try {
      if (request.routeOptions.config.bodyTextCheckedBySchema) {
        const refusal = unstorableTextError(request.body);
        if (refusal) afterSchema.set(request, refusal);
      } else assertStorableText(request.body);
      // A page's path and query are read by the app in the browser, not here: a NUL in them still gets
      // the page (its Not found for a path naming nothing), never an API answer.
      if (isPageRequest(request)) return done();
      assertStorableText(request.query);
      // In a path it names nothing (a file, a page, a row), as a URL pattern would not match it: 404,
      // not a field error under the parameter's name (the 404 route's was "*").
      if (fieldWithUnstorableText(request.params)) throw notFound();
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook('preHandler', (request, _reply, done) => done(afterSchema.get(request)));
}
