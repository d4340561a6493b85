import fs from 'node:fs';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import * as clip from './src/pdf-import/clip.ts';
import { walkOperators } from './src/pdf-import/walk-operators.ts';
const orig = clip.showsThrough;
const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync('../../../shared/samples/pdf_ddc_floorplan_plot.pdf')), verbosity: 0 }).promise;
const page = await doc.getPage(1);
const ops = await page.getOperatorList();
const names = Object.fromEntries(Object.entries(pdfjs.OPS).map(([k,v])=>[v,k]));
const c = walkOperators(ops as any, pdfjs.OPS as any, page.view, () => null, (id) => id, { maxSegments: 1e9, maxGlyphs: 1e9 });
const hits = c.shapes.filter(s => s.subpaths.some(sp => [sp.start, ...sp.segs.map(g => g.to)].some(p => p[1] > 1153 && p[1] < 1170)));
console.log(hits.length, hits.slice(0, 5).map(s => JSON.stringify({ layer: s.layer, sp: s.subpaths.map(sp => [sp.start, ...sp.segs.map(g => g.to)].map(p => p.map(v => +v.toFixed(1)))) })));
// show clip ops around grid layer
let shown = 0;
for (let i = 0; i < ops.fnArray.length && shown < 3; i++) if (names[ops.fnArray[i]] === 'beginMarkedContentProps' && (ops.argsArray[i] as any)[1]?.id === '20R') { shown++; for (let j = i - 12; j < i + 8; j++) console.log(j, names[ops.fnArray[j]], JSON.stringify(ops.argsArray[j], (k, v) => v instanceof Float32Array ? Array.from(v).slice(0, 14).map(x => +x.toFixed(1)) : v)?.slice(0, 200)); }
