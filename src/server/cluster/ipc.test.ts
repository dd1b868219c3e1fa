import cluster, { type Worker } from 'node:cluster';
import { setImmediate as turnEnd } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batched, serveWorkers } from './ipc';

const call = (id: number, method = 'echo', params: unknown = id) => ({ ipc: 'call' as const, id, method, params });

describe('batched', () => {
  it('sends what one turn of the event loop sent as one message, and a lone message as it is', async () => {
    const sent: unknown[] = [];
    const sender = batched((message) => sent.push(message));
    sender.send(call(1));
    sender.send(call(2));
    expect(sent).toEqual([]);
    await turnEnd();
    expect(sent).toEqual([{ ipc: 'batch', messages: [call(1), call(2)] }]);
    sender.send(call(3));
    await turnEnd();
    expect(sent.at(-1)).toEqual(call(3));
  });

  it('sends at once what is waiting when flushed, and nothing twice', async () => {
    const sent: unknown[] = [];
    const sender = batched((message) => sent.push(message));
    sender.send(call(1));
    sender.flush();
    expect(sent).toEqual([call(1)]);
    await turnEnd();
    expect(sent).toHaveLength(1);
  });
});

describe('serveWorkers', () => {
  afterEach(() => {
    cluster.removeAllListeners('message');
    cluster.removeAllListeners('exit');
  });

  /** A worker as the primary sees it: what it is sent is kept. */
  const fakeWorker = (id: number) => {
    const received: unknown[] = [];
    const worker = {
      id,
      isConnected: () => true,
      send: (message: unknown) => received.push(message),
    } as unknown as Worker;
    return { worker, received };
  };

  it('answers each call of a batch, and the answers of one turn go back as one message', async () => {
    const echo = vi.fn((params: never) => params);
    serveWorkers({ echo, fail: () => Promise.reject(new Error('no')) });
    const { worker, received } = fakeWorker(1);
    cluster.emit('message', worker, { ipc: 'batch', messages: [call(1), call(2, 'fail'), call(3, 'missing')] });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(echo).toHaveBeenCalledTimes(1);
    expect(received[0]).toEqual({
      ipc: 'batch',
      messages: [
        { ipc: 'reply', id: 3, error: { name: 'Error', message: 'no such call: missing' } },
        { ipc: 'reply', id: 1, result: 1 },
        {
          ipc: 'reply',
          id: 2,
          error: { name: 'Error', message: 'no', code: undefined, detail: undefined, constraint: undefined },
        },
      ],
    });
  });

  it('sends the answers already given before a notice, so a worker learns of a change after its answer', async () => {
    let broadcast: (notice: unknown) => Promise<void> = async () => {};
    const primary = serveWorkers({
      read: () => 'read',
      change: async () => {
        // Answered after the read's answer is waiting to be sent, in the same turn.
        await Promise.resolve();
        void broadcast('changed');
        return 'changed';
      },
    });
    broadcast = primary.broadcast;
    const { worker, received } = fakeWorker(1);
    vi.spyOn(cluster, 'workers', 'get').mockReturnValue({ 1: worker });
    cluster.emit('message', worker, { ipc: 'batch', messages: [call(7, 'read'), call(8, 'change')] });
    await vi.waitFor(() => expect(received).toHaveLength(3));
    expect(received[0]).toEqual({ ipc: 'reply', id: 7, result: 'read' });
    expect(received[1]).toMatchObject({ ipc: 'notice', notice: 'changed' });
    expect(received[2]).toEqual({ ipc: 'reply', id: 8, result: 'changed' });
  });
});
