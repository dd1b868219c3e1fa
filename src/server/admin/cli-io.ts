import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ApiError } from '../http/errors';
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { NON_FIELD_ERRORS, unstorableTextMessages } from '@shared/contract';
import { fieldWithUnstorableText } from '../http/body-parsers';

export interface CliIo {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: Writable;
  stderr: Writable;
}

/** A refusal the operator can act on: printed without a stack trace, with its exit code. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.refused,
  ) {
    super(message);
  }
}

export const EXIT = { ok: 0, refused: 1, usage: 2, unavailable: 3 } as const;

/** An API error body as lines an operator reads: `field: message`. */
export function describeApiError(error: ApiError): string {
  const body = error.body as Record<string, unknown>;
  if (typeof body.detail === 'string') return body.detail;
  return Object.entries(body)
    .map(
      ([field, messages]) =>
        `${field === 'non_field_errors' ? '' : `${field}: `}${Array.isArray(messages) ? messages.join(' ') : String(messages)}`,
    )
    .join('\n');
}

/** Reads a password: on a terminal, asked for twice without echo; otherwise the first line of stdin. */
export async function readPassword(io: CliIo): Promise<string> {
  if (!io.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
    const text = Buffer.concat(chunks).toString('utf8');
    return storablePassword(text.split(/\r?\n/)[0] ?? '');
  }
  const first = await askHidden(io, 'Password: ');
  const second = await askHidden(io, 'Password (again): ');
  if (first !== second) throw new CliError('The two passwords do not match; nothing was changed.');
  return storablePassword(first);
}

/** A password the API would take at login: one with a NUL in it could never be typed there. */
function storablePassword(password: string): string {
  const refused = unstorableTextMessages(password);
  if (refused.length) throw new CliError(`password: ${refused.join(' ')}\nNothing was changed.`);
  return password;
}

function askHidden(io: CliIo, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let muted = false;
    const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: true });
    // Echo nothing the operator types once the prompt is written.
    const internal = rl as unknown as { _writeToOutput(text: string): void };
    const write = internal._writeToOutput.bind(rl);
    internal._writeToOutput = (text: string) => {
      if (!muted) write(text);
    };
    rl.question(prompt, (answer) => {
      rl.close();
      io.stdout.write('\n');
      resolve(answer);
    });
    muted = true;
    rl.on('SIGINT', () => {
      rl.close();
      reject(new CliError('Cancelled; nothing was changed.'));
    });
  });
}

/**
 * A JSON file checked against `schema`; a file that cannot be read, is not JSON or does not fit is a
 * CliError naming each problem ("nothing was imported": callers read the whole file before writing).
 * Text the API refuses in any body is refused too, after the schema when it words that itself, as the
 * API's route does (bodyTextCheckedBySchema).
 */
export async function readJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  what: string,
  { textCheckedBySchema = false } = {},
): Promise<T> {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new CliError(`Cannot read ${file}.`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not valid JSON.`);
  }
  const refuse = (lines: string[]) =>
    new CliError(`${file} is not ${what}; nothing was imported:\n${lines.join('\n')}`);
  // Text the API refuses in any body, as the database cannot keep it as written (a NUL, a lone surrogate).
  const refuseUnstorable = () => {
    const unstorable = fieldWithUnstorableText(json);
    if (!unstorable) return;
    const field = unstorable.field === NON_FIELD_ERRORS ? '(file)' : unstorable.field;
    throw refuse([`  ${field}: ${unstorableTextMessages(unstorable.text).join(' ')}`]);
  };
  if (!textCheckedBySchema) refuseUnstorable();
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw refuse(parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`));
  refuseUnstorable();
  return parsed.data;
}
