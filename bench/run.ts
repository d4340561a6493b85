/** `npm run bench`: runs every benchmark and prints (and saves) the figures with their baselines; `npm run bench -- cad-parse` runs one. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runDriveBench } from './drive.bench.ts';
import { runCadParseBench } from './cad-parse.bench.ts';
import { runViewerBench } from './viewer.bench.ts';
import { runCadRenderBench } from './cad-render.bench.ts';
import { runConvertBench } from './convert.bench.ts';
import { runPdfImportBench } from './pdf-import.bench.ts';
import { runUnzipBench } from './unzip.bench.ts';
import { runModel3dBench } from './model3d.bench.ts';

const out: Record<string, unknown> = { machine: { cpus: (await import('node:os')).cpus().length, node: process.version }, at: new Date().toISOString() };
const only = process.argv.slice(2);
const want = (name: string) => !only.length || only.includes(name);
if (want('drive')) out.drive = await runDriveBench();
if (want('cad-parse')) out.cadParse = await runCadParseBench();
if (want('viewer')) out.viewer = await runViewerBench();
if (want('cad-render')) out.cadRender = await runCadRenderBench();
if (want('convert')) out.convert = await runConvertBench();
if (want('pdf-import')) out.pdfImport = await runPdfImportBench();
if (want('unzip')) out.unzip = await runUnzipBench();
if (want('model3d')) out.model3d = await runModel3dBench();
console.log(JSON.stringify(out, null, 2));
const dir = path.join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'latest.json'), JSON.stringify(out, null, 2));
process.exit(0);
