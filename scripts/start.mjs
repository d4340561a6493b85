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

const server = spawn(npx, ['tsx', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit', env: process.env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
