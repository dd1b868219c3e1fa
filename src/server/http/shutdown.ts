import type { FastifyInstance } from 'fastify';

/**
 * Stops the app: no new connections, in-flight requests get `graceMs` to finish, then every remaining
 * connection (a stalled upload, a client that never reads) is closed so the process can exit.
 * Answers whether connections had to be cut.
 */
export async function closeWithDeadline(app: FastifyInstance, graceMs: number): Promise<{ forced: boolean }> {
  let forced = false;
  const deadline = setTimeout(() => {
    forced = true;
    app.log.warn({ graceMs }, 'shutdown: grace period over, closing the remaining connections');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
  }
  return { forced };
}
