/**
 * Text engine timings on real drawings: `npx tsx packages/cad/src/text/measure.cli.ts [file.dxf …]` (default: the
 * largest DXF samples). Bundled fonts only, as the samples' own fonts are not public.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseDxf } from '../dxf/reader.ts';
import { flattenModelSpace } from '../geometry/flatten.ts';
import { loadFonts, textBounds, textGeometry } from './index.ts';

const samples = path.resolve(import.meta.dirname, '../../../..', process.env.SAMPLES_DIR ?? '../shared/samples');
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync(samples)
      .filter((n) => n.endsWith('.dxf'))
      .map((n) => path.join(samples, n))
      .sort((a, b) => statSync(b).size - statSync(a).size)
      .slice(0, 4);
const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)].toFixed(0);

for (const f of files) {
  const d = parseDxf(new Uint8Array(readFileSync(f)));
  const runs = flattenModelSpace(d).texts;
  const t0 = performance.now();
  const fonts = await loadFonts(d, async () => null);
  const t1 = performance.now();
  let tris = 0, strokes = 0;
  for (const r of runs) {
    const g = textGeometry(r, d, fonts);
    tris += g.triangles.length / 6;
    strokes += g.strokes.length;
  }
  const t2 = performance.now();
  const warm: number[] = [], bounds: number[] = [];
  for (let k = 0; k < 5; k++) {
    let t = performance.now();
    for (const r of runs) textGeometry(r, d, fonts);
    warm.push(performance.now() - t);
    t = performance.now();
    for (const r of runs) textBounds(r, d, fonts);
    bounds.push(performance.now() - t);
  }
  console.log(`${path.basename(f)} (${(statSync(f).size / 1e6).toFixed(1)} MB): ${runs.length} runs, ${strokes} strokes, ${tris} triangles; loadFonts ${(t1 - t0).toFixed(0)} ms, first layout ${(t2 - t1).toFixed(0)} ms, again ${median(warm)} ms, bounds ${median(bounds)} ms; substituted ${fonts.report.substituted.map((s) => s.name).join(', ') || 'none'}`);
}
