#!/usr/bin/env node
// `npm start`: build the web app, then start API + web + login site on the embedded defaults
// (SQLite, local disk, in-process jobs, built-in SSO). PORT and DATA_DIR are honoured.
import { spawnSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

if (process.env.SKIP_WEB_BUILD !== '1') {
  console.log('[start] building the web app …');
  const build = spawnSync(npx, ['vite', 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// MALLOC_ARENA_MAX: glibc gives every thread that allocates (worker threads rendering thumbnails and scenes, the
// libuv pool) an arena of its own and keeps what they freed: after an upload storm that held ~190 MB of the server's
// memory for good (issue 14 item 13). Two arenas cost nothing measurable here; an operator's own value wins.
const server = spawn(npx, ['tsx', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit', env: { MALLOC_ARENA_MAX: '2', ...process.env } });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
