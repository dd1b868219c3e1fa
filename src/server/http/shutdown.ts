import type { FastifyInstance } from 'fastify';

/**
 * Handlers still at work, per app: a client that hangs up does not stop its request's handler, which
 * may still be writing to the database after the server has closed every connection.
 */
const working = new WeakMap<FastifyInstance, { running: Set<string>; idle: Array<() => void> }>();

export function trackHandlers(app: FastifyInstance): void {
  // By id, not by request object: see registerBodyDeadline (src/server/http/limits.ts).
  const state = { running: new Set<string>(), idle: [] as Array<() => void> };
  working.set(app, state);
  app.addHook('preHandler', (request, _reply, done) => {
    state.running.add(request.id);
    done();
  });
  // Every handler ends by sending (an answer or, through the error handler, an error), whether or not
  // anyone is still listening.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (state.running.delete(request.id) && state.running.size === 0)
      for (const resolve of state.idle.splice(0)) resolve();
    done(null, payload);
  });
}

const handlersIdle = (app: FastifyInstance) => {
  const state = working.get(app);
  return !state || state.running.size === 0
    ? Promise.resolve()
    : new Promise<void>((resolve) => state.idle.push(resolve));
};

/**
 * Stops the app: no new connections, in-flight requests get `graceMs` to finish — their handlers too,
 * even when the client hung up — then every remaining connection (a stalled upload, a client that never
 * reads) is closed so the process can exit. Answers whether anything had to be cut.
 */
export async function closeWithDeadline(app: FastifyInstance, graceMs: number): Promise<{ forced: boolean }> {
  let forced = false;
  let expire = () => undefined as void;
  const expired = new Promise<void>((resolve) => (expire = resolve));
  const deadline = setTimeout(() => {
    forced = true;
    app.log.warn({ graceMs }, 'shutdown: grace period over, closing the remaining connections');
    app.server.closeAllConnections();
    expire();
  }, graceMs);
  try {
    await app.close();
    await Promise.race([handlersIdle(app), expired]);
  } finally {
    clearTimeout(deadline);
  }
  return { forced };
}
