import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** The server serves apps/web/dist: build it when missing or older than the app's or the texts' sources. */
export default function setup() {
  const built = path.join(root, 'apps/web/dist/index.html');
  const sources = Math.max(newest(path.join(root, 'apps/web/src')), newest(path.join(root, 'packages/i18n/src')), newest(path.join(root, 'packages/contracts/src')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  console.log('[e2e] building the web app …');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the web app does not build');
}
