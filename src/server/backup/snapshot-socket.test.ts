import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { askServerForSnapshot, controlSocket, serveSnapshots, snapshotTaker } from './snapshot';

// What a local process can send on DATA_DIR/innerwave.sock, answered by the primary's side with a stand-in for the
// embedded database whose checkpoint the test holds (docs/decisions/135-a-removed-image-a-paused-read-and-an-outsiders-pass.md).

const quiet = { warn: () => undefined };
const IDLE_MS = 300;
let cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A data folder with a database folder to copy, served by a primary whose database's checkpoints wait on `hold`. */
async function served() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iw-socket-'));
  mkdirSync(path.join(dataDir, 'db'));
  writeFileSync(path.join(dataDir, 'db', 'PG_VERSION'), '17');
  let held: Promise<void> | undefined;
  const state = { checkpoints: 0, hold: () => {}, release: () => {} };
  state.hold = () => void (held = new Promise<void>((resolve) => (state.release = resolve)));
  const checkpoint = async () => {
    state.checkpoints++;
    await held;
  };
  const tx = { exec: checkpoint, query: async () => ({ rows: [{ count: 36, latest: '1' }] }) };
  const client = {
    exec: checkpoint,
    transaction: async <T>(run: (inside: typeof tx) => Promise<T>) => run(tx),
  } as unknown as PGlite;
  const server: Server = await serveSnapshots(dataDir, snapshotTaker(dataDir, client), quiet, { idleMs: IDLE_MS });
  cleanup.push(
    () => new Promise((resolve) => server.close(resolve)),
    () => rmSync(dataDir, { recursive: true, force: true }),
    // A snapshot held by a failed test would hold its connection, and so the server's close.
    () => state.release(),
  );
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  return { dataDir, state, connections };
}

/** Sends `text` and resolves with what came back once the server closed the connection. */
function exchange(dataDir: string, text: string, { close = false } = {}): { socket: Socket; answer: Promise<string> } {
  const socket = createConnection(controlSocket(dataDir));
  socket.on('error', () => undefined);
  // Closing the server waits for its connections: one it left open would hold the test.
  cleanup.push(() => void socket.destroy());
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.write(text);
  if (close) socket.end();
  return { socket, answer: new Promise((resolve) => socket.on('close', () => resolve(answer))) };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms))]);
const snapshots = (dataDir: string) => readdirSync(dataDir).filter((name) => name.startsWith('.backup-'));

describe('the backup socket, spoken to by a local process', () => {
  it('answers garbage with an error and still takes the next snapshot', async () => {
    const { dataDir } = await served();
    for (const garbage of ['\n', 'not json\n', '{"snapshot": "../escape"}\n', '{"snapshot": ".backup-a/b"}\n', '[]\n'])
      expect(JSON.parse(await exchange(dataDir, garbage).answer), garbage).toHaveProperty('error');
    // A line longer than a request ends the connection.
    expect(await within(exchange(dataDir, 'x'.repeat(5000)).answer, 2000)).toBe('');
    await expect(askServerForSnapshot(dataDir, path.join(dataDir, '.backup-next'))).resolves.toMatchObject({
      migrations: { count: 36 },
    });
  });

  it('closes a connection that sends half a request and waits, where it held it open for ever', async () => {
    const { dataDir } = await served();
    const half = exchange(dataDir, '{"snapshot": ".backup-');
    expect(await within(half.answer, IDLE_MS * 5)).toBe('');
    expect(half.socket.destroyed).toBe(true);
  });

  it('refuses a second snapshot while one is taken, where it queued a second copy and pause', async () => {
    const { dataDir, state } = await served();
    state.hold();
    const first = askServerForSnapshot(dataDir, path.join(dataDir, '.backup-first'));
    await expect.poll(() => state.checkpoints).toBe(1);
    const second = askServerForSnapshot(dataDir, path.join(dataDir, '.backup-second'));
    await expect(within(second, 2000)).rejects.toThrow(/A backup is being taken already/);
    state.release();
    await expect(first).resolves.toMatchObject({ migrations: { count: 36 } });
    // Two a snapshot (one before its lock, one under it): the second asker's never ran.
    expect(state.checkpoints).toBe(2);
    expect(snapshots(dataDir)).toEqual(['.backup-first']);
  });

  it('removes the snapshot of a client gone before its answer, where a copy of the database stayed in DATA_DIR', async () => {
    const { dataDir, state } = await served();
    state.hold();
    const asker = exchange(dataDir, '{"snapshot": ".backup-gone"}\n');
    await expect.poll(() => state.checkpoints).toBe(1);
    asker.socket.destroy();
    state.release();
    await expect.poll(() => state.checkpoints).toBe(2);
    await expect.poll(() => snapshots(dataDir), { timeout: 2000 }).toEqual([]);
  });

  it('never removes a folder it did not make, where asking for a name taken removed it', async () => {
    const { dataDir } = await served();
    // Another backup's snapshot, being written into a tar by its command.
    mkdirSync(path.join(dataDir, '.backup-running'));
    writeFileSync(path.join(dataDir, '.backup-running', 'file'), 'being archived');
    const answer = JSON.parse(await exchange(dataDir, '{"snapshot": ".backup-running"}\n').answer) as object;
    expect(answer).toHaveProperty('error');
    expect(existsSync(path.join(dataDir, '.backup-running', 'file'))).toBe(true);
  });

  it('closes a connection whose answer is never read, once it has idled', async () => {
    const { dataDir, connections } = await served();
    const reader = exchange(dataDir, '{"snapshot": ".backup-unread"}\n');
    reader.socket.pause();
    await expect.poll(connections).toBe(1);
    await expect.poll(connections, { timeout: IDLE_MS * 5 }).toBe(0);
  });
});
