import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

// Reads the mails Innerwave writes (nodemailer, base64 or quoted-printable bodies), for tests:
// enough MIME to get the headers, the text and HTML parts and the links in them.

export interface ParsedMail {
  to: string;
  from: string;
  /** Empty when the mail has no Reply-To. */
  replyTo: string;
  subject: string;
  messageId: string;
  text: string;
  html: string;
  /** Every http(s) link of the text part, in order. */
  links: string[];
}

function splitHead(raw: string): [Map<string, string>, string] {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return [headers, body];
}

const decodeQuotedPrintable = (value: string) =>
  Buffer.from(
    value
      .replace(/=\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=) in a header. */
function decodeHeader(value: string): string {
  return value.replace(/=\?[^?]+\?([BQ])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function collectParts(headers: Map<string, string>, body: string, out: { text: string; html: string }): void {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const [partHeaders, partBody] = splitHead(part.replace(/^\n/, ''));
      collectParts(partHeaders, partBody, out);
    }
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  if (type.toLowerCase().startsWith('text/html')) out.html += decoded;
  else if (type.toLowerCase().startsWith('text/plain')) out.text += decoded;
}

export function parseMail(raw: string): ParsedMail {
  const [headers, body] = splitHead(raw);
  const parts = { text: '', html: '' };
  collectParts(headers, body, parts);
  return {
    to: decodeHeader(headers.get('to') ?? ''),
    from: decodeHeader(headers.get('from') ?? ''),
    replyTo: decodeHeader(headers.get('reply-to') ?? ''),
    subject: decodeHeader(headers.get('subject') ?? ''),
    messageId: headers.get('message-id') ?? '',
    ...parts,
    links: parts.text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
  };
}

/**
 * Mails already parsed, by file: the mailer writes each file whole and once (it renames a finished temporary
 * file into place), so a file's mail never changes. A test waiting for its mail polls the outbox, which holds
 * every mail of the run; only the files new since the last poll are read.
 */
const parsedFiles = new Map<string, Promise<ParsedMail>>();

function parseFile(file: string): Promise<ParsedMail> {
  let parsed = parsedFiles.get(file);
  if (!parsed) {
    parsed = readFile(file, 'utf8').then(parseMail);
    parsedFiles.set(file, parsed);
    // A file gone between listing and reading is read again if it is listed again.
    parsed.catch(() => parsedFiles.delete(file));
  }
  return parsed;
}

/** Every mail of an outbox folder, oldest first (file names start with the time of writing). */
export async function readOutbox(outboxDir: string): Promise<ParsedMail[]> {
  let names: string[];
  try {
    names = (await readdir(outboxDir)).filter((name) => name.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map((name) => parseFile(path.join(outboxDir, name))));
}
