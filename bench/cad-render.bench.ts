/**
 * `cad render` of the floor plan DWG to a 1600 px PNG (issue 15, performance): the whole command as a user runs
 * it, and where its time goes — tsx start-up (the CLI run with no arguments: node, tsx and our modules loaded),
 * DWG read (LibreDWG in its worker process, our DXF reader), flatten, fonts, text (the text engine's callback,
 * timed inside the render), SVG (our batches without the text time) and raster (resvg). One cold run of each
 * (a CLI run is cold by nature); the in-process phases run in this process after one warm-up read.
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
    const ms = (t: number) => Math.round(performance.now() - t);
    let t = performance.now();
    const d = await readDrawing(bytes, path.basename(file));
    const dwgRead = ms(t);
    t = performance.now();
    await readDrawing(bytes, path.basename(file));
    const dwgReadWarm = ms(t);
    stopDwgWorker();
    const layout = defaultLayout(d);
    t = performance.now();
    const flat = flattenLayout(d, layout, { curves: true })!;
    const flatten = ms(t);
    t = performance.now();
    const fonts = await loadFonts(d, async () => null);
    const fontLoad = ms(t);
    let textMs = 0;
    const text: TextGeometry = (run) => {
      const t0 = performance.now();
      try {
        return textGeometry(run, d, fonts);
      } finally {
        textMs += performance.now() - t0;
      }
    };
    t = performance.now();
    const svg = renderSvg(flat, { width: WIDTH, background: 'light', text });
    const svgAndText = ms(t);
    t = performance.now();
    const png = new Resvg(svg, { fitTo: { mode: 'width', value: WIDTH }, font: { loadSystemFonts: false } }).render().asPng();
    const raster = ms(t);
    return {
      file: path.basename(file),
      layout,
      widthPx: WIDTH,
      cliTotalMs: cli.ms,
      cliStatus: cli.status,
      phasesMs: {
        startup: startup.ms,
        dwgRead,
        dwgReadWarm,
        flatten,
        fontLoad,
        text: Math.round(textMs),
        svg: Math.round(svgAndText - textMs),
        raster,
      },
      counts: { polylines: flat.polylines.length, curves: flat.curves?.length ?? 0, texts: flat.texts.length, svgBytes: svg.length, pngBytes: png.length },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
