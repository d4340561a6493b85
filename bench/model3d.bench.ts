/**
 * 3D conversion (issue 21, performance): our whole conversion (import, batching, quantization, meshopt, GLB) of a
 * ~30 MB STEP and a ~50 MB IFC generated here, against the library alone on the same file in the same run:
 * occt-import-js `ReadStepFile` (our importer's options), web-ifc `OpenModel` + `StreamAllMeshes` reading each
 * geometry's vertices and indices once (and, for reference, `StreamAllMeshes` touching nothing). Every run is a child
 * process of its own (model3d-convert.child.ts): wall time from the bytes in memory (the library's WASM start-up
 * included on both sides), CPU time, peak RSS. `web-ifc-props` adds reading, through web-ifc's GetLines, the lines our
 * importer reads for the tree and the property sets (what the GLB carries besides geometry; our importer reads them with
 * its own line reader, importers/step-lines.ts). Target: ours ≤ 1.3 × the library's time. Also the GLB's size against
 * the same GLB without quantization and meshopt.
 *
 *   npm run bench -- model3d
 *   BENCH_3D_DIR=/path     where the generated files are kept between runs (default <tmp>/cadcloud-bench-model3d)
 *   BENCH_STEP_MB=30  BENCH_IFC_MB=50   sizes
 *   BENCH_3D_REPEAT=1      runs of each side, taking turns (the median is reported)
 *   BENCH_3D_ONLY=ifc|step one of the two
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ifcBuilding } from '../packages/model3d/src/fixtures/ifc.ts';
import { stepManyParts } from '../packages/model3d/src/fixtures/step.ts';

const root = path.resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;
/** bytes of STEP a generated part takes (stepManyParts), to size the assembly */
const STEP_BYTES_PER_PART = 6_950;

type Run = { ms: number; cpuMs: number; maxRssMb: number } & Record<string, unknown>;

function child(...args: string[]): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'model3d-convert.child.ts'), ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * MB });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`model3d bench child ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(line) as Run;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function files(dir: string) {
  mkdirSync(dir, { recursive: true });
  const stepMb = Number(process.env.BENCH_STEP_MB ?? 30);
  const ifcMb = Number(process.env.BENCH_IFC_MB ?? 50);
  const step = path.join(dir, `plant-${stepMb}mb.stp`);
  const ifc = path.join(dir, `tower-${ifcMb}mb.ifc`);
  if (!existsSync(step)) writeFileSync(step, stepManyParts(Math.round((stepMb * MB) / STEP_BYTES_PER_PART)));
  if (!existsSync(ifc)) writeFileSync(ifc, ifcBuilding({ targetBytes: ifcMb * MB, perStorey: 250 }));
  return { step, ifc };
}

/** the library's runs and ours, taking turns, the median of each */
function compare(file: string, libraries: string[], repeat: number, dir: string) {
  const glb = path.join(dir, `${path.basename(file)}.glb`);
  const runs: Record<string, Run[]> = {};
  for (let i = 0; i < repeat; i++) for (const mode of [...libraries, 'ours']) (runs[mode] ??= []).push(mode === 'ours' ? child('ours', file, glb) : child(mode, file));
  const pick = (mode: string): Run => {
    const list = runs[mode];
    const ms = median(list.map((r) => r.ms));
    return { ...list.find((r) => r.ms === ms)!, ms, maxRssMb: median(list.map((r) => r.maxRssMb)), cpuMs: median(list.map((r) => r.cpuMs)) };
  };
  const ours = pick('ours');
  const plain = child('plain', glb);
  const out: Record<string, unknown> = { file: path.basename(file), mb: +(statSync(file).size / MB).toFixed(1), ours };
  for (const l of libraries) {
    const lib = pick(l);
    out[l] = lib;
    out[`ratio ours/${l}`] = { time: +(ours.ms / lib.ms).toFixed(2), cpu: +(ours.cpuMs / lib.cpuMs).toFixed(2), peakRss: +(ours.maxRssMb / lib.maxRssMb).toFixed(2) };
  }
  out.glb = {
    compressedBytes: ours.glbBytes,
    uncompressedBytes: plain.plainBytes,
    ratio: +(Number(ours.glbBytes) / Number(plain.plainBytes)).toFixed(3),
    // the geometry alone (the JSON of names, properties and ranges is the same on both sides)
    binRatio: +(Number(ours.binBytes) / Number(plain.plainBinBytes)).toFixed(3),
    jsonBytes: ours.jsonBytes,
    primitives: plain.primitives,
  };
  return out;
}

export async function runModel3dBench() {
  const dir = process.env.BENCH_3D_DIR ?? path.join(os.tmpdir(), 'cadcloud-bench-model3d');
  const repeat = Number(process.env.BENCH_3D_REPEAT ?? 1);
  const { step, ifc } = files(dir);
  const only = process.env.BENCH_3D_ONLY;
  const out: Record<string, unknown> = { load: os.loadavg().map((l) => +l.toFixed(1)) };
  // each printed when done: the STEP half takes minutes (OpenCascade reads an assembly part by part)
  if (only !== 'step') console.error(JSON.stringify((out.ifc = compare(ifc, ['web-ifc-props', 'web-ifc', 'web-ifc-stream'], repeat, dir))));
  if (only !== 'ifc') console.error(JSON.stringify((out.step = compare(step, ['occt'], repeat, dir))));
  out.loadAfter = os.loadavg().map((l) => +l.toFixed(1));
  return out;
}
