import cluster from 'node:cluster';
import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';

// `node bench/bare-fastify.mjs PORT DIR`: the framework's own ceiling beside nginx's. One worker per core
// (as `npm start`), Fastify with no logger, hooks, session check or database, answering every file of DIR
// at `/<name>` as it is: GET as a read, POST after parsing its JSON body as a refresh does. What Innerwave
// serves in less than this is its own cost; what this serves in less than nginx is Node's and Fastify's.

const [port, dir] = process.argv.slice(2);
if (cluster.isPrimary) {
  for (let i = 0; i < availableParallelism(); i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const app = Fastify({ logger: false });
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(path.join(dir, name));
    const answer = (_request, reply) => reply.header('content-type', 'application/json').send(bytes);
    app.get(`/${name}`, answer);
    app.post(`/${name}`, answer);
  }
  await app.listen({ port: Number(port), host: '127.0.0.1' });
}
