import { readFileSync, readdirSync } from 'node:fs';
import { parseDxf, flattenModelSpace, loadFonts, textGeometry, textBounds } from '../index.ts';
for (const f of readdirSync('/work/shared/samples').filter((n) => n.endsWith('.dxf'))) {
  const d = parseDxf(new Uint8Array(readFileSync('/work/shared/samples/' + f)));
  const flat = flattenModelSpace(d);
  const t0 = performance.now();
  const fonts = await loadFonts(d, async () => null);
  const t1 = performance.now();
  let s = 0, tr = 0, boxes = 0;
  for (const r of flat.texts) { const g = textGeometry(r, d, fonts); s += g.strokes.length; tr += g.triangles.length / 6; boxes += g.strokes.filter((p) => p.length === 10).length; }
  const t2 = performance.now();
  for (const r of flat.texts) textBounds(r, d, fonts);
  const t3 = performance.now();
  for (const r of flat.texts) textGeometry(r, d, fonts);
  const t4 = performance.now();
  console.log(f.padEnd(40), String(flat.texts.length).padStart(5), 'runs', String(s).padStart(6), 'strokes', String(tr).padStart(7), 'tris', 'load', (t1 - t0).toFixed(0), 'geom(cold)', (t2 - t1).toFixed(0), 'bounds', (t3 - t2).toFixed(0), 'geom(warm)', (t4 - t3).toFixed(0), 'ms; subst', fonts.report.substituted.map((x) => x.name).join(','));
}
