import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig, type Config } from '../config';
import type { Database } from '../db/client';
import { createPglite } from '../db/pglite';
import { openPreparedDatabase } from '../db/prepare';
import { pgliteCallHandlers } from '../db/pglite-owner';
import { acquireDataDirLock } from '../db/data-dir-lock';
import { writeBackup } from './backup';
import { restoreBackup, RestoreRefusedError } from './restore';
import { serveSnapshots, snapshotTaker } from './snapshot';
import { tempDirsOfFile } from '../test/temp-dirs';

const tempDir = tempDirsOfFile();
const configFor = (dataDir: string): Config => loadConfig({ DATA_DIR: dataDir });
const quiet = { warn: () => undefined };

/** A migrated embedded database in DATA_DIR/db, from the suite's template (initdb and the migrations take long). */
async function migratedIn(dataDir: string): Promise<Database> {
  const template = new Blob([await readFile(inject('dbTemplate'))]);
  return createPglite({ dataDir: path.join(dataDir, 'db'), loadDataDir: template });
}

/** A data folder as `npm start` leaves it: a migrated embedded database, and media on disk. */
async function dataFolder(): Promise<{ dataDir: string; database: Database }> {
  const dataDir = tempDir('data');
  const database = await migratedIn(dataDir);
  await database.pglite!.exec('create table backup_probe (n int primary key)');
  mkdirSync(path.join(dataDir, 'media', 'audio', 'own-voice'), { recursive: true });
  writeFileSync(path.join(dataDir, 'media', 'audio', 'own-voice', 'a.webm'), 'a recording');
  mkdirSync(path.join(dataDir, 'media', '.incoming'), { recursive: true });
  writeFileSync(path.join(dataDir, 'media', '.incoming', 'x.part'), 'half an upload');
  configFor(dataDir); // generates DATA_DIR/secret-key, as a first start does
  return { dataDir, database };
}

/** Every file under `dir` with its SHA-256: what "nothing changed" compares. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = entry.isFile()
      ? createHash('sha256').update(readFileSync(file)).digest('hex')
      : 'folder';
  }
  return files;
}

function runBackupCommand(dataDir: string, file: string): Promise<{ code: number | null; out: string; err: string }> {
  const { DATABASE_URL: _postgres, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'cli.ts'), 'backup', file], {
    env: { ...env, DATA_DIR: dataDir },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

async function probeRows(dataDir: string): Promise<Set<number>> {
  const prepared = await openPreparedDatabase({ dataDir });
  try {
    const { rows } = await prepared.database.pglite!.query<{ n: number }>('select n from backup_probe');
    return new Set(rows.map((row) => row.n));
  } finally {
    await prepared.close();
  }
}

// The embedded database's backup; on PostgreSQL the operator's pg_dump is.
describe.skipIf(inject('dbKind') !== 'pglite')(
  'backup and restore of the embedded database',
  { timeout: 120_000 },
  () => {
    let backupFile: string;
    let source: string;

    it('takes a backup through the running server while writes go on, holding every write acknowledged before it began', async () => {
      const { dataDir, database } = await dataFolder();
      source = dataDir;
      // This process is the server's primary: it holds the data folder and answers on its socket.
      const lock = acquireDataDirLock(dataDir);
      const server: Server = await serveSnapshots(dataDir, snapshotTaker(dataDir, database.pglite!), quiet);
      // Workers' calls, as the primary answers them: single statements and transactions held open across calls.
      const { handlers } = pgliteCallHandlers(database.pglite!);
      const worker = { id: 1, isDead: () => false };
      const call = (name: string, params: unknown) =>
        (handlers[name] as (params: unknown, from: typeof worker) => Promise<unknown>)(params, worker);
      const acknowledged = new Set<number>();
      const attempted = new Set<number>();
      let next = 0;
      let writing = true;
      const writer = async (inTransaction: boolean) => {
        while (writing) {
          const n = next++;
          attempted.add(n);
          if (inTransaction) {
            const tx = (await call('db.begin', undefined)) as number;
            await call('db.query', { sql: 'insert into backup_probe values ($1)', params: [n], tx });
            await new Promise((resolve) => setTimeout(resolve, 1));
            await call('db.end', { tx, commit: true });
          } else {
            await call('db.query', { sql: 'insert into backup_probe values ($1)', params: [n] });
          }
          acknowledged.add(n);
        }
      };
      const writers = [writer(false), writer(true), writer(false), writer(true)];
      await new Promise((resolve) => setTimeout(resolve, 300));

      const before = new Set(acknowledged);
      backupFile = path.join(tempDir('out'), 'innerwave.tar.gz');
      // `npm run backup -- <file>`, in a process of its own.
      const run = await runBackupCommand(dataDir, backupFile);
      const after = acknowledged.size;
      writing = false;
      await Promise.all(writers);
      await new Promise((resolve) => server.close(resolve));
      await database.close();
      lock.release();

      expect(run).toMatchObject({ code: 0, err: '' });
      expect(run.out).toMatch(
        /^Backup written to .*innerwave\.tar\.gz: .*\(taken by the running server, its database paused \d+ ms\)\.\n$/,
      );
      expect(after).toBeGreaterThan(before.size); // writes went on meanwhile
      expect(readdirSync(path.dirname(backupFile))).toEqual(['innerwave.tar.gz']);
      expect(readdirSync(dataDir).filter((name) => name.startsWith('.backup-'))).toEqual([]);

      const restored = tempDir('restored');
      const result = await restoreBackup(configFor(restored), backupFile);
      expect(readFileSync(path.join(restored, 'secret-key'), 'utf8')).toBe(
        readFileSync(path.join(dataDir, 'secret-key'), 'utf8'),
      );
      expect(readFileSync(path.join(restored, 'media', 'audio', 'own-voice', 'a.webm'), 'utf8')).toBe('a recording');
      expect(existsSync(path.join(restored, 'media', '.incoming'))).toBe(false);
      // The generated secret it replaced was kept aside.
      expect(existsSync(path.join(result.aside, 'secret-key'))).toBe(true);

      const rows = await probeRows(restored);
      const missing = [...before].filter((n) => !rows.has(n));
      expect(missing).toEqual([]);
      expect([...rows].every((n) => attempted.has(n))).toBe(true);
    });

    it('refuses a corrupt, cut or foreign file, and changes nothing', async () => {
      const target = tempDir('target');
      await restoreBackup(configFor(target), backupFile);
      const rowsBefore = await probeRows(target);
      const before = tree(target);
      const bytes = readFileSync(backupFile);
      const bad = tempDir('bad');
      const flipped = Buffer.from(bytes);
      flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
      const foreign = path.join(bad, 'foreign.tar.gz');
      const foreignDir = tempDir('foreign');
      writeFileSync(path.join(foreignDir, 'notes.txt'), 'not a backup');
      await new Promise((resolve, reject) =>
        spawn('tar', ['-czf', foreign, '-C', foreignDir, 'notes.txt']).on('exit', resolve).on('error', reject),
      );
      const cases: Record<string, Buffer> = {
        'random.tar.gz': Buffer.from('this is not an archive at all'.repeat(40)),
        'flipped.tar.gz': flipped,
        'cut.tar.gz': bytes.subarray(0, Math.floor(bytes.length * 0.7)),
      };
      for (const [name, content] of Object.entries(cases)) writeFileSync(path.join(bad, name), content);

      for (const name of [...Object.keys(cases), 'foreign.tar.gz']) {
        const refused = restoreBackup(configFor(target), path.join(bad, name));
        await expect(refused, name).rejects.toThrow(RestoreRefusedError);
        await expect(refused, name).rejects.toThrow(
          /is not a backup of Innerwave, or it is damaged .*Nothing was changed/,
        );
        expect(tree(target), name).toEqual(before);
      }
      expect(await probeRows(target)).toEqual(rowsBefore);
    });

    it('refuses a backup whose database has migrations newer than the code', async () => {
      const dataDir = tempDir('newer');
      const database = await migratedIn(dataDir);
      await database.pglite!.exec(
        `insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', 9999999999999)`,
      );
      await database.close();
      // The server stopped: the command opens the database itself.
      const file = path.join(tempDir('out'), 'newer.tar.gz');
      const report = await writeBackup(configFor(dataDir), file);
      expect(report.fromServer).toBe(false);

      const target = tempDir('target');
      const config = configFor(target);
      const before = tree(target);
      await expect(restoreBackup(config, file)).rejects.toThrow(/migrations newer than this code's/);
      expect(tree(target)).toEqual(before);
    });

    it('refuses to restore while the server runs on the data folder', async () => {
      // The server's primary, answering on the socket.
      const database = await createPglite({ dataDir: path.join(source, 'db') });
      const server = await serveSnapshots(source, snapshotTaker(source, database.pglite!), quiet);
      try {
        await expect(restoreBackup(configFor(source), backupFile)).rejects.toThrow(
          /Innerwave is running on this data folder: stop it/,
        );
      } finally {
        await new Promise((resolve) => server.close(resolve));
        await database.close();
      }

      // Another process holding the data folder's lock (a server before this release, or the admin CLI).
      const holder = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import('${path.resolve(import.meta.dirname, '../db/data-dir-lock.ts')}').then((m) => { m.acquireDataDirLock(${JSON.stringify(source)}); console.log('locked'); setInterval(() => {}, 1000); })`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        await new Promise((resolve) => holder.stdout.once('data', resolve));
        const before = tree(source);
        await expect(restoreBackup(configFor(source), backupFile)).rejects.toThrow(
          /in use by another Innerwave process[\s\S]*Innerwave is running on this data folder/,
        );
        expect(tree(source)).toEqual(before);
      } finally {
        holder.kill();
      }
    });

    it('is refused in the process holding the folder, with no socket served, instead of opening its database twice', async () => {
      const { dataDir, database } = await dataFolder();
      // The primary whose socket could not be made: a backup asked in it finds no server to answer.
      const lock = acquireDataDirLock(dataDir);
      const lockText = readFileSync(lock.file, 'utf8');
      try {
        await database.pglite!.query('insert into backup_probe values (1)');
        await expect(writeBackup(configFor(dataDir), path.join(tempDir('out'), 'b.tar.gz'))).rejects.toThrow(
          `The data folder ${dataDir} is open in this process already`,
        );
        // The holder's lock stays, and its database goes on as it was.
        expect(readFileSync(lock.file, 'utf8')).toBe(lockText);
        await database.pglite!.query('insert into backup_probe values (2)');
        const { rows } = await database.pglite!.query<{ n: number }>('select n from backup_probe order by n');
        expect(rows.map((row) => row.n)).toEqual([1, 2]);
      } finally {
        await database.close();
        lock.release();
      }
    });
  },
);
