/**
 * `cad render` of the floor plan DWG to a 1600 px PNG (issue 15, performance): the whole command as a user runs
 * it, and where its time goes — tsx start-up (the CLI run with no arguments: node, tsx and our modules loaded),
 * DWG read (LibreDWG in its worker process, our DXF reader), flatten, fonts, text (the text engine's callback,
 * timed inside the render) and raster (renderPng without the text time: prepare, paint, PNG). The baseline, in
 * the same run on the same flattening: the way PNGs were made until 2026-11 (our SVG string re-parsed and
 * rasterised by resvg), with its ratio to renderPng. One cold run of each (a CLI run is cold by nature: its first
 * flatten, font load and glyphs are the ones timed); the in-process phases run in this process after one warm-up
 * read. Each phase also gives its CPU time (user + system of this process), steadier than the wall clock when
 * other jobs share the cores.
 *
 *   npm run bench -- cad-render          only this benchmark
 *   BENCH_RENDER_FILE=/path/to/x.dwg     another drawing (default SAMPLES_DIR/dwg_2004_ddc_floorplan.dwg)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { readDrawing } from '../packages/cad/src/open.ts';
import { stopDwgWorker } from '../packages/cad/src/dwg/dwg-reader.ts';
import { defaultLayout, flattenLayout } from '../packages/cad/src/geometry/layout.ts';
import { renderSvg } from '../packages/cad/src/render/svg.ts';
import { renderPng } from '../packages/cad/src/render/png.ts';
import type { TextGeometry } from '../packages/cad/src/render/prepare.ts';
import { loadFonts, textGeometry } from '../packages/cad/src/text/index.ts';

const root = path.resolve(import.meta.dirname, '..');
const WIDTH = 1600;

function wall(args: string[]): { ms: number; status: number | null } {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'packages/cad/src/cli/cad.cli.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  return { ms: Math.round(performance.now() - t), status: r.status };
}

export async function runCadRenderBench() {
  const file = process.env.BENCH_RENDER_FILE ?? path.resolve(root, process.env.SAMPLES_DIR ?? '../shared/samples', 'dwg_2004_ddc_floorplan.dwg');
  if (!existsSync(file)) return { skipped: `no ${file}` };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-render-bench-'));
  try {
    const startup = wall([]); // usage message: start-up and module loading only
    const cli = wall(['render', file, path.join(dir, 'out.png'), '--width', String(WIDTH)]);

    const bytes = readFileSync(file);
    // wall and CPU milliseconds of one phase
    const phase = async <T>(run: () => T | Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> => {
      const c = process.cpuUsage(), t = performance.now();
      const value = await run();
      const ms = performance.now() - t, u = process.cpuUsage(c);
      return { value, ms: Math.round(ms), cpuMs: Math.round((u.user + u.system) / 1000) };
    };
    const read = await phase(() => readDrawing(bytes, path.basename(file)));
    const d = read.value;
    const readWarm = await phase(() => readDrawing(bytes, path.basename(file)));
    stopDwgWorker();
    const layout = defaultLayout(d);
    const flatten = await phase(() => flattenLayout(d, layout, { curves: true })!);
    const flat = flatten.value;
    const fonts = await phase(() => loadFonts(d, async () => null));
    let textMs = 0, textCpu = 0;
    const text: TextGeometry = (run) => {
      const c = process.cpuUsage(), t0 = performance.now();
      try {
        return textGeometry(run, d, fonts.value);
      } finally {
        textMs += performance.now() - t0;
        const u = process.cpuUsage(c);
        textCpu += (u.user + u.system) / 1000;
      }
    };
    // ours first: its text callback meets cold glyphs, as the CLI's does
    const png = await phase(() => renderPng(flat, { width: WIDTH, background: 'light', text }));
    const text1 = { ms: Math.round(textMs), cpuMs: Math.round(textCpu) };
    textMs = textCpu = 0;
    const svgPath = await phase(() => {
      const svg = renderSvg(flat, { width: WIDTH, background: 'light', text });
      return { svg: svg.length, png: new Resvg(svg, { fitTo: { mode: 'width', value: WIDTH }, font: { loadSystemFonts: false } }).render().asPng().length };
    });
    const raster = { ms: png.ms - text1.ms, cpuMs: png.cpuMs - text1.cpuMs };
    const baseline = { ms: Math.round(svgPath.ms - textMs), cpuMs: Math.round(svgPath.cpuMs - textCpu) };
    const of = (p: { ms: number; cpuMs: number }) => ({ ms: p.ms, cpuMs: p.cpuMs });
    return {
      file: path.basename(file),
      layout,
      widthPx: WIDTH,
      cliTotalMs: cli.ms,
      cliStatus: cli.status,
      startupMs: startup.ms,
      phases: {
        dwgRead: of(read),
        dwgReadWarm: of(readWarm),
        flatten: of(flatten),
        fontLoad: of(fonts),
        text: text1,
        raster,
      },
      // flatten + fonts + text + raster: the target is under 1 s for a drawing of a few MB
      renderMs: flatten.ms + fonts.ms + text1.ms + raster.ms,
      renderCpuMs: flatten.cpuMs + fonts.cpuMs + text1.cpuMs + raster.cpuMs,
      baseline: { what: 'SVG string + resvg (the PNG path until 2026-11), text excluded, same flattening, glyphs warm', ...baseline, ratio: +(baseline.ms / Math.max(1, raster.ms)).toFixed(2), cpuRatio: +(baseline.cpuMs / Math.max(1, raster.cpuMs)).toFixed(2) },
      counts: { polylines: flat.polylines.length, curves: flat.curves?.length ?? 0, texts: flat.texts.length, svgBytes: svgPath.value.svg, pngBytes: png.value.length, baselinePngBytes: svgPath.value.png },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
