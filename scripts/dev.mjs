#!/usr/bin/env node
// `npm run dev`: the server from its TypeScript sources through tsx, restarted when they change (tsx watch), with the
// web app built once if it is missing or older than its sources. For the web app's own hot reload run
// `npm run dev -w @cadcloud/web` beside it (Vite on :5173, API calls sent on to this server).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildTargets, root } from './build.mjs';
import { mallocEnv } from './malloc-env.mjs';

await buildTargets({ names: ['web'], ifStale: true });
const server = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit', env: { ...mallocEnv, ...process.env } });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
