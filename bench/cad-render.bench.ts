/**
 * `cad render` of the floor plan DWG to a 1600 px PNG (issue 15, performance): where the time goes, against the 1 s
 * target (flatten + fonts + text + raster, the DWG read aside), and against a baseline measured in the same run.
 *
 * - Phases: bench/cad-render-phases.ts in a fresh process per run (a CLI run is cold by nature: its first flatten,
 *   font load and glyphs are the ones timed): DWG read (LibreDWG in its worker process + our DXF reader), flatten,
 *   fonts, text (the text engine's callback, timed inside the render) and raster (renderPng without the text time:
 *   prepare, paint, PNG). Wall and CPU milliseconds (CPU: this process, steadier than the wall clock when other jobs
 *   share the cores; LibreDWG's process is not in it). Median of BENCH_RENDER_RUNS runs.
 * - Baseline: the same phases on another version of the code, a `git archive` of BENCH_RENDER_BASELINE (a commit or
 *   branch, default `main`; `none` skips it) in a temporary folder using this checkout's node_modules, run
 *   alternately with ours so both meet the same load. `ratio` = baseline ÷ ours; `samePng` says whether the two wrote
 *   the same PNG bytes.
 * - The command as a user runs it, once each: start-up (the CLI with no arguments) and `cad render … --width 1600`.
 *
 *   npm run bench -- cad-render          only this benchmark
 *   BENCH_RENDER_FILE=/path/to/x.dwg     another drawing (default SAMPLES_DIR/dwg_2004_ddc_floorplan.dwg)
 *   BENCH_RENDER_BASELINE=<ref>|none     the baseline's commit (default main)
 *   BENCH_RENDER_RUNS=5                  runs per side (default 3)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const WIDTH = 1600;
const TARGET_MS = 1000;
const PHASES = ['flatten', 'fontLoad', 'text', 'raster'] as const;

interface Timed {
  ms: number;
  cpuMs: number;
}
type Run = Record<'dwgRead' | (typeof PHASES)[number], Timed> & { pngBytes: number; pngSha256: string; counts: Record<string, number> };

/** a checkout of `ref` beside this one, sharing its node_modules (our workspace packages linked inside the copy) */
function checkout(ref: string, into: string): string {
  execFileSync('sh', ['-c', `git -C "${root}" archive "${ref}" | tar -x -C "${into}"`]);
  const nm = path.join(into, 'node_modules');
  mkdirSync(path.join(nm, '@cadcloud'), { recursive: true });
  for (const name of readdirSync(path.join(root, 'node_modules'))) if (name !== '@cadcloud') symlinkSync(path.join(root, 'node_modules', name), path.join(nm, name));
  for (const [name, dir] of [['cad', 'packages/cad'], ['contracts', 'packages/contracts'], ['i18n', 'packages/i18n']]) symlinkSync(path.join(into, dir), path.join(nm, '@cadcloud', name));
  return into;
}

function phases(code: string, file: string): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/cad-render-phases.ts'), code, file, String(WIDTH)], { cwd: code, encoding: 'utf8', timeout: 300_000 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`phases of ${code} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(line) as Run;
}

function cli(code: string, args: string[]): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'packages/cad/src/cli/cad.cli.ts', ...args], { cwd: code, encoding: 'utf8', timeout: 300_000 });
  return r.status === 0 || !args.length ? Math.round(performance.now() - t) : -1;
}

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
};

/** medians per phase, and the render total (flatten + fonts + text + raster) */
function summary(runs: Run[]) {
  const of = (k: keyof Run) => ({ ms: median(runs.map((r) => (r[k] as Timed).ms)), cpuMs: median(runs.map((r) => (r[k] as Timed).cpuMs)) });
  const total = { ms: median(runs.map((r) => PHASES.reduce((n, k) => n + r[k].ms, 0))), cpuMs: median(runs.map((r) => PHASES.reduce((n, k) => n + r[k].cpuMs, 0))) };
  return { dwgRead: of('dwgRead'), flatten: of('flatten'), fontLoad: of('fontLoad'), text: of('text'), raster: of('raster'), render: total, runs: runs.map((r) => Object.fromEntries(PHASES.map((k) => [k, r[k]]))) };
}

export async function runCadRenderBench() {
  const file = process.env.BENCH_RENDER_FILE ?? path.resolve(root, process.env.SAMPLES_DIR ?? '../shared/samples', 'dwg_2004_ddc_floorplan.dwg');
  if (!existsSync(file)) return { skipped: `no ${file}` };
  const runs = Math.max(1, Number(process.env.BENCH_RENDER_RUNS ?? 3));
  const ref = process.env.BENCH_RENDER_BASELINE ?? 'main';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-render-bench-'));
  try {
    const base = ref === 'none' ? null : checkout(ref, mkdirSync(path.join(dir, 'baseline'), { recursive: true })!);
    const ours: Run[] = [], theirs: Run[] = [];
    // alternately, so both sides meet the same load on shared cores
    for (let i = 0; i < runs; i++) {
      ours.push(phases(root, file));
      if (base) theirs.push(phases(base, file));
    }
    const out = path.join(dir, 'out.png');
    const command = { startupMs: cli(root, []), cliMs: cli(root, ['render', file, out, '--width', String(WIDTH)]), baselineCliMs: base ? cli(base, ['render', file, out, '--width', String(WIDTH)]) : undefined };
    const s = summary(ours);
    const b = base ? summary(theirs) : null;
    const ratio = (k: 'flatten' | 'fontLoad' | 'text' | 'raster' | 'render') => b && { ms: +(b[k].ms / Math.max(1, s[k].ms)).toFixed(2), cpuMs: +(b[k].cpuMs / Math.max(1, s[k].cpuMs)).toFixed(2) };
    const row = (name: string, x: ReturnType<typeof summary>) =>
      `${name.padEnd(9)} ${[...PHASES, 'render' as const].map((k) => `${k} ${x[k].ms} (${x[k].cpuMs} CPU)`).join(' | ')} ms; DWG read ${x.dwgRead.ms} ms`;
    // the split at a glance (stderr: stdout is the JSON)
    console.error(`cad-render, median of ${runs} cold runs, ${path.basename(file)} at ${WIDTH} px, load average ${os.loadavg()[0].toFixed(1)}:`);
    console.error(row('ours', s));
    if (b) console.error(row(`${ref}`, b));
    console.error(`render ${s.render.ms} ms against the ${TARGET_MS} ms target: ${s.render.ms < TARGET_MS ? 'met' : 'not met'}${b ? `; baseline ÷ ours ${ratio('render')!.ms} (wall), ${ratio('render')!.cpuMs} (CPU)` : ''}`);
    return {
      file: path.basename(file),
      widthPx: WIDTH,
      runs,
      loadAverage: os.loadavg().map((x) => +x.toFixed(2)),
      target: { renderMs: TARGET_MS, ours: s.render.ms, met: s.render.ms < TARGET_MS },
      ours: s,
      baseline: b ? { ref, ...b } : null,
      ratio: b ? { flatten: ratio('flatten'), fontLoad: ratio('fontLoad'), text: ratio('text'), raster: ratio('raster'), render: ratio('render') } : null,
      samePng: b ? theirs.every((r) => r.pngSha256 === ours[0].pngSha256) && ours.every((r) => r.pngSha256 === ours[0].pngSha256) : null,
      command,
      counts: { ...ours[0].counts, pngBytes: ours[0].pngBytes },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
