import { createRequire } from 'node:module';

/**
 * What windows-1252 puts at 0x80–0x9F, where Latin-1 has control characters (a file name would lose
 * them): the rest of windows-1252 is Latin-1. Unassigned bytes stay as Latin-1 has them.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A part header's parameter value as it came, each byte one character (how the multipart parser holds
 * header lines): the same bytes when they are UTF-8, else the UTF-8 bytes of their windows-1252 reading.
 */
export function utf8ParamBytes(raw: string): string {
  const bytes = Buffer.from(raw, 'latin1');
  try {
    utf8.decode(bytes);
    return raw;
  } catch {
    const text = raw.replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
    return Buffer.from(text, 'utf8').toString('latin1');
  }
}

// `filename="…"` or `filename=…` (not `filename*=`, which names its own charset), in a Content-Disposition.
const PLAIN_FILENAME = /(;\s*filename\s*=\s*)("[^"]*"|[^;]*)/gi;
const EXTENDED_FILENAME = /;\s*filename\*\s*=/i;

/**
 * A Content-Disposition line (each byte one character) with its plain file name UTF-8: re-encoded when
 * it is not, left out when a `filename*` follows it (RFC 6266 prefers that one; the parser would stop
 * at the plain one).
 */
export const utf8FileNameDisposition = (line: string): string =>
  EXTENDED_FILENAME.test(line)
    ? line.replace(PLAIN_FILENAME, '')
    : line.replace(PLAIN_FILENAME, (_all, lead: string, value: string) => lead + utf8ParamBytes(value));

interface HeaderParser {
  header: Record<string, string[] | undefined>;
  _parseHeader(): void;
}

let installed = false;

/**
 * Has the multipart parser read a file name that is not UTF-8 as windows-1252 (a superset of Latin-1,
 * as old clients send): "Caf\xe9.mp3" is "Café.mp3", not "Caf�.mp3". @fastify/busboy decodes a plain
 * `filename=` as UTF-8 always, with no option for another charset (busboy's `defParamCharset`), and
 * what it puts for bytes that are not UTF-8 cannot be undone: so the header line is re-encoded when it
 * is parsed, before the parser reads its parameters. UTF-8 names, and `filename*=UTF-8''…` (RFC 5987),
 * are left as they came. docs/product/api.md#own-music.
 */
export function readNonUtf8FileNamesAsWindows1252(): void {
  if (installed) return;
  // The copy @fastify/multipart itself loads.
  const fromMultipart = createRequire(createRequire(import.meta.url).resolve('@fastify/multipart'));
  const parser = (
    fromMultipart(fromMultipart.resolve('@fastify/busboy/deps/dicer/lib/HeaderParser.js')) as {
      prototype: HeaderParser;
    }
  ).prototype;
  const parseHeader = parser._parseHeader;
  if (typeof parseHeader !== 'function') throw new Error('@fastify/busboy no longer parses headers in _parseHeader');
  parser._parseHeader = function (this: HeaderParser) {
    parseHeader.call(this);
    const disposition = this.header['content-disposition'];
    if (disposition) this.header['content-disposition'] = disposition.map(utf8FileNameDisposition);
  };
  installed = true;
}
