#!/usr/bin/env node
// `npm start`: build what is missing or older than its sources (the server and the web app: scripts/build.mjs), then
// start API + web + login site on the embedded defaults (SQLite, local disk, in-process jobs, built-in SSO) as plain
// JavaScript on plain node: no TypeScript compiler at run time. PORT and DATA_DIR are honoured. SKIP_WEB_BUILD=1
// leaves the web app as it is (a server-only change, or an API without its pages).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildTargets, root } from './build.mjs';
import { mallocEnv } from './malloc-env.mjs';

try {
  await buildTargets({ names: process.env.SKIP_WEB_BUILD === '1' ? ['server'] : ['server', 'web'], ifStale: true });
} catch (e) {
  console.error(`[start] ${e?.message ?? e}`);
  process.exit(1);
}

const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.mjs')], { cwd: root, stdio: 'inherit', env: { ...mallocEnv, ...process.env } });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
