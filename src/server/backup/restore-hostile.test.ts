import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { FORMAT, FORMAT_VERSION, MANIFEST, SUMS } from './backup';
import { restoreBackup, RestoreRefusedError } from './restore';
import { tempDirsOfFile } from '../test/temp-dirs';

// Archives a local process could hand the restore, written by hand: each is refused before anything of the data
// folder is touched (docs/decisions/135-a-removed-image-a-paused-read-and-an-outsiders-pass.md).

const tempDir = tempDirsOfFile();

/** One ustar entry, its header's fields as given (a size field may lie, a type may be a link's). */
function entry(name: string, body: Buffer | string, { type = '0', size }: { type?: string; size?: string } = {}) {
  const bytes = Buffer.from(body);
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, 'utf8');
  block.write('0000600\0', 100, 'ascii');
  block.write('0000000\0', 108, 'ascii');
  block.write('0000000\0', 116, 'ascii');
  block.write(size ?? `${bytes.length.toString(8).padStart(11, '0')}\0`, 124, 12, 'ascii');
  block.write('00000000000\0', 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  const padding = Buffer.alloc((512 - (bytes.length % 512)) % 512);
  return Buffer.concat([block, bytes, padding]);
}

const manifest = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: '2026-12-07T08:00:00.000Z',
    database: 'embedded',
    migrations: null,
    contains: ['db'],
    ...fields,
  });

/** A gzipped archive of `entries`, closed with its checksums of every file given as [name, body]. */
function archive(entries: Buffer[], summed: Array<[string, string]> = []): Buffer {
  const sha = (body: string) => createHash('sha256').update(body).digest('hex');
  const sums = summed.map(([name, body]) => `${sha(body)}  ${name}\n`).join('');
  return gzipSync(Buffer.concat([...entries, entry(SUMS, sums), Buffer.alloc(1024)]));
}

/** A data folder with something in each place a restore may touch, and what "nothing changed" compares. */
function dataFolder() {
  const dataDir = tempDir('data');
  for (const folder of ['db', 'media', 'outbox']) {
    mkdirSync(path.join(dataDir, folder));
    writeFileSync(path.join(dataDir, folder, 'kept'), folder);
  }
  writeFileSync(path.join(dataDir, 'secret-key'), 'the secret');
  return dataDir;
}
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const found of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(found.parentPath, found.name);
    files[path.relative(dir, file)] = found.isFile() ? readFileSync(file, 'utf8') : 'folder';
  }
  return files;
}

async function expectRefused(bytes: Buffer, why: RegExp) {
  const dataDir = dataFolder();
  const before = tree(dataDir);
  const file = path.join(tempDir('in'), 'hostile.tar.gz');
  writeFileSync(file, bytes);
  const restored = restoreBackup(loadConfig({ DATA_DIR: dataDir }), file);
  await expect(restored).rejects.toThrow(RestoreRefusedError);
  await expect(restored).rejects.toThrow(why);
  await expect(restored).rejects.toThrow(/Nothing was changed\.$/);
  expect(tree(dataDir)).toEqual(before);
}

describe('a restore handed a hostile archive', { timeout: 30_000 }, () => {
  it('refuses an entry whose size is negative, where it read the archive for ever', async () => {
    const m = manifest();
    await expectRefused(
      archive([entry(MANIFEST, m), entry('media/a', 'x', { size: '-0000000001\0' })]),
      /damaged size: media\/a/,
    );
  });

  it('refuses a manifest or checksums too large to hold in memory, before reading them', async () => {
    // Gigabytes of spaces gzip to megabytes: read into memory they ended the process; the header is enough to refuse.
    await expectRefused(archive([entry(MANIFEST, ' '.repeat(1024 * 1024 + 1))]), /innerwave-backup\.json is too large/);
    await expectRefused(
      archive([entry(MANIFEST, manifest()), entry(SUMS, ' '.repeat(64 * 1024 * 1024 + 1))]),
      /innerwave-backup\.sha256 is too large/,
    );
  });

  it('refuses a manifest that is not an object', async () => {
    await expectRefused(archive([entry(MANIFEST, 'null')]), /its manifest is not ours/);
  });

  it('refuses a manifest naming a part of the data folder a backup does not hold, where it swapped it in', async () => {
    const m = manifest({ contains: ['outbox'] });
    await expectRefused(
      archive([entry(MANIFEST, m), entry('outbox/', '', { type: '5' })], [[MANIFEST, m]]),
      /it holds "outbox\/"/,
    );
    // The database left out of a backup of an embedded one, a part named twice, one of DATA_DIR's own folders.
    for (const contains of [['media'], ['media', 'media'], ['db', '.']]) {
      const lying = manifest({ contains });
      await expectRefused(
        archive([entry(MANIFEST, lying), entry('db/', '', { type: '5' })], [[MANIFEST, lying]]),
        /its manifest is not ours/,
      );
    }
    const twice = manifest({ contains: ['media', 'media'] });
    await expectRefused(archive([entry(MANIFEST, twice)], [[MANIFEST, twice]]), /its manifest is not ours/);
  });

  it('refuses a folder outside what a backup holds', async () => {
    const m = manifest({ contains: ['media'], database: 'embedded' });
    await expectRefused(
      archive([entry(MANIFEST, m), entry('elsewhere/', '', { type: '5' })], [[MANIFEST, m]]),
      /it holds "elsewhere\/"/,
    );
  });

  it('refuses an entry given twice, or a file where a folder goes, saying nothing was changed', async () => {
    const m = manifest({ contains: ['media'] });
    await expectRefused(
      archive([entry(MANIFEST, m), entry('media/a', 'one'), entry('media/a', 'two')]),
      /media\/a.* twice/,
    );
    await expectRefused(archive([entry(MANIFEST, m), entry('media/a', 'one'), entry('media/a/b', 'two')]), /media\/a/);
  });

  it('refuses links, paths leaving the folder and absolute paths', async () => {
    const m = manifest({ contains: ['media'] });
    const cases: Array<[Buffer, RegExp]> = [
      [entry('media/link', '', { type: '2' }), /neither a file nor a folder/],
      [entry('media/hard', '', { type: '1' }), /neither a file nor a folder/],
      [entry('media/../../escaped', 'x'), /outside the backup/],
      [entry('/tmp/absolute', 'x'), /outside the backup/],
    ];
    for (const [hostile, why] of cases) await expectRefused(archive([entry(MANIFEST, m), hostile]), why);
  });
});
