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

// glibc's allocator kept what an upload storm freed (issue 14 item 13: hundreds of MB for good): every thread that
// allocates (worker threads rendering thumbnails and scenes, the libuv pool) got an arena of its own, and after the
// first large buffer was freed its sliding mmap threshold put later large buffers (chunks, blobs read for thumbnails)
// on the heap, where freeing them fragments it instead of returning them. Two arenas and fixed thresholds (large
// buffers mapped and unmapped, the heap's free top returned) cost nothing measurable here. Keep in step with
// apps/server/src/test/server-process.ts; an operator's own values win.
const mallocEnv = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const server = spawn(npx, ['tsx', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit', env: { ...mallocEnv, ...process.env } });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
