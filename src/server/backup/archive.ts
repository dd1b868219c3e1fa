import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';

// A backup is a gzipped tar (ustar): `tar -tzf` lists it and `tar -xzf` opens it by hand. Written and read here
// with Node alone, a block at a time, so a backup never has to fit in memory
// (docs/decisions/128-a-backup-of-the-embedded-database-and-the-media.md).

const BLOCK = 512;
const END = Buffer.alloc(BLOCK * 2);

/** The archive is not one of ours, or is damaged: nothing it holds may be used. */
export class BadArchiveError extends Error {
  override name = 'BadArchiveError';
}

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, '0') + '\0';
}

/** Splits a path into ustar's prefix (155 bytes) and name (100 bytes), at a slash. */
function splitName(name: string): { prefix: string; name: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', name };
  for (let cut = name.indexOf('/'); cut !== -1; cut = name.indexOf('/', cut + 1)) {
    const prefix = name.slice(0, cut);
    const rest = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return { prefix, name: rest };
  }
  throw new Error(`A path too long for the archive: ${name}`);
}

function header(name: string, size: number, mtime: number, type: '0' | '5' = '0'): Buffer {
  const block = Buffer.alloc(BLOCK);
  const parts = splitName(name);
  block.write(parts.name, 0, 100, 'utf8');
  block.write(octal(type === '5' ? 0o700 : 0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  block.write(parts.prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
}

async function write(out: Writable, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** Writes tar entries into `out` and remembers each one's SHA-256. */
export class TarWriter {
  readonly sums = new Map<string, string>();
  constructor(private readonly out: Writable) {}

  async addBuffer(name: string, bytes: Buffer): Promise<void> {
    await write(this.out, header(name, bytes.length, Date.now()));
    await write(this.out, bytes);
    await this.pad(bytes.length);
    this.sums.set(name, createHash('sha256').update(bytes).digest('hex'));
  }

  /** A folder, kept even when empty: PostgreSQL's data folder has some it needs (pg_tblspc, pg_notify…). */
  async addFolder(name: string, mtime: number): Promise<void> {
    await write(this.out, header(`${name}/`, 0, mtime, '5'));
  }

  async addFile(name: string, file: string, size: number, mtime: number): Promise<void> {
    await write(this.out, header(name, size, mtime));
    const hash = createHash('sha256');
    let written = 0;
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      // A file that grew meanwhile is cut at the size its header gave; one that shrank is refused below.
      const part = chunk.subarray(0, Math.max(0, size - written));
      written += part.length;
      hash.update(part);
      await write(this.out, part);
      if (written === size) break;
    }
    if (written !== size) throw new Error(`${file} changed while it was being copied.`);
    await this.pad(size);
    this.sums.set(name, hash.digest('hex'));
  }

  async end(): Promise<void> {
    await write(this.out, END);
    this.out.end();
    await once(this.out, 'finish');
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await write(this.out, Buffer.alloc(BLOCK - rest));
  }
}

/** A file where the archive puts a folder (`media/a`, then `media/a/b`): a damaged archive, not a disk's error. */
const notAFolder = (name: string) => (error: NodeJS.ErrnoException) => {
  if (error.code === 'EEXIST' || error.code === 'ENOTDIR') throw new BadArchiveError(`${name} is inside a file`);
  throw error;
};

export interface ExtractedEntry {
  name: string;
  size: number;
  sha256: string;
}

/** Where `extractTar` puts an entry: on disk, or in memory when no larger than the given size. */
export type Placement = 'disk' | { inMemoryUpTo: number };

/**
 * Reads a tar from `source` into `into`, each regular file at its name (which must stay inside `into`); those
 * `place` keeps in memory (up to a size: an archive says any size) are returned instead. `place` sees every entry,
 * folders too, and may refuse a name by throwing. Anything but files and folders is refused, and so is a name given
 * twice (docs/decisions/135-a-removed-image-a-paused-read-and-an-outsiders-pass.md).
 */
export async function extractTar(
  source: AsyncIterable<Buffer>,
  into: string,
  place: (name: string, folder: boolean) => Placement,
): Promise<{ files: ExtractedEntry[]; memory: Map<string, Buffer> }> {
  const files: ExtractedEntry[] = [];
  const seen = new Set<string>();
  const memory = new Map<string, Buffer>();
  let pending: Buffer = Buffer.alloc(0);
  let current:
    | { name: string; size: number; left: number; hash: ReturnType<typeof createHash>; sink: Writable | Buffer[] }
    | undefined;
  let padding = 0;
  let ended = false;

  const finish = async () => {
    const entry = current!;
    current = undefined;
    if (Array.isArray(entry.sink)) memory.set(entry.name, Buffer.concat(entry.sink));
    else {
      entry.sink.end();
      // Rejects with the disk's error (a full disk), one emitted between writes too.
      await finished(entry.sink);
    }
    files.push({ name: entry.name, size: entry.size, sha256: entry.hash.digest('hex') });
    padding = (BLOCK - (entry.size % BLOCK)) % BLOCK;
  };

  const open = async (block: Buffer) => {
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
    const field = (start: number, length: number) =>
      block
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    if (Number.parseInt(field(148, 8).trim(), 8) !== sum || field(257, 5) !== 'ustar')
      throw new BadArchiveError('A damaged entry header.');
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const sizeField = field(124, 12).trim();
    // Octal digits only: a "-1" parsed to a size that never ran out, and the archive was read for ever.
    const size = /^[0-7]{1,11}$/.test(sizeField) ? Number.parseInt(sizeField, 8) : Number.NaN;
    const type = field(156, 1) || '0';
    if (type !== '0' && type !== '5')
      throw new BadArchiveError(`An entry that is neither a file nor a folder: ${name}`);
    if (!Number.isSafeInteger(size)) throw new BadArchiveError(`An entry of a damaged size: ${name}`);
    const target = path.resolve(into, name);
    if (!target.startsWith(path.resolve(into) + path.sep) || name.includes('\\'))
      throw new BadArchiveError(`An entry outside the backup: ${name}`);
    // Written with `wx`, a second file of one name failed as the disk's error, not as a damaged archive.
    const key = path.relative(into, target);
    if (seen.has(key)) throw new BadArchiveError(`${name} is in it twice`);
    seen.add(key);
    const placement = place(name, type === '5');
    if (type === '5') {
      await mkdir(target, { recursive: true, mode: 0o700 }).catch(notAFolder(name));
      return;
    }
    let sink: Writable | Buffer[];
    if (placement !== 'disk') {
      if (size > placement.inMemoryUpTo) throw new BadArchiveError(`${name} is too large`);
      sink = [];
    } else {
      await mkdir(path.dirname(target), { recursive: true }).catch(notAFolder(name));
      sink = createWriteStream(target, { flags: 'wx', mode: 0o600 });
      // Kept for `finished` above: an error emitted while nothing waits on the stream must not end the process.
      sink.on('error', () => undefined);
    }
    current = { name, size, left: size, hash: createHash('sha256'), sink };
    if (size === 0) await finish();
  };

  for await (const chunk of source) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let offset = 0;
    while (offset < pending.length && !ended) {
      if (current) {
        const part = pending.subarray(offset, offset + current.left);
        offset += part.length;
        current.left -= part.length;
        current.hash.update(part);
        if (Array.isArray(current.sink)) current.sink.push(Buffer.from(part));
        else await write(current.sink, part);
        if (current.left === 0) await finish();
      } else if (padding) {
        const skip = Math.min(padding, pending.length - offset);
        offset += skip;
        padding -= skip;
      } else {
        if (pending.length - offset < BLOCK) break;
        const block = pending.subarray(offset, offset + BLOCK);
        offset += BLOCK;
        if (block.every((byte) => byte === 0)) ended = true;
        else await open(block);
      }
    }
    pending = pending.subarray(offset);
  }
  if (current) {
    const sink = current.sink;
    if (!Array.isArray(sink)) sink.destroy();
    throw new BadArchiveError('The file ends in the middle of an entry.');
  }
  if (!ended) throw new BadArchiveError('The file ends before the archive does.');
  return { files, memory };
}
