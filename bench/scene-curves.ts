/**
 * Scene size and vertex counts with curves baked (as before scene format 4) and as exact records:
 * `npx tsx bench/scene-curves.ts file.dxf file.dwg …` prints one JSON line per file and a table.
 *
 * Both scenes are built as the server builds them (bundled fonts, placed glyphs), the "baked" one with the flattener's
 * `curves: false`. The viewer's figures are for a 963 × 815 canvas at device pixel ratio 1 (the viewer benchmark's),
 * at the fitted view and zoomed 10× and 100× into the drawing's centre: vertices the GPU runs for lines and for
 * curves, the curves' with the viewer's tile culling (gl-curves.ts) reproduced here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileScene, encodeScene, flattenLayout, layoutNames, loadFonts, readDrawing, stopDwgWorker, textGeometry, textGlyphs, MODEL } from '../packages/cad/src/index.ts';
import { bucketSegments, CURVE_GRID, curveTile, type Scene } from '../packages/cad/src/scene/index.ts';

const W = 963, H = 815;

/** Vertices the viewer draws for curves at a view (centre relative to the origin, CSS px per unit), culling as gl-curves.ts. */
function curveVertices(s: Scene, cx: number, cy: number, ppu: number): number {
  const n = Math.floor(s.curves.length / 12);
  const tiles = new Int32Array(n);
  for (let i = 0; i < n; i++) tiles[i] = curveTile(s.curves[i * 12], s.curves[i * 12 + 1], s.meta.bounds, s.meta.origin);
  const margin = 64 / ppu;
  const x0 = cx - W / 2 / ppu - margin, x1 = cx + W / 2 / ppu + margin, y0 = cy - H / 2 / ppu - margin, y1 = cy + H / 2 / ppu + margin;
  let total = 0;
  for (const b of s.meta.curveBuckets ?? []) {
    const [, , first, count, maxR] = b;
    const segs = bucketSegments(b, ppu);
    if (count * segs * 2 <= 20_000) {
      total += count * segs * 2;
      continue;
    }
    const lo = curveTile(x0 - maxR, y0 - maxR, s.meta.bounds, s.meta.origin), hi = curveTile(x1 + maxR, y1 + maxR, s.meta.bounds, s.meta.origin);
    const c0 = lo % CURVE_GRID, r0 = Math.floor(lo / CURVE_GRID), c1 = hi % CURVE_GRID, r1 = Math.floor(hi / CURVE_GRID);
    for (let i = first; i < first + count; i++) {
      const t = tiles[i], r = Math.floor(t / CURVE_GRID), c = t % CURVE_GRID;
      if (r >= r0 && r <= r1 && c >= c0 && c <= c1) total += segs * 2;
    }
  }
  return total;
}

async function build(file: string, curves: boolean) {
  const d = await readDrawing(readFileSync(file), file, { timeoutMs: 120_000 });
  const fonts = await loadFonts(d, async () => null);
  const t0 = performance.now();
  const flat = flattenLayout(d, MODEL, { curves })!;
  const scene = compileScene(d, flat, { layout: MODEL, layouts: layoutNames(d), textGeometry: (r) => textGeometry(r, d, fonts), textGlyphs: (r) => textGlyphs(r, d, fonts) });
  const bytes = encodeScene(scene);
  return { scene, bytes: bytes.byteLength, ms: performance.now() - t0 };
}

const rows: string[] = [];
for (const file of process.argv.slice(2)) {
  const before = await build(file, false);
  const after = await build(file, true);
  const s = after.scene;
  const b = s.meta.bounds;
  const fit = Math.min(W / Math.max(b.maxX - b.minX, 1e-9), H / Math.max(b.maxY - b.minY, 1e-9)) * 0.92;
  const cx = (b.minX + b.maxX) / 2 - s.meta.origin[0], cy = (b.minY + b.maxY) / 2 - s.meta.origin[1];
  const curvesAt = (z: number) => curveVertices(s, cx, cy, fit * z);
  const r = {
    file: path.basename(file),
    bytesBefore: before.bytes,
    bytesAfter: after.bytes,
    lineVerticesBefore: before.scene.linePositions.length / 2,
    lineVerticesAfter: s.linePositions.length / 2,
    curveRecords: s.curves.length / 12,
    curveBuckets: s.meta.curveBuckets?.length ?? 0,
    curveVerticesFit: curvesAt(1),
    curveVertices10x: curvesAt(10),
    curveVertices100x: curvesAt(100),
    compileMsBefore: Math.round(before.ms),
    compileMsAfter: Math.round(after.ms),
  };
  console.log(JSON.stringify(r));
  const mb = (n: number) => (n / 1e6).toFixed(2);
  rows.push(`| ${r.file} | ${mb(r.bytesBefore)} → ${mb(r.bytesAfter)} | ${r.lineVerticesBefore.toLocaleString('en')} → ${r.lineVerticesAfter.toLocaleString('en')} | ${r.curveRecords.toLocaleString('en')} (${r.curveBuckets}) | ${r.curveVerticesFit.toLocaleString('en')} / ${r.curveVertices10x.toLocaleString('en')} / ${r.curveVertices100x.toLocaleString('en')} |`);
}
console.log('| file | scene MB before → after | line vertices before → after | curve records (buckets) | curve vertices drawn at fit / 10× / 100× |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
stopDwgWorker();
