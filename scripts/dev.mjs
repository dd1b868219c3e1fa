import { spawn } from 'node:child_process';
import path from 'node:path';

// `npm run dev`: the API with reload on change (port 3000) and Vite with hot reload (port 5173).
const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'src/server/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { WEB_CONCURRENCY: '1', ...process.env, PORT: process.env.API_PORT ?? '3000' },
  }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit' }),
];
console.log('Innerwave dev: open http://127.0.0.1:5173 (API on port 3000)');
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
