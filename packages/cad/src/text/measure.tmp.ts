import { readFileSync } from 'node:fs';
import { parseDxf, flattenModelSpace, loadFonts, textGeometry, textBounds } from '../index.ts';
for (const f of ['dxf_2018_acadsharp_sample_ascii.dxf', 'dxf_qcad_symbols_large.dxf', 'dxf_ezdxf_mtext_inline_codes.dxf', 'dxf_dxfjs_floorplan.dxf']) {
  const d = parseDxf(new Uint8Array(readFileSync('/work/shared/samples/' + f)));
  const flat = flattenModelSpace(d);
  const t0 = performance.now();
  const fonts = await loadFonts(d, async () => null);
  const t1 = performance.now();
  let tris = 0, strokes = 0;
  for (const r of flat.texts) { const g = textGeometry(r, d, fonts); tris += g.triangles.length / 6; strokes += g.strokes.length; }
  const t2 = performance.now();
  const warm: number[] = [], bounds: number[] = [];
  for (let k = 0; k < 5; k++) {
    let t = performance.now(); for (const r of flat.texts) textGeometry(r, d, fonts); warm.push(performance.now() - t);
    t = performance.now(); for (const r of flat.texts) textBounds(r, d, fonts); bounds.push(performance.now() - t);
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[2].toFixed(0);
  console.log(`${f}: ${flat.texts.length} runs, ${strokes} strokes, ${tris} triangles; loadFonts ${(t1 - t0).toFixed(0)} ms, first layout ${(t2 - t1).toFixed(0)} ms, warm layout ${med(warm)} ms, bounds ${med(bounds)} ms`);
}
