import fs from 'node:fs';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { walkOperators } from './src/pdf-import/walk-operators.ts';
const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync('../../../shared/samples/pdf_ddc_floorplan_plot.pdf')), verbosity: 0 }).promise;
const page = await doc.getPage(1);
const ops = await page.getOperatorList();
const names = Object.fromEntries(Object.entries(pdfjs.OPS).map(([k,v])=>[v,k]));
const count = (n: number) => { const c = walkOperators({ fnArray: ops.fnArray.slice(0, n), argsArray: ops.argsArray.slice(0, n) } as any, pdfjs.OPS as any, page.view, () => null, () => 'L', { maxSegments: 1e9, maxGlyphs: 1e9 }); return c.shapes.filter(s => s.stroke && s.lineWidth > 0.36 && s.lineWidth < 0.38 && s.subpaths.every(sp => sp.start[0] > 505 && sp.start[0] < 607 && sp.start[1] > 720 && sp.start[1] < 938)).length; };
let lo = 0, hi = ops.fnArray.length;
while (hi - lo > 1) { const m = (lo + hi) >> 1; if (count(m) > 100) hi = m; else lo = m; }
console.log('first heavy at', hi);
let start = hi; while (start > 0 && names[ops.fnArray[start]] !== 'eoClip' && names[ops.fnArray[start]] !== 'clip') start--;
for (let j = start - 30; j < start + 25; j++) console.log(j, names[ops.fnArray[j]], JSON.stringify(ops.argsArray[j], (k,v)=> v instanceof Float32Array? Array.from(v).slice(0,16).map(x=>+x.toFixed(2)):v)?.slice(0,220));
