/** `npm run bench`: runs every benchmark and prints (and saves) the figures with their baselines. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runDriveBench } from './drive.bench.ts';

const out: Record<string, unknown> = { machine: { cpus: (await import('node:os')).cpus().length, node: process.version }, at: new Date().toISOString() };
out.drive = await runDriveBench();
console.log(JSON.stringify(out, null, 2));
const dir = path.join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'latest.json'), JSON.stringify(out, null, 2));
process.exit(0);
