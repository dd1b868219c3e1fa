import cluster, { type Worker } from 'node:cluster';

// Calls from a worker process to the primary, and notices from the primary to every worker, over
// the cluster's IPC channel (structured-clone serialisation, so Dates and byte arrays cross intact).

interface CallMessage {
  ipc: 'call';
  id: number;
  method: string;
  params: unknown;
}
interface ReplyMessage {
  ipc: 'reply';
  id: number;
  result?: unknown;
  error?: SerializedError;
}
interface NoticeMessage {
  ipc: 'notice';
  id: number;
  notice: unknown;
}
interface NoticeAckMessage {
  ipc: 'notice-ack';
  id: number;
}
/** Calls or replies made in one turn of the event loop, crossing as one message (see `batched`). */
interface BatchMessage {
  ipc: 'batch';
  messages: Array<CallMessage | ReplyMessage>;
}
type Message = CallMessage | ReplyMessage | NoticeMessage | NoticeAckMessage | BatchMessage;

/** An error as it crosses processes: its message and the fields our code reads (`code` above all). */
export interface SerializedError {
  name: string;
  message: string;
  code?: unknown;
  detail?: unknown;
  constraint?: unknown;
}

const isMessage = (value: unknown): value is Message => typeof value === 'object' && value !== null && 'ipc' in value;

/**
 * A sender that gathers what is sent during one turn of the event loop and sends it once, at the end of
 * the turn (setImmediate: after the I/O callbacks, before the loop waits again). When many requests
 * arrive together (a login storm's first moments) each would otherwise cost a write to the pipe and a
 * wake-up of the other side, and on a busy machine every wake-up may hand the CPU away mid-turn.
 */
export function batched<T extends CallMessage | ReplyMessage>(send: (message: T | BatchMessage) => void) {
  let queue: T[] = [];
  const flush = () => {
    const messages = queue;
    queue = [];
    if (messages.length === 1) send(messages[0]!);
    else if (messages.length > 1) send({ ipc: 'batch', messages });
  };
  return {
    send(message: T) {
      if (queue.push(message) === 1) setImmediate(flush);
    },
    flush,
  };
}

function crossingError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { code, detail, constraint } = error as { code?: unknown; detail?: unknown; constraint?: unknown };
  return { name: error.name, message: error.message, code, detail, constraint };
}

/** An error raised in the primary, re-thrown in the worker with the same message and code. */
export class RemoteError extends Error {
  readonly code: unknown;
  readonly detail: unknown;
  readonly constraint: unknown;
  constructor(serialized: SerializedError) {
    super(serialized.message);
    this.name = serialized.name;
    this.code = serialized.code;
    this.detail = serialized.detail;
    this.constraint = serialized.constraint;
  }
}

/** The worker's side: calls into the primary, and the notices it broadcasts. */
export interface PrimaryChannel {
  call<T>(method: string, params: unknown): Promise<T>;
  onNotice(handler: (notice: unknown) => void): void;
  /** Calls still waiting for their answer. */
  pending(): number;
}

export class PrimaryGoneError extends Error {
  readonly code = 'ECONNRESET';
  constructor() {
    super('Connection terminated: the primary process is gone');
  }
}

export function connectToPrimary(): PrimaryChannel {
  if (!process.send) throw new Error('connectToPrimary() runs in a cluster worker only');
  const send = process.send.bind(process);
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const noticeHandlers: Array<(notice: unknown) => void> = [];
  let nextId = 1;
  // Sent at the end of the turn: by then the channel may have closed, and 'disconnect' rejected the calls.
  const calls = batched<CallMessage>((message) => process.connected && send(message));
  const settle = (message: ReplyMessage) => {
    const call = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) call?.reject(new RemoteError(message.error));
    else call?.resolve(message.result);
  };
  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.ipc === 'reply') settle(message);
    else if (message.ipc === 'batch') {
      for (const reply of message.messages) if (reply.ipc === 'reply') settle(reply);
    } else if (message.ipc === 'notice') {
      for (const handler of noticeHandlers) handler(message.notice);
      send({ ipc: 'notice-ack', id: message.id } satisfies NoticeAckMessage);
    }
  });
  process.on('disconnect', () => {
    for (const call of waiting.values()) call.reject(new PrimaryGoneError());
    waiting.clear();
  });
  return {
    call<T>(method: string, params: unknown) {
      return new Promise<T>((resolve, reject) => {
        if (!process.connected) return reject(new PrimaryGoneError());
        const id = nextId++;
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        calls.send({ ipc: 'call', id, method, params });
      });
    },
    onNotice: (handler) => void noticeHandlers.push(handler),
    pending: () => waiting.size,
  };
}

export type CallHandler = (params: never, worker: Worker) => unknown;

/** How long the primary waits for a worker to confirm a notice (a worker that hangs is not waited for longer). */
const NOTICE_ACK_TIMEOUT_MS = 2000;

/** The primary's side: answers workers' calls with `handlers`, and broadcasts notices to every worker. */
export function serveWorkers(handlers: Record<string, CallHandler>): { broadcast(notice: unknown): Promise<void> } {
  const acks = new Map<number, { left: Set<number>; done: () => void }>();
  let nextNoticeId = 1;
  const replies = new Map<Worker, ReturnType<typeof batched<ReplyMessage>>>();
  const repliesTo = (worker: Worker) => {
    let sender = replies.get(worker);
    if (!sender) {
      sender = batched<ReplyMessage>((message) => worker.isConnected() && worker.send(message));
      replies.set(worker, sender);
    }
    return sender;
  };

  const broadcast = (notice: unknown) =>
    new Promise<void>((resolve) => {
      const id = nextNoticeId++;
      const live = Object.values(cluster.workers ?? {}).filter(
        (worker): worker is Worker => !!worker && worker.isConnected(),
      );
      if (live.length === 0) return resolve();
      const timer = setTimeout(finish, NOTICE_ACK_TIMEOUT_MS);
      function finish() {
        clearTimeout(timer);
        acks.delete(id);
        resolve();
      }
      acks.set(id, { left: new Set(live.map((worker) => worker.id)), done: finish });
      // Replies already given go first: a worker learns of a change after the answer that made it.
      for (const sender of replies.values()) sender.flush();
      for (const worker of live) worker.send({ ipc: 'notice', id, notice } satisfies NoticeMessage);
    });

  const acknowledge = (workerId: number, id: number) => {
    const pending = acks.get(id);
    if (!pending) return;
    pending.left.delete(workerId);
    if (pending.left.size === 0) pending.done();
  };

  const answer = (worker: Worker, message: CallMessage) => {
    const handler = handlers[message.method];
    const reply = (payload: Omit<ReplyMessage, 'ipc' | 'id'>) => {
      if (worker.isConnected()) repliesTo(worker).send({ ipc: 'reply', id: message.id, ...payload });
    };
    if (!handler) return reply({ error: { name: 'Error', message: `no such call: ${message.method}` } });
    Promise.resolve()
      .then(() => handler(message.params as never, worker))
      .then(
        (result) => reply({ result }),
        (error: unknown) => reply({ error: crossingError(error) }),
      );
  };

  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.ipc === 'notice-ack') acknowledge(worker.id, message.id);
    else if (message.ipc === 'call') answer(worker, message);
    else if (message.ipc === 'batch')
      for (const call of message.messages) if (call.ipc === 'call') answer(worker, call);
  });
  // A worker that dies owes no more acknowledgements, and is answered no more.
  cluster.on('exit', (worker) => {
    for (const [id] of acks) acknowledge(worker.id, id);
    replies.delete(worker);
  });
  return { broadcast };
}
