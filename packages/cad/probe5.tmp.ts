import fs from 'node:fs';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { walkOperators } from './src/pdf-import/walk-operators.ts';
const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync('../../../shared/samples/pdf_ddc_floorplan_plot.pdf')), verbosity: 0 }).promise;
const page = await doc.getPage(1);
const ops = await page.getOperatorList();
const c = walkOperators(ops as any, pdfjs.OPS as any, page.view, () => null, () => 'L', { maxSegments: 1e9, maxGlyphs: 1e9 });
const fills = c.shapes.filter(s => s.fill).map(s => { const xs = s.subpaths.flatMap(sp => [sp.start[0], ...sp.segs.map(g => g.to[0])]); const ys = s.subpaths.flatMap(sp => [sp.start[1], ...sp.segs.map(g => g.to[1])]); return { col: s.fillColor, w: Math.max(...xs)-Math.min(...xs), h: Math.max(...ys)-Math.min(...ys), x: Math.min(...xs), y: Math.min(...ys), n: s.subpaths.length }; });
const byCol: Record<string, number> = {}; for (const f of fills) byCol[f.col] = (byCol[f.col]??0)+1; console.log(byCol);
console.log(fills.filter(f => f.col !== '#ffffff').sort((a,b)=>b.w*b.h-a.w*a.h).slice(0,8));
const inR = c.shapes.filter(s => s.stroke && s.subpaths.every(sp => sp.start[0] > 505 && sp.start[0] < 607 && sp.start[1] > 720 && sp.start[1] < 938));
console.log('in region', inR.length);
const lw: Record<string, number> = {}; for (const s of inR) { const k = s.lineWidth.toFixed(2)+' '+s.strokeColor+' segs'+s.subpaths.reduce((a,b)=>a+b.segs.length,0); lw[k]=(lw[k]??0)+1; }
console.log(Object.entries(lw).sort((a,b)=>b[1]-a[1]).slice(0,15));
