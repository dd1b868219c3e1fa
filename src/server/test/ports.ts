import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on, chosen by the OS: a test that needs a port to point at (or to
 * start a process on) takes one of these, so runs that overlap on one machine never collide.
 */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
