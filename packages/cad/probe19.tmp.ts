import fs from 'node:fs';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { walkOperators } from './src/pdf-import/walk-operators.ts';
(globalThis as any).__clips = [];
const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync('../../../shared/samples/pdf_ddc_floorplan_plot.pdf')), verbosity: 0 }).promise;
const page = await doc.getPage(1);
const ops = await page.getOperatorList();
walkOperators(ops as any, pdfjs.OPS as any, page.view, () => null, (id) => id, { maxSegments: 1e9, maxGlyphs: 1e9 });
const m = new Map<string, number>();
for (const c of (globalThis as any).__clips) { const k = JSON.stringify({ ...c, box: c.box.map((v: number) => Math.round(v)) , rings: c.rings.length > 3 ? c.rings.length + ' rings' : c.rings}); m.set(k, (m.get(k) ?? 0) + 1); }
console.log([...m].sort((a, b) => b[1] - a[1]).slice(0, 15));
